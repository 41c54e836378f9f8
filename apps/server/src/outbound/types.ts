/**
 * The one way the server reaches an address that people typed (decision 0067): what a caller
 * asks of the guarded fetcher and what it answers. Icons and link checks use only this.
 */

/** Why a request did not get an answer from the site. */
export type OutboundFailure =
  /** The host is, or resolves to, or redirects to, an address the server must not reach. */
  | 'internal-address'
  /** Not http or https (also where a redirect points). */
  | 'bad-scheme'
  /** Not an address at all, or one with credentials in it. */
  | 'bad-address'
  /** The name does not resolve. */
  | 'dns'
  /** No answer, or not all of it, within the time allowed. */
  | 'timeout'
  /** More redirects than allowed. */
  | 'too-many-redirects'
  /** The body is larger than the cap. */
  | 'too-large'
  /** Refused, reset, TLS failure and the like. */
  | 'network';

export interface OutboundOptions {
  /** GET by default. */
  method?: 'GET' | 'HEAD';
  /** The Accept header. */
  accept?: string;
  /** The body's cap in bytes; beyond it the request fails as too-large. */
  maxBytes?: number;
  /** Read no body at all: the answer's status and headers are what the caller wants. */
  discardBody?: boolean;
  /** The whole request's time, redirects included, in ms. */
  timeoutMs?: number;
  /** Follow redirects (at most 3); false answers the first hop as it is. Default true. */
  followRedirects?: boolean;
  /**
   * Awaited before a redirect is followed, with the address it leads to (already checked as
   * an address may be): a caller that paces its requests per host waits there.
   */
  beforeRedirect?: (next: string) => Promise<void>;
  signal?: AbortSignal;
}

/** One redirect followed: where it was, its status, where it pointed. */
export interface OutboundHop {
  url: string;
  status: number;
  location: string;
}

export type OutboundResult =
  | {
      ok: true;
      /** The address that answered, after redirects. */
      url: string;
      status: number;
      /** Header names in lower case. */
      headers: Record<string, string>;
      body: Buffer;
      redirects: OutboundHop[];
    }
  | {
      ok: false;
      failure: OutboundFailure;
      /** For logs and administrators; never shown as the site's own words. */
      message: string;
      /** The address that failed (the last hop). */
      url: string;
      redirects: OutboundHop[];
    };

export interface Fetcher {
  /** Never throws for a site's failure: it answers `ok: false` with why. */
  fetch(url: string, options?: OutboundOptions): Promise<OutboundResult>;
  /** Closes kept-alive connections. */
  close(): Promise<void>;
}
