import { beforeAll, describe, expect, it } from 'vitest';
import {
  discoverIcons,
  loadHtmlParser,
  fallback,
  manifestIcons,
  preferredSize,
  rankCandidates,
  type IconCandidate,
} from './discover.ts';

const PAGE = 'https://www.example.org/docs/guide/index.html?lang=en';

const urls = (html: string, page = PAGE) =>
  discoverIcons(html, page).candidates.map((candidate) => candidate.url);

const head = (links: string) =>
  `<!DOCTYPE html><html><head><title>Guide</title>${links}</head><body><p>Hi</p></body></html>`;

beforeAll(loadHtmlParser);

describe('discoverIcons: which links count', () => {
  it('takes every rel list with the token icon, and apple-touch icons, in any case', () => {
    const html = head(`
      <link rel="shortcut icon" href="/a.ico">
      <link rel="ICON" href="/b.png">
      <link rel="icon shortcut" href="/c.png">
      <link rel="apple-touch-icon-precomposed" href="/d.png" sizes="57x57">
      <link rel="	apple-touch-icon
        " href="/e.png" sizes="60x60">
      <link rel="stylesheet" href="/style.css">
      <link rel="mask-icon" href="/f.png">
      <link rel="fluid-icon" href="/g.png">
      <link rel="icons" href="/h.png">
      <link rel="preload icon-font" href="/i.png">
      <link rel="icon">`);
    const found = discoverIcons(html, PAGE).candidates;
    expect(found.map(({ url, from }) => [new URL(url).pathname, from])).toEqual([
      ['/a.ico', 'icon'],
      ['/b.png', 'icon'],
      ['/c.png', 'icon'],
      ['/e.png', 'apple-touch-icon'],
      ['/d.png', 'apple-touch-icon'],
      ['/favicon.ico', 'favicon'],
    ]);
  });

  it('resolves relative, root-relative, protocol-relative and absolute addresses', () => {
    const html = head(`
      <link rel="icon" href="icons/a.png">
      <link rel="icon" href="../b.png">
      <link rel="icon" href="/c.png">
      <link rel="icon" href="//cdn.example.net/d.png">
      <link rel="icon" href="  https://static.example.com/e.png  ">
      <link rel="icon" href="f.png#v2">`);
    expect(urls(html)).toEqual([
      'https://www.example.org/docs/guide/icons/a.png',
      'https://www.example.org/docs/b.png',
      'https://www.example.org/c.png',
      'https://cdn.example.net/d.png',
      'https://static.example.com/e.png',
      'https://www.example.org/docs/guide/f.png',
      'https://www.example.org/favicon.ico',
    ]);
    // A protocol-relative address takes the page's scheme.
    expect(
      urls(head('<link rel="icon" href="//cdn.example.net/d.png">'), 'http://x.test/'),
    ).toEqual(['http://cdn.example.net/d.png', 'http://x.test/favicon.ico']);
  });

  it('resolves against the first <base href>, itself relative to the page', () => {
    const html = head(`
      <base target="_blank">
      <base href="/static/v3/">
      <base href="https://elsewhere.example/">
      <link rel="icon" href="icon.png">
      <link rel="apple-touch-icon" href="/touch.png">`);
    expect(urls(html)).toEqual([
      'https://www.example.org/touch.png',
      'https://www.example.org/static/v3/icon.png',
      // /favicon.ico is the site's, not the base's.
      'https://www.example.org/favicon.ico',
    ]);
    expect(
      urls(head('<base href="https://cdn.example.com/a/"><link rel=icon href=i.png>')),
    ).toEqual(['https://cdn.example.com/a/i.png', 'https://www.example.org/favicon.ico']);
  });

  it('drops addresses that are not http or https, or carry credentials', () => {
    const html = head(`
      <link rel="icon" href="javascript:alert(1)">
      <link rel="icon" href="ftp://files.example.org/i.png">
      <link rel="icon" href="file:///etc/passwd">
      <link rel="icon" href="blob:https://www.example.org/1234">
      <link rel="icon" href="mailto:someone@example.org">
      <link rel="icon" href="https://user:secret@www.example.org/i.png">
      <link rel="icon" href="http://[::1">
      <link rel="icon" href="/ok.png">`);
    expect(urls(html)).toEqual([
      'https://www.example.org/ok.png',
      'https://www.example.org/favicon.ico',
    ]);
    // With a base that is not http, relative addresses resolve to nothing fetchable.
    expect(urls(head('<base href="data:text/plain,x"><link rel=icon href=/i.png>'))).toEqual([
      'https://www.example.org/favicon.ico',
    ]);
  });

  it('keeps a base64 data: icon as it is, and drops SVG whichever way it says so', () => {
    const data = 'data:image/png;base64,iVBORw0KGgo=';
    const html = head(`
      <link rel="icon" href="${data}">
      <link rel="icon" href="data:image/svg+xml,%3Csvg%3E%3C/svg%3E">
      <link rel="icon" type="image/svg+xml" href="/logo">
      <link rel="icon" href="/logo.svg">
      <link rel="icon" href="/logo.SVGZ?v=1">
      <link rel="icon" href="/raster.png">`);
    expect(urls(html)).toEqual([
      data,
      'https://www.example.org/raster.png',
      'https://www.example.org/favicon.ico',
    ]);
  });

  it('names the first manifest, resolved against the base', () => {
    const html = head(`
      <base href="/app/">
      <link rel="manifest" href="site.webmanifest">
      <link rel="manifest" href="/other.json">
      <link rel="icon" href="/i.png">`);
    const found = discoverIcons(html, PAGE);
    expect(found.manifest).toBe('https://www.example.org/app/site.webmanifest');
    expect(found.candidates.map((candidate) => candidate.from)).toEqual(['icon', 'favicon']);
    expect(
      discoverIcons(head('<link rel=manifest href="javascript:x">'), PAGE).manifest,
    ).toBeNull();
  });

  it('lists each address once, where it ranks best', () => {
    const html = head(`
      <link rel="icon" href="/favicon.ico">
      <link rel="icon" href="/i.png">
      <link rel="apple-touch-icon" href="/i.png#touch">`);
    expect(discoverIcons(html, PAGE).candidates).toEqual([
      {
        url: 'https://www.example.org/i.png',
        from: 'apple-touch-icon',
        size: 180,
        conditional: false,
      },
      { url: 'https://www.example.org/favicon.ico', from: 'icon', size: null, conditional: false },
    ]);
  });
});

describe('discoverIcons: pages that are not tidy', () => {
  it('finds icons in a page without <html> or <head>', () => {
    expect(urls('<title>Old</title><link rel=icon href=/old.gif><p>text')).toEqual([
      'https://www.example.org/old.gif',
      'https://www.example.org/favicon.ico',
    ]);
  });

  it('takes the head as a browser builds it from broken HTML', () => {
    const html = `<html><head><link rel=icon href="/one.png"><meta charset=utf-8>
      <link rel='icon' href=/two.png sizes=32x32 ><<>>
      <div>the body starts here, implied</div>
      <link rel="icon" href="/in-body.png">
      <link rel="icon" href="/unclosed.png`;
    expect(urls(html)).toEqual([
      'https://www.example.org/one.png',
      'https://www.example.org/two.png',
      'https://www.example.org/favicon.ico',
    ]);
  });

  it('ignores links in templates and in noscript (read as text, as a browser with scripts)', () => {
    const html = head(`
      <template><link rel="icon" href="/template.png"></template>
      <noscript><link rel="icon" href="/noscript.png"></noscript>
      <link rel="icon" href="/real.png">`);
    expect(urls(html)).toEqual([
      'https://www.example.org/real.png',
      'https://www.example.org/favicon.ico',
    ]);
  });

  it('answers /favicon.ico alone for an empty page, or one that is not HTML', () => {
    expect(urls('')).toEqual(['https://www.example.org/favicon.ico']);
    expect(urls('{"json": true}')).toEqual(['https://www.example.org/favicon.ico']);
    expect(urls('\u0000\uffff'.repeat(1000))).toEqual(['https://www.example.org/favicon.ico']);
  });
});

describe('ranking', () => {
  it('prefers the smallest size not below the largest tile, then unknown, then the largest', () => {
    const html = head(`
      <link rel="icon" href="/16.png" sizes="16x16">
      <link rel="icon" href="/unknown.png">
      <link rel="icon" href="/512.png" sizes="512x512">
      <link rel="icon" href="/96.png" sizes="96x96">
      <link rel="icon" href="/48.png" sizes="48x48">
      <link rel="icon" href="/multi.ico" sizes="16x16 32x32 64x64">
      <link rel="apple-touch-icon" href="/touch.png">
      <link rel="icon" href="/dark.png" sizes="96x96" media="(prefers-color-scheme: dark)">`);
    expect(urls(html).map((url) => new URL(url).pathname)).toEqual([
      '/96.png',
      '/touch.png',
      '/512.png',
      '/unknown.png',
      '/multi.ico',
      '/48.png',
      '/16.png',
      '/dark.png',
      '/favicon.ico',
    ]);
  });

  it('puts icon before apple-touch-icon before the manifest at an equal size', () => {
    const candidate = (from: IconCandidate['from'], url: string): IconCandidate => ({
      url,
      from,
      size: 192,
      conditional: false,
    });
    const ranked = rankCandidates([
      ...fallback(PAGE),
      candidate('manifest', 'https://m.test/'),
      candidate('apple-touch-icon', 'https://a.test/'),
      candidate('icon', 'https://i.test/'),
    ]);
    expect(ranked.map((c) => c.from)).toEqual(['icon', 'apple-touch-icon', 'manifest', 'favicon']);
  });

  it.each([
    ['16x16 32x32 48x48 256x256', 256],
    ['16x16 32x32 128x128 256x256', 128],
    ['16x16 32X32', 32],
    ['  192x192\n', 192],
    ['200x100', 100],
    ['any', null],
    ['any 48x48', 48],
    ['big', null],
    ['0x0', null],
    ['', null],
  ])('reads sizes="%s" as %s', (sizes, expected) => {
    expect(preferredSize(sizes)).toBe(expected);
  });
});

describe('manifestIcons', () => {
  const MANIFEST = 'https://static.example.org/app/manifest.json';

  it('resolves icons against the manifest’s address, not the page’s', () => {
    const json = JSON.stringify({
      name: 'App',
      icons: [
        { src: 'icons/192.png', sizes: '192x192', type: 'image/png' },
        { src: '/512.png', sizes: '512x512' },
        { src: '//cdn.example.net/1024.png', sizes: '1024x1024' },
      ],
    });
    expect(manifestIcons(json, MANIFEST)).toEqual([
      {
        url: 'https://static.example.org/app/icons/192.png',
        from: 'manifest',
        size: 192,
        conditional: false,
      },
      {
        url: 'https://static.example.org/512.png',
        from: 'manifest',
        size: 512,
        conditional: false,
      },
      { url: 'https://cdn.example.net/1024.png', from: 'manifest', size: 1024, conditional: false },
    ]);
  });

  it('puts maskable and monochrome icons after the others, and drops SVG and nonsense', () => {
    const json = JSON.stringify({
      icons: [
        { src: 'maskable.png', sizes: '192x192', purpose: 'maskable' },
        { src: 'both.png', sizes: '192x192', purpose: 'maskable any' },
        { src: 'mono.png', sizes: '96x96', purpose: 'monochrome' },
        { src: 'logo.svg', sizes: 'any' },
        { src: 'typed', type: 'image/svg+xml' },
        { src: 'javascript:alert(1)' },
        { src: 42 },
        null,
        'icon.png',
      ],
    });
    const ranked = rankCandidates(manifestIcons(json, MANIFEST));
    expect(ranked.map((c) => new URL(c.url).pathname)).toEqual([
      '/app/both.png',
      '/app/mono.png',
      '/app/maskable.png',
    ]);
  });

  it('answers nothing for JSON that is broken or holds no icon list', () => {
    expect(manifestIcons('{"icons": [', MANIFEST)).toEqual([]);
    expect(manifestIcons('null', MANIFEST)).toEqual([]);
    expect(manifestIcons('{"icons": {"src": "a.png"}}', MANIFEST)).toEqual([]);
    expect(manifestIcons('<html>', MANIFEST)).toEqual([]);
  });
});
