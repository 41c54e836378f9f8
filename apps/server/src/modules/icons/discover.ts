import type { DefaultTreeAdapterTypes, parse as parseHtml } from 'parse5';
import { LARGEST_ICON_SIZE } from './image.ts';

// Where a page says its icons are (decision 0068): its `<link rel="icon">` (any rel list
// with the token `icon`, so `shortcut icon` too), `apple-touch-icon` and
// `apple-touch-icon-precomposed`, its web app manifest's `icons`, and then `/favicon.ico`
// at the site's origin, where browsers look when a page names none. The HTML is read by
// parse5, the WHATWG parser: what counts as the head, a `<base>`, an attribute or an
// unclosed tag is what a browser would make of the same bytes, broken pages included.

type Element = DefaultTreeAdapterTypes.Element;
type Node = DefaultTreeAdapterTypes.Node;

/** Where a candidate was found; also the order among candidates of equal size. */
export type CandidateOrigin = 'icon' | 'apple-touch-icon' | 'manifest' | 'favicon';
const ORIGIN_ORDER: Record<CandidateOrigin, number> = {
  icon: 0,
  'apple-touch-icon': 1,
  manifest: 2,
  favicon: 3,
};

export interface IconCandidate {
  /** An absolute http(s) address, or a `data:` address holding the icon itself. */
  url: string;
  from: CandidateOrigin;
  /**
   * The side in pixels the page declares (of several, the one the tiles are best served
   * by), or null when it declares none.
   */
  size: number | null;
  /** A `media` condition (a dark-mode icon, say): used only after the unconditional ones. */
  conditional: boolean;
}

export interface DiscoveredIcons {
  /** In order of preference, `/favicon.ico` last. */
  candidates: IconCandidate[];
  /** The first `<link rel="manifest">`, resolved, or null. */
  manifest: string | null;
}

/**
 * Apple asks for 180×180 and most sites leave `sizes` out of their apple-touch-icon: it is
 * taken at that size. An older 57 px one is still an icon, just scaled up.
 */
const APPLE_TOUCH_ICON_SIZE = 180;
/**
 * A `data:` icon larger than this (in characters of its address) is not a favicon but a page
 * that inlines pictures; the image checks cap the decoded bytes again.
 */
const MAX_DATA_URL_LENGTH = 700_000;

// parse5 loads with the first page read, not with the server (about 9 MB): loadHtmlParser
// before discoverIcons.
let parse: typeof parseHtml | null = null;
export async function loadHtmlParser(): Promise<void> {
  parse ??= (await import('parse5')).parse;
}

/**
 * The icon candidates of a page, from its HTML and the address it was finally read from
 * (after redirects), most preferred first, `/favicon.ico` at the origin last.
 */
export function discoverIcons(html: string, pageUrl: string): DiscoveredIcons {
  if (!parse) throw new Error('loadHtmlParser() first');
  const document = parse(html);
  const head = findHead(document);
  const base = baseUrl(document, pageUrl);
  const found: IconCandidate[] = [];
  let manifest: string | null = null;
  for (const element of head ? children(head) : []) {
    if (element.tagName !== 'link') continue;
    const href = attribute(element, 'href');
    if (href === null) continue;
    const tokens = relTokens(attribute(element, 'rel'));
    if (tokens.has('manifest')) {
      manifest ??= httpUrl(href, base);
      continue;
    }
    const from: CandidateOrigin | null = tokens.has('icon')
      ? 'icon'
      : tokens.has('apple-touch-icon') || tokens.has('apple-touch-icon-precomposed')
        ? 'apple-touch-icon'
        : null;
    if (from === null) continue;
    const candidate = makeCandidate(href, base, {
      from,
      type: attribute(element, 'type'),
      sizes: attribute(element, 'sizes'),
      conditional: (attribute(element, 'media') ?? '').trim() !== '',
    });
    if (candidate) found.push(candidate);
  }
  return { candidates: rankCandidates([...found, ...fallback(pageUrl)]), manifest };
}

/** `/favicon.ico` at the origin of an address, as a candidate; none for a non-http one. */
export function fallback(pageUrl: string): IconCandidate[] {
  const url = httpUrl('/favicon.ico', pageUrl);
  return url ? [{ url, from: 'favicon', size: null, conditional: false }] : [];
}

/**
 * The icons of a web app manifest (its JSON text and the address it was read from), each
 * resolved against that address as the manifest standard says. Icons whose `purpose` lacks
 * `any` (maskable ones, drawn small inside a safe zone for the launcher to crop, and
 * monochrome ones) are kept only as conditional candidates, after the others.
 */
export function manifestIcons(json: string, manifestUrl: string): IconCandidate[] {
  let manifest: unknown;
  try {
    manifest = JSON.parse(json);
  } catch {
    return [];
  }
  const icons = (manifest as { icons?: unknown } | null)?.icons;
  if (!Array.isArray(icons)) return [];
  const found: IconCandidate[] = [];
  for (const icon of icons.slice(0, 100)) {
    if (typeof icon !== 'object' || icon === null) continue;
    const { src, sizes, type, purpose } = icon as Record<string, unknown>;
    if (typeof src !== 'string') continue;
    const purposes = typeof purpose === 'string' ? relTokens(purpose) : new Set(['any']);
    const candidate = makeCandidate(src, manifestUrl, {
      from: 'manifest',
      type: typeof type === 'string' ? type : null,
      sizes: typeof sizes === 'string' ? sizes : null,
      conditional: !purposes.has('any'),
    });
    if (candidate) found.push(candidate);
  }
  return found;
}

/**
 * Candidates in order of preference, each address once (the first, best-ranked mention).
 *
 * 1. The unconditional before those with a `media` condition or a non-`any` purpose.
 * 2. By size: those declared at least LARGEST_ICON_SIZE, the smallest first (the least
 *    scaling down, the fewest bytes); then those of unknown size; then those declared
 *    smaller, the largest first (the least scaling up).
 * 3. `icon`, then `apple-touch-icon`, then the manifest's; then the page's own order.
 *
 * `/favicon.ico` comes after all of them, whatever its size, as browsers use it: when
 * nothing else is named.
 */
export function rankCandidates(candidates: IconCandidate[]): IconCandidate[] {
  const sizeRank = (size: number | null): [number, number] =>
    size === null ? [1, 0] : size >= LARGEST_ICON_SIZE ? [0, size] : [2, -size];
  const key = (candidate: IconCandidate, index: number) => [
    candidate.from === 'favicon' ? 1 : 0,
    candidate.conditional ? 1 : 0,
    ...sizeRank(candidate.size),
    ORIGIN_ORDER[candidate.from],
    index,
  ];
  const keyed = candidates.map((candidate, index) => ({ candidate, key: key(candidate, index) }));
  keyed.sort((a, b) => {
    for (let i = 0; i < a.key.length; i++) {
      const difference = a.key[i]! - b.key[i]!;
      if (difference !== 0) return difference;
    }
    return 0;
  });
  const seen = new Set<string>();
  return keyed
    .map(({ candidate }) => candidate)
    .filter((candidate) => !seen.has(candidate.url) && seen.add(candidate.url));
}

function makeCandidate(
  href: string,
  base: string,
  declared: {
    from: CandidateOrigin;
    type: string | null;
    sizes: string | null;
    conditional: boolean;
  },
): IconCandidate | null {
  const value = href.trim();
  // SVG is not rasterised (decision 0068): a candidate that says it is one would only spend
  // a fetch. One that does not say so is refused by its bytes when fetched.
  if (declared.type?.trim().toLowerCase().startsWith('image/svg')) return null;
  let url: string | null;
  if (/^data:/i.test(value)) {
    if (value.length > MAX_DATA_URL_LENGTH || /^data:image\/svg/i.test(value)) return null;
    url = value;
  } else {
    url = httpUrl(value, base);
    if (url === null || /\.svgz?$/i.test(new URL(url).pathname)) return null;
  }
  const size =
    declared.sizes !== null
      ? preferredSize(declared.sizes)
      : declared.from === 'apple-touch-icon'
        ? APPLE_TOUCH_ICON_SIZE
        : null;
  return { url, from: declared.from, size, conditional: declared.conditional };
}

/**
 * Of a `sizes` attribute's `WxH` entries (`16x16 32x32`, any case of x), the one that serves
 * the tiles best: the smallest at least LARGEST_ICON_SIZE, else the largest. `any` (a
 * scalable image) and nonsense count as undeclared. A non-square entry counts by its shorter
 * side, which is what fits in the square.
 */
export function preferredSize(sizes: string): number | null {
  const sides = sizes
    .trim()
    .split(/\s+/)
    .map((entry) => /^(\d{1,5})[xX](\d{1,5})$/.exec(entry))
    .filter((match) => match !== null)
    .map((match) => Math.min(Number(match[1]), Number(match[2])))
    .filter((side) => side > 0);
  if (sides.length === 0) return null;
  const enough = sides.filter((side) => side >= LARGEST_ICON_SIZE);
  return enough.length > 0 ? Math.min(...enough) : Math.max(...sides);
}

/** An http or https address resolved against a base, without its fragment; else null. */
function httpUrl(href: string, base: string): string | null {
  let url: URL;
  try {
    url = new URL(href.trim(), base);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  // The outbound fetcher refuses credentials in an address; so does everything else here.
  if (url.username !== '' || url.password !== '') return null;
  url.hash = '';
  return url.href;
}

/**
 * The document's base URL: the first `<base href>` in tree order, resolved against the page's
 * address, as the HTML standard has it; the page's own address when there is none or it does
 * not parse. A base that is not http(s) (`javascript:`, `data:`) is kept, as a browser keeps
 * it: relative addresses then resolve to nothing fetchable and are dropped.
 */
function baseUrl(document: Node, pageUrl: string): string {
  const stack: Node[] = [document];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (isElement(node) && node.tagName === 'base') {
      const href = attribute(node, 'href');
      if (href === null) continue;
      try {
        return new URL(href.trim(), pageUrl).href;
      } catch {
        return pageUrl;
      }
    }
    if ('childNodes' in node) stack.push(...[...node.childNodes].reverse());
  }
  return pageUrl;
}

function findHead(document: DefaultTreeAdapterTypes.Document): Element | null {
  // parse5 always builds <html> with a <head> (implied when the page leaves it out).
  const html = children(document).find((element) => element.tagName === 'html');
  return (html && children(html).find((element) => element.tagName === 'head')) ?? null;
}

function children(node: DefaultTreeAdapterTypes.ParentNode): Element[] {
  return node.childNodes.filter(isElement);
}

function isElement(node: Node): node is Element {
  return 'tagName' in node;
}

function attribute(element: Element, name: string): string | null {
  return element.attrs.find((attr) => attr.name === name)?.value ?? null;
}

/** A rel (or purpose) attribute's tokens: split on ASCII whitespace, compared in lower case. */
function relTokens(value: string | null): Set<string> {
  return new Set(
    (value ?? '')
      .toLowerCase()
      .split(/[\t\n\f\r ]+/)
      .filter((token) => token !== ''),
  );
}
