import type { Fetcher, OutboundHop, OutboundResult } from '../../outbound/types.ts';

/**
 * What one check of an address found (decision 0069). `state.ts` turns it into the link's
 * state; this file only reads the site's answers.
 *
 * - `fine`: the site answered, also with a sign-in page (401/403).
 * - `moved`: permanent redirects (301/308) lead to an address that answers; `to` is where
 *   the permanent redirects end (see `movedTarget`).
 * - `failure`: the site is not there or says the page is not: counts toward broken.
 * - `inconclusive`: the site asked us to slow down (429, 503 with Retry-After), or the
 *   answer could not be read: nothing is concluded, the link is asked again later.
 * - `refused`: the address was not asked at all (an internal address, not http or https):
 *   the link is unknown, never broken.
 */
export type CheckOutcome =
  | { kind: 'fine'; status: number; url: string }
  | { kind: 'moved'; status: number; to: string }
  | { kind: 'failure'; failure: FailureKind; status: number | null; message: string }
  | {
      kind: 'inconclusive';
      status: number | null;
      /** What the site asked for (Retry-After), in seconds; null when it said nothing. */
      retryAfterSeconds: number | null;
      message: string;
    }
  | { kind: 'refused'; reason: 'internal-address' | 'bad-scheme' | 'bad-address'; message: string };

/** Why a check failed: the site's status (`http`) or the fetcher's failure. */
export type FailureKind = 'http' | 'dns' | 'timeout' | 'network' | 'too-many-redirects';

export interface CheckOptions {
  /** Each request's time, redirects included. */
  timeoutMs?: number;
  /**
   * Awaited before a GET that follows a HEAD: the round waits its per-host interval there,
   * so that the fallback is paced like any other request to the host.
   */
  beforeRetry?: () => Promise<void>;
  /** Awaited before a redirect is followed (the fetcher's `beforeRedirect`): paced alike. */
  beforeRedirect?: (next: string) => Promise<void>;
  signal?: AbortSignal;
}

/** The default time a request may take, redirects included. */
export const CHECK_TIMEOUT_MS = 10_000;

/** The longest Retry-After that is honoured as it is (a day); longer ones are capped. */
const MAX_RETRY_AFTER_SECONDS = 24 * 3600;

const PERMANENT = new Set([301, 308]);

/**
 * Where an address's permanent redirects lead: the target of the last of the permanent hops
 * the chain starts with. A temporary hop (302, 303, 307) ends it, because it says "keep
 * asking the address before me": `http://app/` → 301 `https://app/` → 302 a sign-in page is
 * moved to `https://app/`, never to the sign-in page with its one-time parameters. Null when
 * the first hop is not permanent. The link's fragment is kept when the target has none, as
 * browsers do (RFC 9110, 10.2.2).
 */
export function movedTarget(original: string, redirects: readonly OutboundHop[]): string | null {
  let target: URL | null = null;
  for (const hop of redirects) {
    if (!PERMANENT.has(hop.status)) break;
    try {
      target = new URL(hop.location, hop.url);
    } catch {
      break;
    }
  }
  if (!target) return null;
  try {
    const from = new URL(original);
    if (!target.hash && from.hash) target.hash = from.hash;
    return target.href === from.href ? null : target.href;
  } catch {
    return target.href;
  }
}

/** Retry-After as seconds from now (a number of seconds or an HTTP date); null if absent. */
export function retryAfter(value: string | undefined, now = Date.now()): number | null {
  if (value === undefined) return null;
  const text = value.trim();
  let seconds: number;
  if (/^\d+$/.test(text)) seconds = Number(text);
  else {
    const at = Date.parse(text);
    if (Number.isNaN(at)) return null;
    seconds = Math.ceil((at - now) / 1000);
  }
  return Math.min(Math.max(seconds, 0), MAX_RETRY_AFTER_SECONDS);
}

type Answer = Extract<OutboundResult, { ok: true }>;
type NoAnswer = Extract<OutboundResult, { ok: false }>;

/** Answers that say "not now" rather than "not here". */
function slowDown(answer: Answer): CheckOutcome | null {
  const after = retryAfter(answer.headers['retry-after']);
  if (answer.status === 429 || (answer.status === 503 && after !== null)) {
    return {
      kind: 'inconclusive',
      status: answer.status,
      retryAfterSeconds: after,
      message: `the site answered ${answer.status}: asked to slow down`,
    };
  }
  return null;
}

/** A good answer: fine, or moved when permanent redirects led to it. */
function answered(original: string, answer: Answer): CheckOutcome {
  const to = movedTarget(original, answer.redirects);
  if (to) return { kind: 'moved', status: answer.status, to };
  return { kind: 'fine', status: answer.status, url: answer.url };
}

function noAnswer(result: NoAnswer): CheckOutcome {
  switch (result.failure) {
    case 'internal-address':
    case 'bad-scheme':
    case 'bad-address':
      return { kind: 'refused', reason: result.failure, message: result.message };
    case 'too-large':
      // A body was read although none was asked for: the site answered, but what it said
      // is not known. Not the site's fault.
      return {
        kind: 'inconclusive',
        status: null,
        retryAfterSeconds: null,
        message: result.message,
      };
    default:
      return { kind: 'failure', failure: result.failure, status: null, message: result.message };
  }
}

/** What the fetcher's failures of a HEAD mean: some are worth a GET, some are final. */
const RETRY_WITH_GET = new Set<NoAnswer['failure']>(['timeout', 'network']);

/**
 * Checks an address (decision 0069): HEAD first, with no body; when the HEAD is answered
 * with an error, or not answered (a timeout, a reset), the same address is asked with GET,
 * whose body is not read. Servers answer HEAD wrongly often enough (405 and 501, but also
 * 400, 403, 404 and resets from frameworks and firewalls that only route GET) that only a
 * GET's answer may call a link broken. The GET costs a second request only for links that
 * look broken, which are few. Never throws for a site's answer; the fetcher follows at most
 * three redirects.
 *
 * - 2xx and 3xx (one that was not followed) are fine, or moved after permanent redirects.
 * - 401 and 403 from the GET are fine: the site is there and wants a sign-in (intranet and
 *   single sign-on apps answer a stranger so). A permanent redirect before them is moved.
 * - 429, and 503 with Retry-After, are inconclusive, from the HEAD already: the site asked
 *   for fewer requests, so it gets no second one.
 * - Any other 4xx or 5xx from the GET, a name that does not resolve, a timeout, a network
 *   failure and too many redirects are failures.
 * - An internal address, a scheme other than http(s) or a malformed address (also where a
 *   redirect points) was not asked: refused, which leaves the link unknown.
 */
export async function checkAddress(
  fetcher: Fetcher,
  url: string,
  { timeoutMs = CHECK_TIMEOUT_MS, beforeRetry, beforeRedirect, signal }: CheckOptions = {},
): Promise<CheckOutcome> {
  const common = {
    discardBody: true,
    timeoutMs,
    followRedirects: true,
    signal,
    beforeRedirect,
  } as const;
  const head = await fetcher.fetch(url, { ...common, method: 'HEAD' });
  if (head.ok) {
    const busy = slowDown(head);
    if (busy) return busy;
    if (head.status < 400) return answered(url, head);
  } else if (!RETRY_WITH_GET.has(head.failure)) {
    return noAnswer(head);
  }

  await beforeRetry?.();
  const get = await fetcher.fetch(url, { ...common, method: 'GET' });
  if (!get.ok) return noAnswer(get);
  const busy = slowDown(get);
  if (busy) return busy;
  if (get.status < 400 || get.status === 401 || get.status === 403) return answered(url, get);
  return {
    kind: 'failure',
    failure: 'http',
    status: get.status,
    message: `the site answered ${get.status}`,
  };
}
