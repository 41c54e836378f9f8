// The portal's search for the browser's address bar (decision 0065): GET /opensearch.xml is a
// well-formed OpenSearch description whose addresses are absolute, from PUBLIC_URL, and whose
// search opens the portal with the terms filled in.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/app.ts';
import { openSearchDescription } from './opensearch.ts';

const PUBLIC_URL = 'https://links.example.com';
const OPENSEARCH = 'http://a9.com/-/spec/opensearch/1.1/';

// A built web app beside it: the page must not stand in for the description.
const webDir = await mkdtemp(path.join(tmpdir(), 'signpost-opensearch-'));
await writeFile(path.join(webDir, 'index.html'), '<!doctype html><title>Signpost</title>');
afterAll(() => rm(webDir, { recursive: true, force: true }));
const { app } = await createTestApp({ PUBLIC_URL, WEB_DIR: webDir });

interface Element {
  name: string;
  uri: string;
  attributes: Record<string, string>;
  text: string;
}

/** Parses the document strictly (namespaces on) into its elements, in order; throws on any fault. */
function parse(xml: string): { root: string; elements: Element[] } {
  const parser = new SaxesParser({ xmlns: true });
  const elements: Element[] = [];
  const open: Element[] = [];
  let root = '';
  parser.on('error', (error) => {
    throw error;
  });
  parser.on('opentag', (tag) => {
    const plain = tag as unknown as SaxesTagPlain & { uri: string; local: string };
    const attributes = Object.fromEntries(
      Object.entries(tag.attributes).map(([name, attribute]) => [
        name,
        typeof attribute === 'string' ? attribute : attribute.value,
      ]),
    );
    const element = { name: plain.local, uri: plain.uri, attributes, text: '' };
    if (!root) root = `${plain.uri} ${plain.local}`;
    elements.push(element);
    open.push(element);
  });
  parser.on('text', (text) => {
    const current = open[open.length - 1];
    if (current) current.text += text;
  });
  parser.on('closetag', () => {
    open.pop();
  });
  parser.write(xml).close();
  return { root, elements };
}

describe('GET /opensearch.xml', () => {
  it('is an OpenSearch description of its own type, public and cacheable', async () => {
    const response = await app.inject({ method: 'GET', url: '/opensearch.xml' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe(
      'application/opensearchdescription+xml; charset=utf-8',
    );
    expect(response.headers['cache-control']).toBe('public, max-age=86400');
    expect(response.body).not.toContain('<!doctype html>');
    const { root } = parse(response.body);
    expect(root).toBe(`${OPENSEARCH} OpenSearchDescription`);
  });

  it('names Signpost and searches the portal at PUBLIC_URL with the terms in `q`', async () => {
    const { elements } = parse((await app.inject({ method: 'GET', url: '/opensearch.xml' })).body);
    const own = elements.filter((element) => element.uri === OPENSEARCH);
    const text = (name: string) => own.find((element) => element.name === name)?.text;
    expect(text('ShortName')).toBe('Signpost');
    expect(text('InputEncoding')).toBe('UTF-8');
    expect(text('Image')).toBe(`${PUBLIC_URL}/icons/icon-192.png`);
    const urls = own.filter((element) => element.name === 'Url');
    const html = urls.find((url) => url.attributes.type === 'text/html');
    expect(html?.attributes.method).toBe('get');
    expect(html?.attributes.template).toBe(`${PUBLIC_URL}/?q={searchTerms}`);
    const self = urls.find((url) => url.attributes.rel === 'self');
    expect(self?.attributes.template).toBe(`${PUBLIC_URL}/opensearch.xml`);
    // Every address is absolute: a browser resolves the template without the page.
    for (const url of urls) expect(new URL(url.attributes.template!).origin).toBe(PUBLIC_URL);
  });

  it('opens the portal with the terms a browser puts in the template', async () => {
    const { elements } = parse((await app.inject({ method: 'GET', url: '/opensearch.xml' })).body);
    const template = elements.find((element) => element.attributes.type === 'text/html')!.attributes
      .template!;
    // What a browser does: the terms, percent-encoded, in place of {searchTerms}.
    const address = new URL(template.replace('{searchTerms}', encodeURIComponent('wiki & docs')));
    expect(address.pathname).toBe('/');
    expect(address.searchParams.get('q')).toBe('wiki & docs');
    // The address is a page of the portal: the server answers it with the web app.
    const page = await app.inject({ method: 'GET', url: `${address.pathname}${address.search}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<title>Signpost</title>');
  });

  it('answers HEAD with the same type and no body', async () => {
    const head = await app.inject({ method: 'HEAD', url: '/opensearch.xml' });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toMatch(/^application\/opensearchdescription\+xml/);
    expect(head.body).toBe('');
  });

  it('escapes what it writes into the document', () => {
    const xml = openSearchDescription('https://a.example.com/?x=<&>');
    expect(() => parse(xml)).not.toThrow();
    expect(xml).not.toContain('<&>');
  });
});
