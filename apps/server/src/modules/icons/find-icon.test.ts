import { beforeAll, describe, expect, it } from 'vitest';
import type {
  Fetcher,
  OutboundFailure,
  OutboundOptions,
  OutboundResult,
} from '../../outbound/types.ts';
import { FIND_ICON_DEFAULTS, findIcon, type FoundIcon } from './find-icon.ts';
import { ICON_SIZES } from './image.ts';
import { bmpEntry, icoOf, pngOf, sizeOf } from './test-images.ts';

type Route =
  | { status?: number; type?: string; body: Buffer | string }
  | { redirectTo: string }
  | { failure: OutboundFailure };

/**
 * A stand-in for the network behind the outbound fetcher: canned answers by address, 404
 * for any other, the body's cap applied as the real fetcher applies it (too-large, no
 * body), redirects followed. It records every request it is asked for.
 */
class FakeFetcher implements Fetcher {
  readonly requests: { url: string; options: OutboundOptions }[] = [];
  constructor(private readonly routes: Record<string, Route>) {}

  async fetch(url: string, options: OutboundOptions = {}): Promise<OutboundResult> {
    this.requests.push({ url, options });
    const redirects = [];
    let at = url;
    let route = this.routes[at];
    while (route && 'redirectTo' in route) {
      redirects.push({ url: at, status: 301, location: route.redirectTo });
      at = route.redirectTo;
      route = this.routes[at];
    }
    if (route && 'failure' in route) {
      return { ok: false, failure: route.failure, message: route.failure, url: at, redirects };
    }
    const { status = 200, type, body = 'Not found' } = route ?? { status: 404 };
    const bytes = Buffer.from(body);
    if (options.maxBytes !== undefined && bytes.length > options.maxBytes) {
      return { ok: false, failure: 'too-large', message: 'too large', url: at, redirects };
    }
    const headers: Record<string, string> = type ? { 'content-type': type } : {};
    return { ok: true, url: at, status, headers, body: bytes, redirects };
  }

  async close() {}

  get urls() {
    return this.requests.map((request) => request.url);
  }
}

const SITE = 'https://intranet.example.org';
const PAGE = `${SITE}/wiki/Start`;
const html = (links: string) => ({
  type: 'text/html; charset=utf-8',
  body: `<!doctype html><html><head><title>Wiki</title>${links}</head><body>…</body></html>`,
});

let png192: Buffer;
let png32: Buffer;
let ico: Buffer;
beforeAll(async () => {
  png192 = await pngOf(192);
  png32 = await pngOf(32);
  ico = icoOf([{ width: 48, height: 48, data: bmpEntry(48) }]);
});

function found(result: FoundIcon) {
  if (!result.ok) throw new Error(`no icon: ${JSON.stringify(result.attempts)}`);
  return result;
}

describe('findIcon', () => {
  it('takes the best-ranked candidate that is really an image, and scales it', async () => {
    const fetcher = new FakeFetcher({
      [PAGE]: html(`
        <link rel="icon" href="/favicon-32.png" sizes="32x32">
        <link rel="apple-touch-icon" href="/touch.png">`),
      [`${SITE}/touch.png`]: { type: 'image/png', body: png192 },
      [`${SITE}/favicon-32.png`]: { type: 'image/png', body: png32 },
    });
    const result = found(await findIcon(fetcher, PAGE));
    expect(result).toMatchObject({
      source: `${SITE}/touch.png`,
      from: 'apple-touch-icon',
      kind: 'png',
      width: 192,
    });
    expect(fetcher.urls).toEqual([PAGE, `${SITE}/touch.png`]);
    expect(result.images.map((image) => image.size)).toEqual([...ICON_SIZES]);
    for (const image of result.images) {
      expect(await sizeOf(image.bytes)).toMatchObject({ width: image.size, height: image.size });
    }
  });

  it('asks for HTML with the page cap, and for images with the icon cap', async () => {
    const fetcher = new FakeFetcher({
      [PAGE]: html('<link rel="icon" href="/i.png">'),
      [`${SITE}/i.png`]: { body: png32 },
    });
    await findIcon(fetcher, PAGE, { timeoutMs: 4000 });
    const [page, icon] = fetcher.requests;
    expect(page!.options).toMatchObject({
      method: 'GET',
      maxBytes: FIND_ICON_DEFAULTS.pageMaxBytes,
      timeoutMs: 4000,
    });
    expect(page!.options.accept).toMatch(/^text\/html/);
    expect(icon!.options).toMatchObject({ maxBytes: FIND_ICON_DEFAULTS.iconMaxBytes });
    expect(icon!.options.accept).toMatch(/^image\/png/);
    expect(icon!.options.accept).not.toContain('svg');
  });

  it('moves on past a missing icon, an HTML soft 404, a failure and an oversized one', async () => {
    const fetcher = new FakeFetcher({
      [PAGE]: html(`
        <link rel="icon" href="/d.png" sizes="512x512">
        <link rel="icon" href="/c.png" sizes="256x256">
        <link rel="icon" href="/b.png" sizes="192x192">
        <link rel="icon" href="/a.png" sizes="128x128">`),
      // /a.png: 404
      [`${SITE}/b.png`]: { type: 'image/png', body: '<html><body>Page not found</body></html>' },
      [`${SITE}/c.png`]: { type: 'image/png', body: Buffer.alloc(600 * 1024) },
      [`${SITE}/d.png`]: { failure: 'timeout' },
      [`${SITE}/favicon.ico`]: { type: 'image/x-icon', body: ico },
    });
    const result = found(await findIcon(fetcher, PAGE, { maxFetches: 6 }));
    expect(result).toMatchObject({ source: `${SITE}/favicon.ico`, from: 'favicon', kind: 'ico' });
    // In order of declared size: the smallest not below the largest tile first.
    expect(result.attempts).toEqual([
      { url: PAGE, outcome: 'ok' },
      { url: `${SITE}/a.png`, outcome: 'status 404' },
      { url: `${SITE}/b.png`, outcome: 'not-an-image' },
      { url: `${SITE}/c.png`, outcome: 'too-large' },
      { url: `${SITE}/d.png`, outcome: 'timeout' },
      { url: `${SITE}/favicon.ico`, outcome: 'ok' },
    ]);
  });

  it.each([
    ['the page times out', { failure: 'timeout' as const }],
    ['the page is too large', { type: 'text/html', body: 'x'.repeat(1024 * 1024 + 1) }],
    ['the page answers 500', { status: 500, type: 'text/html', body: html('').body }],
    ['the page is a PDF', { type: 'application/pdf', body: '%PDF-1.7' }],
  ])('tries /favicon.ico at the origin when %s', async (_, route) => {
    const fetcher = new FakeFetcher({
      [PAGE]: route,
      [`${SITE}/favicon.ico`]: { type: 'image/vnd.microsoft.icon', body: ico },
    });
    const result = found(await findIcon(fetcher, PAGE));
    expect(result).toMatchObject({ source: `${SITE}/favicon.ico`, from: 'favicon', width: 48 });
    expect(fetcher.urls).toEqual([PAGE, `${SITE}/favicon.ico`]);
  });

  it('reads the page where it was redirected to, and its origin’s /favicon.ico', async () => {
    const fetcher = new FakeFetcher({
      [PAGE]: { redirectTo: 'https://wiki.example.net/en/Start' },
      'https://wiki.example.net/en/Start': html('<link rel="icon" href="icon.png">'),
      'https://wiki.example.net/favicon.ico': { body: ico },
    });
    const result = found(await findIcon(fetcher, PAGE));
    expect(fetcher.urls).toEqual([
      PAGE,
      'https://wiki.example.net/en/icon.png',
      'https://wiki.example.net/favicon.ico',
    ]);
    expect(result.source).toBe('https://wiki.example.net/favicon.ico');
  });

  it('reads the manifest when the page names no large icon, resolving against it', async () => {
    const manifest = `${SITE}/static/app.webmanifest`;
    const fetcher = new FakeFetcher({
      [PAGE]: html(`
        <link rel="manifest" href="/static/app.webmanifest">
        <link rel="icon" href="/small.png" sizes="32x32">`),
      [manifest]: {
        type: 'application/manifest+json',
        body: JSON.stringify({ icons: [{ src: 'icon-192.png', sizes: '192x192' }] }),
      },
      [`${SITE}/static/icon-192.png`]: { body: png192 },
    });
    const result = found(await findIcon(fetcher, PAGE));
    expect(result).toMatchObject({ source: `${SITE}/static/icon-192.png`, from: 'manifest' });
    expect(fetcher.urls).toEqual([PAGE, manifest, `${SITE}/static/icon-192.png`]);
  });

  it('leaves the manifest unread when the page names a large icon', async () => {
    const fetcher = new FakeFetcher({
      [PAGE]: html(`
        <link rel="manifest" href="/app.webmanifest">
        <link rel="icon" href="/big.png" sizes="192x192">`),
      [`${SITE}/big.png`]: { body: png192 },
    });
    found(await findIcon(fetcher, PAGE));
    expect(fetcher.urls).toEqual([PAGE, `${SITE}/big.png`]);
  });

  it('uses an icon inline in the page without a request', async () => {
    const data = `data:image/png;base64,${png32.toString('base64')}`;
    const fetcher = new FakeFetcher({ [PAGE]: html(`<link rel="icon" href="${data}">`) });
    const result = found(await findIcon(fetcher, PAGE));
    expect(result).toMatchObject({ source: 'data:image/png', from: 'icon', width: 32 });
    expect(fetcher.urls).toEqual([PAGE]);
  });

  it('skips an inline icon that is not base64 or not an image', async () => {
    const fetcher = new FakeFetcher({
      [PAGE]: html(`
        <link rel="icon" href="data:,">
        <link rel="icon" href="data:image/png;base64,${Buffer.from('text').toString('base64')}">`),
      [`${SITE}/favicon.ico`]: { body: ico },
    });
    const result = found(await findIcon(fetcher, PAGE));
    expect(result.from).toBe('favicon');
    expect(result.attempts.map((attempt) => attempt.outcome)).toEqual([
      'ok',
      'not-base64',
      'not-an-image',
      'ok',
    ]);
  });

  it('makes at most five requests per link, the manifest counted, the last for /favicon.ico', async () => {
    const links = Array.from(
      { length: 10 },
      (_, i) => `<link rel="icon" href="/broken-${i}.png" sizes="${20 + i}x${20 + i}">`,
    );
    const fetcher = new FakeFetcher({
      [PAGE]: html(`<link rel="manifest" href="/m.json">${links.join('')}`),
    });
    const result = await findIcon(fetcher, PAGE);
    expect(result).toMatchObject({ ok: false, reason: 'no-icon' });
    expect(fetcher.urls).toEqual([
      PAGE,
      `${SITE}/m.json`,
      `${SITE}/broken-9.png`,
      `${SITE}/broken-8.png`,
      `${SITE}/favicon.ico`,
    ]);
    expect(result.attempts.map((attempt) => attempt.outcome)).toEqual([
      'ok',
      'status 404',
      'status 404',
      'status 404',
      'status 404',
    ]);
  });

  it('keeps to a smaller bound, and still reaches /favicon.ico', async () => {
    const fetcher = new FakeFetcher({
      [PAGE]: html('<link rel="manifest" href="/m.json"><link rel="icon" href="/a.png">'),
      [`${SITE}/favicon.ico`]: { body: ico },
    });
    found(await findIcon(fetcher, PAGE, { maxFetches: 2 }));
    expect(fetcher.urls).toEqual([PAGE, `${SITE}/favicon.ico`]);
  });

  it('refuses a link that is no http(s) address, without a request', async () => {
    const fetcher = new FakeFetcher({});
    for (const url of ['mailto:team@example.org', 'ftp://example.org/', 'not a url']) {
      expect(await findIcon(fetcher, url)).toEqual({
        ok: false,
        reason: 'bad-address',
        attempts: [],
      });
    }
    expect(fetcher.requests).toHaveLength(0);
  });

  it('answers no-icon, with what was tried, when nothing is an image', async () => {
    const fetcher = new FakeFetcher({
      [PAGE]: { failure: 'dns' },
      [`${SITE}/favicon.ico`]: { type: 'text/html', body: '<html>Welcome</html>' },
    });
    expect(await findIcon(fetcher, PAGE)).toEqual({
      ok: false,
      reason: 'no-icon',
      attempts: [
        { url: PAGE, outcome: 'dns' },
        { url: `${SITE}/favicon.ico`, outcome: 'not-an-image' },
      ],
    });
  });
});
