// The guarded fetcher (decision 0067) against real HTTP servers on 127.0.0.1, reachable only
// through the test allow-list; every other loopback socket, private range, name resolving to
// one and redirect to one is refused before a connection is made.
import type { LookupAddress } from 'node:dns';
import { readdirSync, readFileSync } from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createFetcher, refusal, type FetcherOptions } from './fetcher.ts';
import type { Fetcher, OutboundResult } from './types.ts';

interface TestServer {
  port: number;
  origin: string;
  /** Every request that reached the server. */
  requests: { method: string; url: string; headers: http.IncomingHttpHeaders }[];
  /** Every TCP connection accepted, requests or not. */
  connections: number;
  /** The server's end of each connection, in the order accepted. */
  sockets: Socket[];
  close(): Promise<void>;
}

async function serve(
  handler: (request: IncomingMessage, response: ServerResponse) => void = (_, response) =>
    response.end('hello'),
): Promise<TestServer> {
  const server = http.createServer((request, response) => {
    state.requests.push({
      method: request.method!,
      url: request.url!,
      headers: request.headers,
    });
    handler(request, response);
  });
  const state: TestServer = {
    port: 0,
    origin: '',
    requests: [],
    connections: 0,
    sockets: [],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  server.on('connection', (socket) => {
    state.connections += 1;
    state.sockets.push(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.port = (server.address() as AddressInfo).port;
  state.origin = `http://127.0.0.1:${state.port}`;
  return state;
}

/** A resolver standing in for DNS: names map to fixed answers, or to a function of the call. */
function resolver(
  names: Record<string, string[] | ((call: number) => string[])>,
): NonNullable<FetcherOptions['resolve']> {
  const calls = new Map<string, number>();
  return async (hostname) => {
    const answer = names[hostname];
    if (answer === undefined) {
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    }
    const call = (calls.get(hostname) ?? 0) + 1;
    calls.set(hostname, call);
    const addresses = typeof answer === 'function' ? answer(call) : answer;
    return addresses.map((address): LookupAddress => ({
      address,
      family: address.includes(':') ? 6 : 4,
    }));
  };
}

function failed(result: OutboundResult) {
  if (result.ok) throw new Error(`expected a failure, got ${result.status} from ${result.url}`);
  return result;
}

function succeeded(result: OutboundResult) {
  if (!result.ok) throw new Error(`expected an answer, got ${result.failure}: ${result.message}`);
  return result;
}

const UA = 'Signpost/1.2.3 (+https://portal.example)';

// `allowed` is the one socket the allow-list opens; `sentinel` is a live loopback server that
// nothing may reach: every refusal below points at it where a port matters, and asserts that
// it saw no connection at all.
let allowed: TestServer;
let sentinel: TestServer;
let fetcher: Fetcher;
const extra: { close(): Promise<void> }[] = [];

const names = (): Parameters<typeof resolver>[0] => ({
  'public.test': ['127.0.0.1'],
  'loopback.test': ['127.0.0.1'],
  'metadata.test': ['169.254.169.254'],
  'private.test': ['10.1.2.3'],
  'mapped.test': ['::ffff:7f00:1'],
  'ula.test': ['fd00:ec2::254'],
  'six.test': ['::1'],
  'mixed.test': ['127.0.0.1', '10.0.0.1'],
  'empty.test': [],
});

function make(options: Partial<FetcherOptions> = {}): Fetcher {
  const made = createFetcher({
    version: '1.2.3',
    publicUrl: 'https://portal.example',
    timeoutMs: 3000,
    testOnlyAllow: [`127.0.0.1:${allowed.port}`],
    resolve: resolver(names()),
    ...options,
  });
  extra.push(made);
  return made;
}

beforeAll(async () => {
  allowed = await serve((request, response) => {
    const url = new URL(request.url!, 'http://x');
    const to = url.searchParams.get('to');
    if (to !== null) {
      response.writeHead(302, { location: to, connection: 'close' });
      response.end('moved');
      return;
    }
    const hops = url.pathname.match(/^\/hop\/(\d+)$/);
    if (hops) {
      const left = Number(hops[1]);
      if (left === 0) response.end('arrived');
      else {
        response.writeHead(301, { location: `/hop/${left - 1}` });
        response.end();
      }
      return;
    }
    response.writeHead(200, {
      'content-type': 'text/plain',
      'set-cookie': ['a=1', 'b=2'],
      'x-Mixed-Case': 'yes',
    });
    response.end(request.method === 'HEAD' ? undefined : 'hello');
  });
  sentinel = await serve();
  fetcher = make();
});

afterEach(() => {
  // Reset before asserting: one test's failure is not every later test's.
  const seen = sentinel.connections;
  sentinel.connections = 0;
  expect(seen).toBe(0);
});

afterAll(async () => {
  await Promise.all(extra.map((each) => each.close()));
  await allowed.close();
  await sentinel.close();
});

describe('the allow-listed test server', () => {
  it('answers through the fetcher: status, headers in lower case, body', async () => {
    const result = succeeded(await fetcher.fetch(`${allowed.origin}/page?q=1`));
    expect(result.status).toBe(200);
    expect(result.url).toBe(`${allowed.origin}/page?q=1`);
    expect(result.body.toString()).toBe('hello');
    expect(result.headers['content-type']).toBe('text/plain');
    expect(result.headers['x-mixed-case']).toBe('yes');
    expect(result.headers['set-cookie']).toBe('a=1, b=2');
    expect(result.redirects).toEqual([]);
  });

  it('is reached by a name resolving to it, on its port only', async () => {
    const ok = succeeded(await fetcher.fetch(`http://public.test:${allowed.port}/`));
    expect(ok.body.toString()).toBe('hello');
    const refused = failed(await fetcher.fetch(`http://public.test:${sentinel.port}/`));
    expect(refused.failure).toBe('internal-address');
  });

  it('sends the User-Agent, Accept and Accept-Encoding: identity', async () => {
    const before = allowed.requests.length;
    await fetcher.fetch(`${allowed.origin}/ua`);
    await fetcher.fetch(`${allowed.origin}/ua`, { accept: 'image/*' });
    const [plain, image] = allowed.requests.slice(before);
    expect(plain!.headers['user-agent']).toBe(UA);
    expect(plain!.headers.accept).toBe('*/*');
    expect(plain!.headers['accept-encoding']).toBe('identity');
    expect(plain!.headers.cookie).toBeUndefined();
    expect(image!.headers.accept).toBe('image/*');
  });
});

describe('refused addresses', () => {
  // Where a refusal would connect to loopback, it names the sentinel's port.
  const S = 'SENTINEL';
  const literal: [string, string][] = [
    ['loopback', `http://127.0.0.1:SENTINEL/`],
    ['loopback, elsewhere in 127/8', `http://127.255.255.254:SENTINEL/`],
    ['loopback over https', `https://127.0.0.1:SENTINEL/`],
    ['IPv6 loopback', `http://[::1]:SENTINEL/`],
    ['private 10/8', 'http://10.0.0.1/'],
    ['private 172.16/12', 'http://172.16.5.4/'],
    ['private 192.168/16', 'http://192.168.1.1/'],
    ['cloud metadata (link-local)', 'http://169.254.169.254/latest/meta-data/'],
    ['IPv6 link-local', 'http://[fe80::1]/'],
    ['carrier-grade NAT', 'http://100.64.0.1/'],
    ['multicast', 'http://224.0.0.1/'],
    ['IPv6 multicast', 'http://[ff02::1]/'],
    ['unspecified', `http://0.0.0.0:SENTINEL/`],
    ['unspecified, 0/8', 'http://0.1.2.3/'],
    ['IPv6 unspecified', `http://[::]:SENTINEL/`],
    ['broadcast', 'http://255.255.255.255/'],
    ['reserved 240/4', 'http://240.0.0.1/'],
    ['IETF protocol assignments 192.0.0/24', 'http://192.0.0.170/'],
    ['6to4 relay anycast', 'http://192.88.99.1/'],
    ['documentation TEST-NET-1', 'http://192.0.2.1/'],
    ['documentation TEST-NET-2', 'http://198.51.100.7/'],
    ['documentation TEST-NET-3', 'http://203.0.113.9/'],
    ['IPv6 documentation', 'http://[2001:db8::1]/'],
    ['benchmarking', 'http://198.18.0.1/'],
    ['IPv6 benchmarking', 'http://[2001:2::1]/'],
    ['unique-local', 'http://[fc00::1]/'],
    ['AWS metadata over IPv6 (unique-local)', 'http://[fd00:ec2::254]/'],
    ['deprecated site-local', 'http://[fec0::1]/'],
    ['IPv4-mapped loopback', `http://[::ffff:127.0.0.1]:SENTINEL/`],
    ['IPv4-mapped, written out', `http://[0:0:0:0:0:ffff:7f00:1]:SENTINEL/`],
    ['IPv4-mapped metadata', 'http://[::ffff:169.254.169.254]/'],
    ['IPv4-mapped, even of a public address', 'http://[::ffff:8.8.8.8]/'],
    ['IPv4-translated', `http://[::ffff:0:7f00:1]:SENTINEL/`],
    ['IPv4-compatible (deprecated ::/96)', `http://[::127.0.0.1]:SENTINEL/`],
    ['NAT64 well-known prefix', `http://[64:ff9b::7f00:1]:SENTINEL/`],
    ['NAT64 local-use prefix', 'http://[64:ff9b:1::a00:1]/'],
    ['6to4', 'http://[2002:7f00:1::]/'],
    ['Teredo', 'http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/'],
    ['discard-only', 'http://[100::1]/'],
    ['IPv6 outside global unicast 2000::/3', 'http://[4000::1]/'],
  ];

  it.each(literal)('%s: %s', async (_, template) => {
    const url = template.replace(S, String(sentinel.port));
    const result = failed(await fetcher.fetch(url));
    expect(result.failure).toBe('internal-address');
    expect(result.redirects).toEqual([]);
  });

  // WHATWG URL reads these as 127.0.0.1 (or 169.254.169.254): the check sees the parsed host.
  const written: [string, string][] = [
    [`http://2130706433:SENTINEL/`, '127.0.0.1'],
    [`http://0x7f.1:SENTINEL/`, '127.0.0.1'],
    [`http://0177.0.0.1:SENTINEL/`, '127.0.0.1'],
    [`http://0x7f000001:SENTINEL/`, '127.0.0.1'],
    [`http://017700000001:SENTINEL/`, '127.0.0.1'],
    [`http://127.1:SENTINEL/`, '127.0.0.1'],
    [`http://0x7F.0.0.0x1:SENTINEL/`, '127.0.0.1'],
    [`http://%31%32%37.0.0.1:SENTINEL/`, '127.0.0.1'],
    [`http://127.0.0.1.:SENTINEL/`, '127.0.0.1'],
    ['http://2852039166/', '169.254.169.254'],
    ['http://0xa9.0xfe.0xa9.0xfe/', '169.254.169.254'],
    ['http://0251.0376.0251.0376/', '169.254.169.254'],
  ];

  it.each(written)('%s, read as %s', async (template, host) => {
    const result = failed(await fetcher.fetch(template.replace(S, String(sentinel.port))));
    expect(result.failure).toBe('internal-address');
    expect(new URL(result.url).hostname).toBe(host);
  });

  const resolved: [string, string][] = [
    ['loopback.test', '127.0.0.1'],
    ['metadata.test', '169.254.169.254'],
    ['private.test', '10.1.2.3'],
    ['mapped.test', '::ffff:7f00:1'],
    ['ula.test', 'fd00:ec2::254'],
    ['six.test', '::1'],
    ['mixed.test', 'one answer public-looking, one private'],
  ];

  it.each(resolved)('a name resolving to a refused address: %s (%s)', async (name) => {
    const result = failed(await fetcher.fetch(`http://${name}:${sentinel.port}/`));
    expect(result.failure).toBe('internal-address');
    expect(result.message).toContain(name);
  });

  it('localhost, through the system resolver', async () => {
    const plain = make({ resolve: undefined });
    const result = failed(await plain.fetch(`http://localhost:${sentinel.port}/`));
    expect(result.failure).toBe('internal-address');
  });

  it('a name that resolves first to an allowed address and then to metadata (DNS rebinding)', async () => {
    const rebinding = make({
      resolve: resolver({
        'rebind.test': (call) => [call === 1 ? '127.0.0.1' : '169.254.169.254'],
      }),
    });
    const before = allowed.requests.length;
    // The allowed server closes the connection after the redirect: the next hop connects,
    // and resolves, again.
    const result = failed(await rebinding.fetch(`http://rebind.test:${allowed.port}/?to=/second`));
    expect(result.failure).toBe('internal-address');
    expect(result.message).toContain('169.254.169.254');
    expect(result.redirects).toHaveLength(1);
    expect(allowed.requests.length - before).toBe(1);
  });

  it('a name that rebinds between two requests', async () => {
    const rebinding = make({
      resolve: resolver({ 'flip.test': (call) => [call === 1 ? '127.0.0.1' : '10.0.0.7'] }),
    });
    succeeded(
      await rebinding.fetch(`http://flip.test:${allowed.port}/?to=/hop/0`, {
        followRedirects: false,
      }),
    );
    const second = failed(await rebinding.fetch(`http://flip.test:${allowed.port}/`));
    expect(second.failure).toBe('internal-address');
  });
});

describe('addresses and schemes', () => {
  it.each([
    ['file:///etc/passwd', 'bad-scheme'],
    ['ftp://example.com/file', 'bad-scheme'],
    ['javascript:alert(1)', 'bad-scheme'],
    ['data:text/html,hi', 'bad-scheme'],
    ['gopher://127.0.0.1:70/', 'bad-scheme'],
    ['not an address', 'bad-address'],
    ['http://', 'bad-address'],
    ['/relative/path', 'bad-address'],
  ])('%s: %s', async (url, failure) => {
    const result = failed(await fetcher.fetch(url));
    expect(result.failure).toBe(failure);
  });

  it('refuses a user name or password before the host, without connecting', async () => {
    const before = allowed.connections;
    for (const url of [
      `http://user:pass@127.0.0.1:${allowed.port}/`,
      `http://user@127.0.0.1:${allowed.port}/`,
      `http://:pass@127.0.0.1:${allowed.port}/`,
    ]) {
      expect(failed(await fetcher.fetch(url)).failure).toBe('bad-address');
    }
    expect(allowed.connections).toBe(before);
  });

  it('answers dns when the name does not resolve, or resolves to nothing', async () => {
    expect(failed(await fetcher.fetch('http://nowhere.test/')).failure).toBe('dns');
    expect(failed(await fetcher.fetch('http://empty.test/')).failure).toBe('dns');
  });

  it('answers network when the allowed port has no server', async () => {
    const gone = await serve();
    await gone.close();
    const closed = make({ testOnlyAllow: [`127.0.0.1:${gone.port}`] });
    const result = failed(await closed.fetch(`http://127.0.0.1:${gone.port}/`));
    expect(result.failure).toBe('network');
    expect(result.message).toContain('ECONNREFUSED');
  });

  it('answers network, not a throw, for a server that speaks no HTTP', async () => {
    const { createServer } = await import('node:net');
    const sockets: Socket[] = [];
    const garbage = createServer((socket) => {
      sockets.push(socket);
      socket.end('SSH-2.0-OpenSSH\r\n\r\n');
    });
    await new Promise<void>((resolve) => garbage.listen(0, '127.0.0.1', resolve));
    const port = (garbage.address() as AddressInfo).port;
    extra.push({
      close: () =>
        new Promise((resolve) => {
          for (const socket of sockets) socket.destroy();
          garbage.close(() => resolve());
        }),
    });
    const result = failed(
      await make({ testOnlyAllow: [`127.0.0.1:${port}`] }).fetch(`http://127.0.0.1:${port}/`),
    );
    expect(result.failure).toBe('network');
  });
});

describe('redirects', () => {
  it('follows up to 3, and lists each hop', async () => {
    const result = succeeded(await fetcher.fetch(`${allowed.origin}/hop/3`));
    expect(result.body.toString()).toBe('arrived');
    expect(result.url).toBe(`${allowed.origin}/hop/0`);
    expect(result.redirects).toEqual([
      { url: `${allowed.origin}/hop/3`, status: 301, location: '/hop/2' },
      { url: `${allowed.origin}/hop/2`, status: 301, location: '/hop/1' },
      { url: `${allowed.origin}/hop/1`, status: 301, location: '/hop/0' },
    ]);
  });

  it('answers too-many-redirects for a fourth', async () => {
    const before = allowed.requests.length;
    const result = failed(await fetcher.fetch(`${allowed.origin}/hop/4`));
    expect(result.failure).toBe('too-many-redirects');
    expect(result.redirects).toHaveLength(4);
    // The fourth redirect's target is never asked for.
    expect(allowed.requests.length - before).toBe(4);
  });

  it('follows fewer when the fetcher is made with a lower limit', async () => {
    const one = make({ maxRedirects: 1 });
    expect(succeeded(await one.fetch(`${allowed.origin}/hop/1`)).status).toBe(200);
    expect(failed(await one.fetch(`${allowed.origin}/hop/2`)).failure).toBe('too-many-redirects');
    const none = make({ maxRedirects: 0 });
    expect(failed(await none.fetch(`${allowed.origin}/hop/1`)).failure).toBe('too-many-redirects');
  });

  it('waits for the caller before each redirect, with where it leads, and stops if it aborts', async () => {
    const told: { next: string; requestsSoFar: number }[] = [];
    const start = allowed.requests.length;
    const result = succeeded(
      await fetcher.fetch(`${allowed.origin}/hop/2`, {
        beforeRedirect: async (next) => {
          told.push({ next, requestsSoFar: allowed.requests.length - start });
          await new Promise((resolve) => setTimeout(resolve, 50));
        },
      }),
    );
    expect(result.status).toBe(200);
    // Told before the hop is asked: one request made when told of the first, two of the second.
    expect(told).toEqual([
      { next: `${allowed.origin}/hop/1`, requestsSoFar: 1 },
      { next: `${allowed.origin}/hop/0`, requestsSoFar: 2 },
    ]);

    const stop = new AbortController();
    const before = allowed.requests.length;
    const stopped = failed(
      await fetcher.fetch(`${allowed.origin}/hop/2`, {
        signal: stop.signal,
        beforeRedirect: async () => stop.abort(),
      }),
    );
    expect(stopped.failure).toBe('timeout');
    expect(allowed.requests.length - before).toBe(1);
  });

  it('answers the first hop as it is when told not to follow', async () => {
    const result = succeeded(
      await fetcher.fetch(`${allowed.origin}/hop/2`, { followRedirects: false }),
    );
    expect(result.status).toBe(301);
    expect(result.headers.location).toBe('/hop/1');
    expect(result.redirects).toEqual([]);
  });

  const to = (target: string) => `${allowed.origin}/?to=${encodeURIComponent(target)}`;

  it.each([
    ['loopback', () => `http://127.0.0.1:${sentinel.port}/`],
    ['a name resolving to loopback', () => `http://loopback.test:${sentinel.port}/`],
    ['a decimal loopback', () => `http://2130706433:${sentinel.port}/`],
    ['IPv4-mapped loopback', () => `http://[::ffff:127.0.0.1]:${sentinel.port}/`],
    ['metadata', () => 'http://169.254.169.254/latest/meta-data/'],
    ['a name resolving to loopback, over https', () => `https://loopback.test:${sentinel.port}/`],
  ])('refuses a redirect to %s', async (_, target) => {
    const result = failed(await fetcher.fetch(to(target())));
    expect(result.failure).toBe('internal-address');
    expect(result.redirects).toEqual([{ url: to(target()), status: 302, location: target() }]);
    expect(result.url).toBe(new URL(target()).href);
  });

  it.each([
    ['file:///etc/passwd', 'bad-scheme'],
    ['ftp://example.com/', 'bad-scheme'],
    ['javascript:alert(1)', 'bad-scheme'],
    ['http://user:pass@example.com/', 'bad-address'],
    ['http://exa mple.com/', 'bad-address'],
  ])('refuses a redirect to %s: %s', async (target, failure) => {
    const result = failed(await fetcher.fetch(to(target)));
    expect(result.failure).toBe(failure);
    expect(result.redirects).toHaveLength(1);
  });
});

describe('time, size and what is read', () => {
  it('answers timeout when the server never answers', async () => {
    const silent = await serve(() => {});
    extra.push(silent);
    const start = Date.now();
    const result = failed(
      await make({ testOnlyAllow: [`127.0.0.1:${silent.port}`], timeoutMs: 300 }).fetch(
        silent.origin,
      ),
    );
    expect(result.failure).toBe('timeout');
    expect(Date.now() - start).toBeLessThan(2000);
  });

  it('answers timeout when the body trickles past the time allowed', async () => {
    const trickle = await serve((_, response) => {
      response.writeHead(200);
      const timer = setInterval(() => response.write('x'), 20);
      response.on('close', () => clearInterval(timer));
    });
    extra.push(trickle);
    const start = Date.now();
    const result = failed(
      await make({ testOnlyAllow: [`127.0.0.1:${trickle.port}`] }).fetch(trickle.origin, {
        timeoutMs: 300,
      }),
    );
    expect(result.failure).toBe('timeout');
    expect(Date.now() - start).toBeLessThan(2000);
  });

  it('counts the time over all redirects, not per hop', async () => {
    const slow = await serve((request, response) => {
      const left = Number(request.url!.slice(1));
      setTimeout(() => {
        response.writeHead(left > 0 ? 302 : 200, { location: `/${left - 1}` });
        response.end();
      }, 150);
    });
    extra.push(slow);
    const slowFetcher = make({ testOnlyAllow: [`127.0.0.1:${slow.port}`] });
    // Each hop is well within 400 ms; the three together are not.
    expect(succeeded(await slowFetcher.fetch(`${slow.origin}/0`, { timeoutMs: 400 })).status).toBe(
      200,
    );
    const result = failed(await slowFetcher.fetch(`${slow.origin}/3`, { timeoutMs: 400 }));
    expect(result.failure).toBe('timeout');
  });

  it("stops when the caller's signal aborts", async () => {
    const silent = await serve(() => {});
    extra.push(silent);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const result = failed(
      await make({ testOnlyAllow: [`127.0.0.1:${silent.port}`] }).fetch(silent.origin, {
        signal: controller.signal,
      }),
    );
    expect(result.failure).toBe('timeout');
    expect(result.message).toMatch(/caller/);
  });

  /** A server that sends `size` bytes in 16 KiB chunks, or never stops when size is null. */
  async function sender(size: number | null, headers: Record<string, string> = {}) {
    const server = await serve((_, response) => {
      response.writeHead(200, headers);
      const chunk = Buffer.alloc(16 * 1024, 'a');
      let left = size ?? Infinity;
      const pump = () => {
        while (left > 0) {
          const part = chunk.subarray(0, Math.min(chunk.length, left));
          left -= part.length;
          if (!response.write(part)) return void response.once('drain', pump);
        }
        response.end();
      };
      response.on('close', () => (left = 0));
      pump();
    });
    extra.push(server);
    const capped = make({ testOnlyAllow: [`127.0.0.1:${server.port}`], maxBytes: 64 * 1024 });
    return { server, fetcher: capped };
  }

  it('reads a body of exactly the cap', async () => {
    const { server, fetcher: capped } = await sender(64 * 1024);
    const result = succeeded(await capped.fetch(server.origin));
    expect(result.body.length).toBe(64 * 1024);
  });

  it('answers too-large one byte over the cap', async () => {
    const { server, fetcher: capped } = await sender(64 * 1024 + 1);
    expect(failed(await capped.fetch(server.origin)).failure).toBe('too-large');
  });

  it('stops reading an endless body at the cap, long before the time limit', async () => {
    const { server, fetcher: capped } = await sender(null);
    const start = Date.now();
    const result = failed(await capped.fetch(server.origin));
    expect(result.failure).toBe('too-large');
    expect(Date.now() - start).toBeLessThan(2000);
  });

  it('answers too-large from Content-Length, before reading', async () => {
    const declared = await serve((_, response) => {
      response.writeHead(200, { 'content-length': String(10 * 1024 * 1024) });
      response.write('a'); // and then nothing: reading would wait for the time limit
    });
    extra.push(declared);
    const start = Date.now();
    const result = failed(
      await make({ testOnlyAllow: [`127.0.0.1:${declared.port}`], timeoutMs: 2000 }).fetch(
        declared.origin,
      ),
    );
    expect(result.failure).toBe('too-large');
    expect(Date.now() - start).toBeLessThan(1000);
  });

  it('takes a cap per request', async () => {
    const { server, fetcher: capped } = await sender(1000);
    expect(failed(await capped.fetch(server.origin, { maxBytes: 999 })).failure).toBe('too-large');
    expect(succeeded(await capped.fetch(server.origin, { maxBytes: 1000 })).body.length).toBe(1000);
  });

  it('sends HEAD and reads no body', async () => {
    const before = allowed.requests.length;
    const result = succeeded(await fetcher.fetch(`${allowed.origin}/head`, { method: 'HEAD' }));
    expect(allowed.requests[before]!.method).toBe('HEAD');
    expect(result.status).toBe(200);
    expect(result.headers['content-type']).toBe('text/plain');
    expect(result.body.length).toBe(0);
  });

  it('follows redirects with HEAD as HEAD', async () => {
    const before = allowed.requests.length;
    const result = succeeded(await fetcher.fetch(`${allowed.origin}/hop/1`, { method: 'HEAD' }));
    expect(result.redirects).toHaveLength(1);
    expect(allowed.requests.slice(before).map((each) => each.method)).toEqual(['HEAD', 'HEAD']);
  });

  it('answers status and headers of an endless body with discardBody, reading none', async () => {
    const { server, fetcher: capped } = await sender(null, { 'x-kind': 'endless' });
    const start = Date.now();
    const result = succeeded(await capped.fetch(server.origin, { discardBody: true }));
    expect(result.status).toBe(200);
    expect(result.headers['x-kind']).toBe('endless');
    expect(result.body.length).toBe(0);
    expect(Date.now() - start).toBeLessThan(2000);
  });
});

describe('making a fetcher', () => {
  const base = { version: '1', publicUrl: 'https://portal.example' };

  it('refuses the test allow-list under NODE_ENV=production', () => {
    const previous = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      expect(() => createFetcher({ ...base, testOnlyAllow: ['127.0.0.1:8080'] })).toThrow(
        /production/,
      );
      // Without it, production makes a fetcher as usual.
      expect(createFetcher(base)).toBeDefined();
    } finally {
      process.env.NODE_ENV = previous;
    }
  });

  it.each([
    '10.0.0.1:80',
    '169.254.169.254:80',
    '8.8.8.8:80',
    '127.0.0.1',
    'localhost:80',
    '127.0.0.0/8',
    '[::1]',
  ])('refuses %s in the test allow-list: loopback address and port only', (entry) => {
    expect(() => createFetcher({ ...base, testOnlyAllow: [entry] })).toThrow(/testOnlyAllow/);
  });

  it('takes [::1]:port in the test allow-list', () => {
    expect(createFetcher({ ...base, testOnlyAllow: ['[::1]:8080'] })).toBeDefined();
  });

  it.each([
    [{ maxRedirects: 4 }, /maxRedirects/],
    [{ maxRedirects: -1 }, /maxRedirects/],
    [{ timeoutMs: 0 }, /timeoutMs/],
    [{ maxBytes: 1.5 }, /maxBytes/],
    [{ version: '1\r\nX-Evil: 1' }, /printable/],
  ])('refuses %o', (options, message) => {
    expect(() => createFetcher({ ...base, ...options })).toThrow(message);
  });

  it('is named by nothing else of the server: no configuration or environment reaches it', () => {
    const src = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
    const mentions = (readdirSync(src, { recursive: true }) as string[])
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
      .filter((file) => readFileSync(path.join(src, file), 'utf8').includes('testOnlyAllow'));
    expect(mentions).toEqual([path.join('outbound', 'fetcher.ts')]);
  });

  it('closes kept-alive connections on close', async () => {
    const own = make();
    const opened = allowed.sockets.length;
    succeeded(await own.fetch(`${allowed.origin}/keep`));
    succeeded(await own.fetch(`${allowed.origin}/keep`));
    // One connection, kept open for the next request…
    expect(allowed.sockets.length).toBe(opened + 1);
    const socket = allowed.sockets[opened]!;
    expect(socket.closed).toBe(false);
    // …until the fetcher closes.
    await own.close();
    await expect.poll(() => socket.closed).toBe(true);
  });
});

describe('refusal', () => {
  it('refuses what does not parse, and takes public addresses', () => {
    expect(refusal('not-an-ip', 80)).toMatch(/not an IP/);
    expect(refusal('93.184.216.34', 80)).toBeNull();
    expect(refusal('2606:4700:4700::1111', 443)).toBeNull();
  });
});
