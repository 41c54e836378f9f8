import dns, { type LookupAddress } from 'node:dns';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import net, { type LookupFunction } from 'node:net';
import type { Duplex } from 'node:stream';
import ipaddr from 'ipaddr.js';
import type {
  Fetcher,
  OutboundFailure,
  OutboundHop,
  OutboundOptions,
  OutboundResult,
} from './types.ts';

/** The product's version as sites see it in the User-Agent. */
export const SIGNPOST_VERSION = '0.1.0';

export interface FetcherOptions {
  /** Signpost's version, for the User-Agent. */
  version: string;
  /** The origin people reach this Signpost at: a site's operator sees who is asking. */
  publicUrl: string;
  /** The whole request's time, redirects and body included; 10 s by default. */
  timeoutMs?: number;
  /** The body's cap in bytes; 1 MiB by default. */
  maxBytes?: number;
  /** Redirects followed, 0–3; 3 by default. */
  maxRedirects?: number;
  /**
   * Replaces `dns.lookup` (tests: a name that resolves to loopback, or rebinds). Whatever it
   * answers is checked like a real answer: it cannot open an address.
   */
  resolve?: (hostname: string) => Promise<LookupAddress[]>;
  /**
   * TESTS ONLY: loopback sockets, `127.0.0.1:<port>` or `[::1]:<port>`, that may be
   * connected to although loopback is refused, so that tests can run real servers.
   * Nothing reads it from the environment or the configuration, only test code passes it;
   * creation throws under NODE_ENV=production, for any address but loopback, and for an
   * entry without a port.
   */
  testOnlyAllow?: readonly string[];
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_BYTES = 1024 * 1024;
const MAX_REDIRECTS = 3;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const DNS_CODES = new Set([
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_FAIL',
  'EAI_NODATA',
  'EAI_NONAME',
  'ENODATA',
  'ESERVFAIL',
]);
// Global unicast, RFC 4291: the only IPv6 block the public internet routes. Outside it sit
// the IPv4-compatible `::a.b.c.d` (deprecated; ipaddr.js calls `::7f00:1` unicast, and a
// host with a `sit` tunnel sends it to 127.0.0.1), and blocks not assigned yet.
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/** An address the server must not connect to; carried to the request's `error` event. */
class InternalAddressError extends Error {
  override name = 'InternalAddressError';
}

/** A set of `address|port` keys, in ipaddr.js's canonical form of the address. */
type AllowList = ReadonlySet<string>;

function socketKey(address: ipaddr.IPv4 | ipaddr.IPv6, port: number): string {
  return `${address.toString()}|${port}`;
}

/**
 * Why the server may not connect to `address` on `port`, or null when it may. Only what
 * ipaddr.js calls `unicast` is reachable: that excludes loopback, private (RFC 1918),
 * link-local (169.254/16, cloud metadata included; fe80::/10), carrier-grade NAT, multicast,
 * broadcast, unspecified, reserved and documentation blocks, benchmarking, unique-local
 * (fc00::/7), IPv4-mapped and -translated forms, NAT64 (64:ff9b::/96, 64:ff9b:1::/48), 6to4
 * and Teredo. An IPv6 address must also be global unicast (2000::/3). Anything that does not
 * parse is refused.
 */
export function refusal(
  address: string,
  port: number,
  allow: AllowList = new Set(),
): string | null {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address);
  } catch {
    return `${address} is not an IP address`;
  }
  if (allow.has(socketKey(parsed, port))) return null;
  const range = parsed.range();
  if (range !== 'unicast') return `${address} is ${range}`;
  if (parsed.kind() === 'ipv6' && !parsed.match(GLOBAL_UNICAST_V6)) {
    return `${address} is not global unicast`;
  }
  return null;
}

/**
 * `dns.lookup` (or the given resolver), with every answer checked before net.connect uses it:
 * the check is on the addresses actually connected to, so a name that answers a public
 * address to one lookup and a private one to the next (DNS rebinding) is refused at the
 * connection that would reach the private one. One refused answer refuses the name.
 */
function guardedLookup(
  port: number,
  allow: AllowList,
  resolve: FetcherOptions['resolve'],
): LookupFunction {
  return (hostname, options, callback) => {
    // A resolver that throws at once fails the connection too, not the process.
    const answer = resolve
      ? Promise.resolve().then(() => resolve(hostname))
      : dns.promises.lookup(hostname, { ...options, all: true });
    answer.then(
      (addresses) => {
        if (addresses.length === 0) {
          const error: NodeJS.ErrnoException = new Error(`${hostname} has no address`);
          error.code = 'ENOTFOUND';
          callback(error, '');
          return;
        }
        for (const { address } of addresses) {
          const why = refusal(address, port, allow);
          if (why) {
            callback(new InternalAddressError(`${hostname}: ${why}`), '');
            return;
          }
        }
        // net asks for every address when it tries them in turn (autoSelectFamily).
        if (options.all) callback(null, addresses);
        else callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };
}

type ConnectionCallback = (error: Error | null, socket: Duplex) => void;

/**
 * The agents' one change to node:http: where a connection is made, an IP literal is checked
 * here (net.connect skips the lookup for one), and a name through the guarded lookup. The same
 * two hooks as request-filtering-agent (decision 0067 says why not that package itself).
 */
function guard<T extends typeof http.Agent | typeof https.Agent>(
  Base: T,
  allow: AllowList,
  resolve: FetcherOptions['resolve'],
) {
  return class GuardedAgent extends (Base as typeof http.Agent) {
    override createConnection(
      options: net.TcpNetConnectOpts,
      callback?: ConnectionCallback,
    ): Duplex {
      const port = Number(options.port);
      const host = options.host ?? '';
      if (net.isIP(host) !== 0) {
        const why = refusal(host, port, allow);
        if (why) {
          const socket = new net.Socket();
          const error = new InternalAddressError(why);
          if (callback) callback(error, socket);
          else process.nextTick(() => socket.destroy(error));
          return socket;
        }
      }
      return super.createConnection(
        { ...options, lookup: guardedLookup(port, allow, resolve) },
        callback,
      ) as Duplex;
    }
  };
}

function parseAllowList(entries: readonly string[]): AllowList {
  if (entries.length > 0 && process.env.NODE_ENV === 'production') {
    throw new Error('testOnlyAllow is for tests; it is refused under NODE_ENV=production');
  }
  const keys = new Set<string>();
  for (const entry of entries) {
    let url: URL;
    try {
      url = new URL(`http://${entry}`);
    } catch {
      throw new Error(`testOnlyAllow: ${entry} is not host:port`);
    }
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (!net.isIP(host) || url.port === '' || `${url.host}` !== entry) {
      throw new Error(`testOnlyAllow: ${entry} must be a loopback address and a port`);
    }
    const address = ipaddr.parse(host);
    if (address.range() !== 'loopback') {
      throw new Error(`testOnlyAllow: ${entry} is not a loopback address`);
    }
    keys.add(socketKey(address, Number(url.port)));
  }
  return keys;
}

function positiveInteger(value: number, name: string): number {
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new Error(`${name} must be a positive integer, not ${value}`);
  }
  return value;
}

/** Why a request ended without an answer: set on the abort signal, or thrown by the reader. */
class Stop extends Error {
  constructor(
    readonly failure: OutboundFailure,
    message: string,
  ) {
    super(message);
  }
}

function failureOf(error: unknown, signal: AbortSignal): Stop {
  if (error instanceof Stop) return error;
  // Whatever the socket said after the deadline or the caller's abort, that is the reason.
  if (signal.aborted) {
    return signal.reason instanceof Stop
      ? signal.reason
      : new Stop('timeout', 'The caller stopped the request');
  }
  if (error instanceof InternalAddressError) {
    return new Stop('internal-address', `Refused: ${error.message}`);
  }
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const message = error instanceof Error ? error.message : String(error);
  if (code && DNS_CODES.has(code)) return new Stop('dns', `The name does not resolve: ${message}`);
  return new Stop('network', code ? `${code}: ${message}` : message);
}

function headersOf(response: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/** Reads at most `maxBytes` of the body; one byte more stops the reading as too-large. */
async function readCapped(response: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = Number(response.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    throw new Stop('too-large', `The body is ${declared} bytes; the cap is ${maxBytes}`);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of response as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > maxBytes) {
      throw new Stop('too-large', `The body is over the cap of ${maxBytes} bytes`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, total);
}

/**
 * The one way the server reaches an address that people typed (decision 0067). Only http and
 * https, no user-info, every hop's address checked where the connection is made (after DNS,
 * for literals too), at most 3 redirects, one time limit for the whole request, the body read
 * up to a cap. It sends `Accept-Encoding: identity`: a body is never decoded, so the cap is on
 * the bytes received and no compressed bomb can grow past it.
 */
export function createFetcher(options: FetcherOptions): Fetcher {
  const allow = parseAllowList(options.testOnlyAllow ?? []);
  const timeoutMs = positiveInteger(options.timeoutMs ?? DEFAULT_TIMEOUT_MS, 'timeoutMs');
  const maxBytes = positiveInteger(options.maxBytes ?? DEFAULT_MAX_BYTES, 'maxBytes');
  const maxRedirects = options.maxRedirects ?? MAX_REDIRECTS;
  if (!Number.isInteger(maxRedirects) || maxRedirects < 0 || maxRedirects > MAX_REDIRECTS) {
    throw new Error(`maxRedirects must be 0–${MAX_REDIRECTS}, not ${maxRedirects}`);
  }
  const userAgent = `Signpost/${options.version} (+${options.publicUrl})`;
  if (!/^[\x20-\x7e]+$/.test(userAgent)) {
    throw new Error('version and publicUrl must be printable ASCII (they make the User-Agent)');
  }
  // Idle kept-alive sockets close after 15 s and never hold the process open. No proxy from
  // the environment, whatever a later Node version defaults to (NODE_USE_ENV_PROXY): a proxy
  // would connect for us, past the check.
  const agentOptions = { keepAlive: true, timeout: 15_000, proxyEnv: null } as http.AgentOptions;
  const HttpAgent = guard(http.Agent, allow, options.resolve);
  const HttpsAgent = guard(https.Agent, allow, options.resolve);
  const agents = { http: new HttpAgent(agentOptions), https: new HttpsAgent(agentOptions) };

  /** One hop: the answer's head, or a rejection with what went wrong. */
  function send(url: URL, method: string, accept: string, signal: AbortSignal) {
    const secure = url.protocol === 'https:';
    return new Promise<IncomingMessage>((resolve, reject) => {
      const request = (secure ? https : http).request(
        {
          agent: secure ? agents.https : agents.http,
          protocol: url.protocol,
          hostname: url.hostname.replace(/^\[|\]$/g, ''),
          port: url.port || (secure ? 443 : 80),
          path: `${url.pathname}${url.search}`,
          method,
          headers: { 'user-agent': userAgent, accept, 'accept-encoding': 'identity' },
          signal,
        },
        resolve,
      );
      // Stays attached after the answer: a later abort must not be an unhandled error.
      request.on('error', reject);
      request.end();
    });
  }

  async function run(
    input: string,
    request: OutboundOptions,
    signal: AbortSignal,
    redirects: OutboundHop[],
    at: { url: string },
  ): Promise<OutboundResult> {
    const method = request.method ?? 'GET';
    const accept = request.accept ?? '*/*';
    const cap = request.maxBytes ?? maxBytes;
    const follow = request.followRedirects ?? true;
    let url = target(input, undefined);
    for (;;) {
      at.url = url.href;
      const response = await send(url, method, accept, signal);
      const location = response.headers.location;
      if (follow && REDIRECTS.has(response.statusCode!) && location !== undefined) {
        // A redirect's body is never read: destroying it also stops an endless one.
        response.destroy();
        redirects.push({ url: url.href, status: response.statusCode!, location });
        if (redirects.length > maxRedirects) {
          throw new Stop('too-many-redirects', `More than ${maxRedirects} redirects`);
        }
        url = target(location, url);
        await request.beforeRedirect?.(url.href);
        if (signal.aborted) throw signal.reason;
        continue;
      }
      const answer = { url: url.href, status: response.statusCode!, headers: headersOf(response) };
      if (method === 'HEAD') {
        // No body by definition; reading the nothing keeps the socket for the next request.
        response.resume();
        return { ok: true, ...answer, body: Buffer.alloc(0), redirects };
      }
      if (request.discardBody) {
        response.destroy();
        return { ok: true, ...answer, body: Buffer.alloc(0), redirects };
      }
      try {
        return { ok: true, ...answer, body: await readCapped(response, cap), redirects };
      } finally {
        response.destroy();
      }
    }

    /** The next address, parsed by the WHATWG rules (decimal, octal, hex IPv4 normalised). */
    function target(address: string, base: URL | undefined): URL {
      let next: URL;
      try {
        next = new URL(address, base);
      } catch {
        at.url = address;
        throw new Stop('bad-address', 'Not an address');
      }
      at.url = next.href;
      if (next.protocol !== 'http:' && next.protocol !== 'https:') {
        throw new Stop('bad-scheme', `${next.protocol} is not http or https`);
      }
      if (next.username !== '' || next.password !== '') {
        throw new Stop('bad-address', 'An address with a user name or password');
      }
      if (next.hostname === '') throw new Stop('bad-address', 'No host');
      return next;
    }
  }

  return {
    async fetch(input, request = {}) {
      // A caller's wrong option is a bug of the caller, thrown, not a site's failure.
      const time = positiveInteger(request.timeoutMs ?? timeoutMs, 'timeoutMs');
      positiveInteger(request.maxBytes ?? maxBytes, 'maxBytes');
      const redirects: OutboundHop[] = [];
      const at = { url: input };
      const deadline = new AbortController();
      const timer = setTimeout(
        () => deadline.abort(new Stop('timeout', `No whole answer within ${time} ms`)),
        time,
      );
      const signal = request.signal
        ? AbortSignal.any([deadline.signal, request.signal])
        : deadline.signal;
      try {
        if (signal.aborted) throw signal.reason;
        return await run(input, request, signal, redirects, at);
      } catch (error) {
        const stop = failureOf(error, signal);
        return { ok: false, failure: stop.failure, message: stop.message, url: at.url, redirects };
      } finally {
        clearTimeout(timer);
      }
    },
    async close() {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}
