import type {
  Fetcher,
  OutboundHop,
  OutboundOptions,
  OutboundResult,
} from '../../src/outbound/types.ts';

/**
 * A Fetcher that answers from canned results, for the tests of checks and rounds: it stands
 * in for the network, and notes every request it was asked for.
 */
export type Canned = OutboundResult | ((url: string) => OutboundResult | Promise<OutboundResult>);

export interface FakeFetcher extends Fetcher {
  calls: { url: string; method: 'GET' | 'HEAD'; options: OutboundOptions; at: number }[];
}

/** Answers `HEAD url` and `GET url` from `answers` (keys like 'HEAD https://…'), else `fallback`. */
export function fakeFetcher(
  answers: Record<string, Canned>,
  fallback: Canned = (url) => answer(url, 200),
): FakeFetcher {
  const calls: FakeFetcher['calls'] = [];
  return {
    calls,
    async fetch(url, options = {}) {
      const method = options.method ?? 'GET';
      calls.push({ url, method, options, at: Date.now() });
      const canned = answers[`${method} ${url}`] ?? fallback;
      return typeof canned === 'function' ? await canned(url) : canned;
    },
    async close() {},
  };
}

/** A site's answer: `status` at `url` (or at the last redirect's target). */
export function answer(
  url: string,
  status: number,
  {
    redirects = [],
    headers = {},
  }: { redirects?: OutboundHop[]; headers?: Record<string, string> } = {},
): OutboundResult {
  const last = redirects.at(-1);
  return {
    ok: true,
    url: last ? new URL(last.location, last.url).href : url,
    status,
    headers,
    body: Buffer.alloc(0),
    redirects,
  };
}

/** No answer: the fetcher's failure. */
export function noAnswer(
  url: string,
  failure: Extract<OutboundResult, { ok: false }>['failure'],
): OutboundResult {
  return { ok: false, failure, message: `${failure} for ${url}`, url, redirects: [] };
}
