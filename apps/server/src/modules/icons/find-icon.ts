import type { Fetcher, OutboundResult } from '../../outbound/types.ts';
import {
  discoverIcons,
  fallback,
  manifestIcons,
  rankCandidates,
  type CandidateOrigin,
  type IconCandidate,
  loadHtmlParser,
} from './discover.ts';
import { LARGEST_ICON_SIZE, processIcon, type ImageKind, type ScaledIcon } from './image.ts';

// A link's icon, found the way a browser finds a site's (decision 0068): the page, the
// icons it names (and its manifest's, when it names no large one), `/favicon.ico` at its
// origin. Every request goes through the guarded outbound fetcher (decision 0067), which
// refuses internal addresses and caps time and bytes; this module bounds how many requests
// one link may cost and keeps only what really is an image.

export interface FindIconOptions {
  /** Requests per link, the page and the manifest included. */
  maxFetches?: number;
  /** The page's cap: a larger page fails as too large, and `/favicon.ico` is tried. */
  pageMaxBytes?: number;
  manifestMaxBytes?: number;
  /** Each icon's cap, also that of a `data:` icon once decoded. */
  iconMaxBytes?: number;
  /** Each request's time; the fetcher's own default when left out. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

export const FIND_ICON_DEFAULTS = {
  maxFetches: 5,
  // Only the head matters, but the fetcher answers all of a body or none: 1 MiB holds the
  // head of nearly every page (large ones inline scripts and styles there); beyond it the
  // page is skipped, not read in part.
  pageMaxBytes: 1024 * 1024,
  manifestMaxBytes: 128 * 1024,
  // Real icons are a few KiB; a 512 px PNG with photographic detail stays under 512 KiB.
  iconMaxBytes: 512 * 1024,
} as const;

/** One request or candidate, and what came of it: for logs and administrators. */
export interface IconAttempt {
  url: string;
  /** 'ok', the fetcher's failure, `status 404` and the like, or the image's refusal. */
  outcome: string;
}

export type FoundIcon =
  | {
      ok: true;
      /** The icon's address (for an icon inline in the page, `data:` and its type only). */
      source: string;
      from: CandidateOrigin;
      kind: ImageKind;
      width: number;
      height: number;
      images: ScaledIcon[];
      attempts: IconAttempt[];
    }
  | {
      ok: false;
      /** 'bad-address': the link is no http(s) address; 'no-icon': nothing usable found. */
      reason: 'bad-address' | 'no-icon';
      attempts: IconAttempt[];
    };

const ACCEPT_HTML = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1';
const ACCEPT_MANIFEST = 'application/manifest+json,application/json;q=0.9,*/*;q=0.1';
// SVG is not asked for: it would be refused (decision 0068).
const ACCEPT_IMAGE =
  'image/png,image/x-icon,image/vnd.microsoft.icon,image/webp,image/gif,image/jpeg,' +
  'image/*;q=0.5,*/*;q=0.1';

/** Finds, checks and scales a page's icon. Never throws for a site's failure. */
export async function findIcon(
  fetcher: Fetcher,
  pageUrl: string,
  options: FindIconOptions = {},
): Promise<FoundIcon> {
  const settings = { ...FIND_ICON_DEFAULTS, ...options };
  const attempts: IconAttempt[] = [];
  if (!isHttpUrl(pageUrl)) return { ok: false, reason: 'bad-address', attempts };

  let fetchesLeft = settings.maxFetches;
  const get = async (url: string, accept: string, maxBytes: number) => {
    fetchesLeft--;
    const result = await fetcher.fetch(url, {
      method: 'GET',
      accept,
      maxBytes,
      ...(settings.timeoutMs !== undefined && { timeoutMs: settings.timeoutMs }),
      ...(settings.signal && { signal: settings.signal }),
    });
    const outcome = !result.ok ? result.failure : isSuccess(result) ? 'ok' : statusOf(result);
    attempts.push({ url, outcome });
    return result;
  };

  // The page. When it fails, or is no HTML, its site may still have a /favicon.ico: at the
  // origin that answered, or the link's own when nothing did.
  let candidates: IconCandidate[];
  const page = await get(pageUrl, ACCEPT_HTML, settings.pageMaxBytes);
  if (page.ok && isSuccess(page) && isHtml(page.headers['content-type'])) {
    await loadHtmlParser();
    const discovered = discoverIcons(decodeText(page.body, page.headers['content-type']), page.url);
    candidates = discovered.candidates;
    // A manifest costs a request, worth it only when the page names no icon that is large
    // enough, and when one for an icon and one for /favicon.ico remain after it.
    const largeEnough = candidates.some(
      (c) =>
        c.from !== 'favicon' && !c.conditional && c.size !== null && c.size >= LARGEST_ICON_SIZE,
    );
    if (discovered.manifest !== null && !largeEnough && fetchesLeft >= 3) {
      const manifest = await get(discovered.manifest, ACCEPT_MANIFEST, settings.manifestMaxBytes);
      if (manifest.ok && isSuccess(manifest)) {
        const icons = manifestIcons(decodeText(manifest.body, undefined), manifest.url);
        candidates = rankCandidates([...candidates, ...icons]);
      }
    }
  } else {
    candidates = fallback(page.ok ? page.url : pageUrl);
  }

  const favicon = candidates.find((candidate) => candidate.from === 'favicon');
  let faviconTried = false;
  for (const candidate of candidates) {
    if (candidate.url.startsWith('data:')) {
      // Inline in the page: no request, nothing spent.
      const inline = decodeDataUrl(candidate.url);
      const checked = inline
        ? await processIcon(inline.bytes, {
            claimedType: inline.type,
            maxBytes: settings.iconMaxBytes,
          })
        : null;
      const source = `data:${inline?.type ?? ''}`;
      attempts.push({
        url: source,
        outcome: checked?.ok ? 'ok' : (checked?.reason ?? 'not-base64'),
      });
      if (checked?.ok) {
        const { ok, ...image } = checked;
        return { ok, source, from: candidate.from, ...image, attempts };
      }
      continue;
    }
    if (fetchesLeft <= 0) break;
    // The last request is kept for /favicon.ico, the one address nearly every site answers.
    if (fetchesLeft === 1 && favicon && !faviconTried && candidate !== favicon) continue;
    if (candidate === favicon) faviconTried = true;
    const answer = await get(candidate.url, ACCEPT_IMAGE, settings.iconMaxBytes);
    if (!answer.ok || !isSuccess(answer)) continue;
    const checked = await processIcon(answer.body, {
      claimedType: answer.headers['content-type'],
      maxBytes: settings.iconMaxBytes,
    });
    if (!checked.ok) {
      attempts.at(-1)!.outcome = checked.reason;
      continue;
    }
    const { ok, ...image } = checked;
    return { ok, source: candidate.url, from: candidate.from, ...image, attempts };
  }
  return { ok: false, reason: 'no-icon', attempts };
}

function isHttpUrl(value: string): boolean {
  try {
    const { protocol } = new URL(value);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

type Answer = Extract<OutboundResult, { ok: true }>;
const isSuccess = (answer: Answer) => answer.status >= 200 && answer.status < 300;
const statusOf = (answer: Answer) => `status ${answer.status}`;

/** HTML by its Content-Type, or no Content-Type at all (the parser copes with anything). */
function isHtml(contentType: string | undefined): boolean {
  if (contentType === undefined) return true;
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  return type === '' || type === 'text/html' || type === 'application/xhtml+xml';
}

/**
 * The body as text, in the charset its Content-Type names when the platform knows it, else
 * UTF-8 with replacement characters. Icon addresses are ASCII in practice, so a page that
 * names its charset only in a `<meta>` loses nothing that matters here.
 */
function decodeText(body: Buffer, contentType: string | undefined): string {
  const charset = /;\s*charset\s*=\s*"?([\w.:-]+)/i.exec(contentType ?? '')?.[1];
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

/**
 * The bytes of a base64 `data:` address, and its media type (a claim, like a Content-Type).
 * Raster icons inline in pages are base64; percent-encoded ones are SVG in practice, and are
 * not taken.
 */
export function decodeDataUrl(url: string): { type: string; bytes: Buffer } | null {
  const comma = url.indexOf(',');
  if (comma < 0) return null;
  const meta = url.slice('data:'.length, comma);
  const parts = meta.split(';').map((part) => part.trim());
  if (parts.at(-1)?.toLowerCase() !== 'base64') return null;
  const type = parts[0]!.toLowerCase();
  return { type, bytes: Buffer.from(url.slice(comma + 1), 'base64') };
}
