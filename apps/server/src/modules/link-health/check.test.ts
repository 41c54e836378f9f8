import { describe, expect, it } from 'vitest';
import { checkAddress, movedTarget, retryAfter } from './check.ts';
import { answer, fakeFetcher, noAnswer } from '../../../test/support/fake-fetcher.ts';

const PAGE = 'https://wiki.example.com/page';

const check = async (fetcher: ReturnType<typeof fakeFetcher>, url = PAGE) =>
  checkAddress(fetcher, url, { timeoutMs: 5000 });
const methods = (fetcher: ReturnType<typeof fakeFetcher>) => fetcher.calls.map((c) => c.method);

describe('a check asks HEAD first', () => {
  it('is fine on a 2xx HEAD, with one request that reads no body', async () => {
    const fetcher = fakeFetcher({ [`HEAD ${PAGE}`]: answer(PAGE, 204) });
    expect(await check(fetcher)).toEqual({ kind: 'fine', status: 204, url: PAGE });
    expect(methods(fetcher)).toEqual(['HEAD']);
    expect(fetcher.calls[0]!.options).toMatchObject({
      method: 'HEAD',
      discardBody: true,
      followRedirects: true,
      timeoutMs: 5000,
    });
  });

  it('is fine on a 3xx that was not followed (a 300 or 304 is an answer)', async () => {
    const fetcher = fakeFetcher({ [`HEAD ${PAGE}`]: answer(PAGE, 304) });
    expect(await check(fetcher)).toMatchObject({ kind: 'fine', status: 304 });
  });

  it.each([405, 501, 400, 403, 404, 500])(
    'asks again with GET, reading no body, when HEAD answers %i, and believes the GET',
    async (status) => {
      const fetcher = fakeFetcher({
        [`HEAD ${PAGE}`]: answer(PAGE, status),
        [`GET ${PAGE}`]: answer(PAGE, 200),
      });
      expect(await check(fetcher)).toEqual({ kind: 'fine', status: 200, url: PAGE });
      expect(methods(fetcher)).toEqual(['HEAD', 'GET']);
      expect(fetcher.calls[1]!.options).toMatchObject({ method: 'GET', discardBody: true });
    },
  );

  it.each(['timeout', 'network'] as const)(
    'asks again with GET when HEAD gets no answer (%s)',
    async (failure) => {
      const fetcher = fakeFetcher({
        [`HEAD ${PAGE}`]: noAnswer(PAGE, failure),
        [`GET ${PAGE}`]: answer(PAGE, 200),
      });
      expect(await check(fetcher)).toMatchObject({ kind: 'fine', status: 200 });
      expect(methods(fetcher)).toEqual(['HEAD', 'GET']);
    },
  );

  it('waits for the pace of the host before the GET', async () => {
    const order: string[] = [];
    const fetcher = fakeFetcher({
      [`HEAD ${PAGE}`]: () => (order.push('HEAD'), answer(PAGE, 405)),
      [`GET ${PAGE}`]: () => (order.push('GET'), answer(PAGE, 200)),
    });
    await checkAddress(fetcher, PAGE, {
      beforeRetry: async () => {
        order.push('pause');
      },
    });
    expect(order).toEqual(['HEAD', 'pause', 'GET']);
  });
});

describe('what the answers mean', () => {
  const viaGet = async (get: Parameters<typeof fakeFetcher>[0][string]) => {
    const fetcher = fakeFetcher({ [`HEAD ${PAGE}`]: answer(PAGE, 404), [`GET ${PAGE}`]: get });
    return check(fetcher);
  };

  it.each([404, 410, 400, 500, 502])('calls a GET answered %i a failure', async (status) => {
    expect(await viaGet(answer(PAGE, status))).toEqual({
      kind: 'failure',
      failure: 'http',
      status,
      message: `the site answered ${status}`,
    });
  });

  it('calls a 503 without Retry-After a failure', async () => {
    expect(await viaGet(answer(PAGE, 503))).toMatchObject({ kind: 'failure', status: 503 });
  });

  it.each([401, 403])(
    'calls a GET answered %i fine: the site is there and wants a sign-in',
    async (status) => {
      expect(await viaGet(answer(PAGE, status))).toEqual({ kind: 'fine', status, url: PAGE });
    },
  );

  it.each(['dns', 'timeout', 'network', 'too-many-redirects'] as const)(
    'calls %s from the GET a failure',
    async (failure) => {
      expect(await viaGet(noAnswer(PAGE, failure))).toMatchObject({
        kind: 'failure',
        failure,
        status: null,
      });
    },
  );

  it.each(['dns', 'too-many-redirects'] as const)(
    'takes %s from the HEAD as it is: a GET would meet the same',
    async (failure) => {
      const fetcher = fakeFetcher({ [`HEAD ${PAGE}`]: noAnswer(PAGE, failure) });
      expect(await check(fetcher)).toMatchObject({ kind: 'failure', failure });
      expect(methods(fetcher)).toEqual(['HEAD']);
    },
  );

  it.each(['internal-address', 'bad-scheme', 'bad-address'] as const)(
    'calls a %s refusal refused (unknown, never broken), without a second request',
    async (reason) => {
      const fetcher = fakeFetcher({ [`HEAD ${PAGE}`]: noAnswer(PAGE, reason) });
      expect(await check(fetcher)).toEqual({
        kind: 'refused',
        reason,
        message: `${reason} for ${PAGE}`,
      });
      expect(methods(fetcher)).toEqual(['HEAD']);
    },
  );

  it('calls a refusal met by the GET refused too', async () => {
    expect(await viaGet(noAnswer(PAGE, 'internal-address'))).toMatchObject({
      kind: 'refused',
      reason: 'internal-address',
    });
  });

  it('is inconclusive on a 429 from the HEAD, and asks nothing more', async () => {
    const fetcher = fakeFetcher({
      [`HEAD ${PAGE}`]: answer(PAGE, 429, { headers: { 'retry-after': '120' } }),
    });
    expect(await check(fetcher)).toEqual({
      kind: 'inconclusive',
      status: 429,
      retryAfterSeconds: 120,
      message: 'the site answered 429: asked to slow down',
    });
    expect(methods(fetcher)).toEqual(['HEAD']);
  });

  it('is inconclusive on a 429 without Retry-After, and on a 503 with one, from the GET', async () => {
    expect(await viaGet(answer(PAGE, 429))).toMatchObject({
      kind: 'inconclusive',
      retryAfterSeconds: null,
    });
    expect(await viaGet(answer(PAGE, 503, { headers: { 'retry-after': '30' } }))).toMatchObject({
      kind: 'inconclusive',
      status: 503,
      retryAfterSeconds: 30,
    });
  });

  it('is inconclusive when a body came although none was asked for', async () => {
    expect(await viaGet(noAnswer(PAGE, 'too-large'))).toMatchObject({ kind: 'inconclusive' });
  });
});

describe('redirects', () => {
  const hop = (url: string, status: number, location: string) => ({ url, status, location });

  it('calls a permanent redirect to an address that answers moved, to that address', async () => {
    for (const status of [301, 308]) {
      const fetcher = fakeFetcher({
        [`HEAD ${PAGE}`]: answer(PAGE, 200, {
          redirects: [hop(PAGE, status, 'https://docs.example.com/page')],
        }),
      });
      expect(await check(fetcher)).toEqual({
        kind: 'moved',
        status: 200,
        to: 'https://docs.example.com/page',
      });
    }
  });

  it('calls a temporary redirect fine: the address is the one to keep', async () => {
    for (const status of [302, 303, 307]) {
      const fetcher = fakeFetcher({
        [`HEAD ${PAGE}`]: answer(PAGE, 200, {
          redirects: [hop(PAGE, status, 'https://sso.example.com/login?state=x')],
        }),
      });
      expect(await check(fetcher)).toEqual({
        kind: 'fine',
        status: 200,
        url: 'https://sso.example.com/login?state=x',
      });
    }
  });

  it('is moved to where the permanent hops end, never to a sign-in page after them', async () => {
    const fetcher = fakeFetcher({
      [`HEAD http://app.example.com/`]: answer('http://app.example.com/', 200, {
        redirects: [
          hop('http://app.example.com/', 301, 'https://app.example.com/'),
          hop('https://app.example.com/', 308, '/home'),
          hop('https://app.example.com/home', 302, 'https://sso.example.com/login?s=1'),
        ],
      }),
    });
    expect(await check(fetcher, 'http://app.example.com/')).toEqual({
      kind: 'moved',
      status: 200,
      to: 'https://app.example.com/home',
    });
  });

  it('is moved when the new address wants a sign-in (401/403 from the GET)', async () => {
    const redirects = [hop(PAGE, 301, 'https://new.example.com/page')];
    const fetcher = fakeFetcher({
      [`HEAD ${PAGE}`]: answer(PAGE, 403, { redirects }),
      [`GET ${PAGE}`]: answer(PAGE, 401, { redirects }),
    });
    expect(await check(fetcher)).toMatchObject({
      kind: 'moved',
      to: 'https://new.example.com/page',
    });
  });

  it('is a failure, not moved, when the permanent redirect leads nowhere', async () => {
    const redirects = [hop(PAGE, 301, 'https://new.example.com/gone')];
    const fetcher = fakeFetcher({
      [`HEAD ${PAGE}`]: answer(PAGE, 404, { redirects }),
      [`GET ${PAGE}`]: answer(PAGE, 404, { redirects }),
    });
    expect(await check(fetcher)).toMatchObject({ kind: 'failure', status: 404 });
  });

  it('keeps the link’s fragment, and is not moved when the target is the same address', () => {
    expect(
      movedTarget('http://a.example.com/p#part', [
        hop('http://a.example.com/p', 301, 'https://a.example.com/p'),
      ]),
    ).toBe('https://a.example.com/p#part');
    expect(
      movedTarget('https://a.example.com/p', [
        hop('https://a.example.com/p', 301, 'https://A.example.com:443/p'),
      ]),
    ).toBeNull();
    expect(
      movedTarget('https://a.example.com/p', [hop('https://a.example.com/p', 302, '/q')]),
    ).toBeNull();
    expect(movedTarget('https://a.example.com/p', [])).toBeNull();
  });
});

describe('Retry-After', () => {
  it('reads seconds and dates, and caps what is unreasonable', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(retryAfter(undefined, now)).toBeNull();
    expect(retryAfter('90', now)).toBe(90);
    expect(retryAfter('Wed, 01 Jan 2025 00:10:00 GMT', now)).toBe(600);
    expect(retryAfter('Tue, 31 Dec 2024 00:00:00 GMT', now)).toBe(0);
    expect(retryAfter('9999999', now)).toBe(24 * 3600);
    expect(retryAfter('soon', now)).toBeNull();
  });
});
