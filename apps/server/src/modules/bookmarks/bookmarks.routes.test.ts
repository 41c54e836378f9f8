// Bookmarks in and out over HTTP (decision 0087), with files written from each product's
// documented format (test/fixtures/bookmarks): what only HTTP shows — the schemas, the body
// limit, the file's download headers, authentication; and the round trip a person makes,
// importing a browser's file, exporting it and importing that again. The rules are the
// service's (bookmarks.service.test.ts).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/app.ts';
import { countRows } from '../../../test/factories.ts';
import { createPerson } from '../../../test/support/world.ts';
import { createOrganization } from '../../../test/factories.ts';

const { app, db } = await createTestApp();
const org = await createOrganization(db);
const fixture = (name: string) =>
  readFileSync(path.join(import.meta.dirname, '../../../test/fixtures/bookmarks', name), 'utf8');

const post = (url: string, payload: unknown, headers: Record<string, string>) =>
  app.inject({
    method: 'POST',
    url: `/api/consumer/bookmarks${url}`,
    headers: { ...headers, 'content-type': 'application/json' },
    payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });

interface MenuNode {
  name: string;
  type: string;
  items?: MenuNode[];
}
/** A collection of the person's menu as names, `[name]` for collections. */
async function tree(headers: Record<string, string>, name: string) {
  const menu = await app.inject({ method: 'GET', url: '/api/consumer/menu', headers });
  const find = (nodes: MenuNode[]): MenuNode | undefined => {
    for (const node of nodes) {
      if (node.name === name && node.type === 'collection') return node;
      const inner = find(node.items ?? []);
      if (inner) return inner;
    }
    return undefined;
  };
  const spaces = menu.json<{ spaces: { collections: MenuNode[] }[] }>().spaces;
  const shape = (node: MenuNode): unknown =>
    node.type === 'collection' ? { [node.name]: (node.items ?? []).map(shape) } : node.name;
  const found = find(spaces.flatMap((space) => space.collections));
  return found ? shape(found) : null;
}

describe('importing a browser’s file, exporting it, importing that again', () => {
  it.each([
    ['chrome.html', 'netscape'],
    ['firefox.html', 'netscape'],
    ['linkwarden.json', 'linkwarden'],
  ])('%s', async (file, format) => {
    const person = await createPerson(app, db, org.id);
    const text = fixture(file);
    const preview = await post(
      '/import/preview',
      { file: text, fileName: file, target: { into: 'new' } },
      person.headers,
    );
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json()).toMatchObject({ format, refusedCount: expect.any(Number) });
    const imported = await post(
      '/import',
      { file: text, fileName: file, target: { into: 'new' }, duplicates: 'keep' },
      person.headers,
    );
    expect(imported.statusCode, imported.body).toBe(200);
    const { collectionId, links } = imported.json<{ collectionId: string; links: number }>();
    expect(links).toBe(preview.json<{ links: number }>().links);

    const exported = await app.inject({
      method: 'GET',
      url: `/api/consumer/bookmarks/export?format=netscape&collectionId=${collectionId}`,
      headers: person.headers,
    });
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(exported.headers['content-disposition']).toMatch(
      /^attachment; filename="[^"]+\.html"; filename\*=UTF-8''/,
    );
    expect(exported.body).toMatch(/^<!DOCTYPE NETSCAPE-Bookmark-file-1>/);

    // The export read back into an empty place makes the same tree.
    const name = preview.json<{ targetName: string }>().targetName;
    const before = await tree(person.headers, name);
    expect(JSON.stringify(before)).toContain('[');
    expect(before).not.toBeNull();
    const other = await createPerson(app, db, org.id);
    const again = await post(
      '/import',
      { file: exported.body, target: { into: 'new' }, duplicates: 'keep' },
      other.headers,
    );
    expect(again.statusCode, again.body).toBe(200);
    expect(await tree(other.headers, name)).toEqual(before);
  });

  it('keeps Firefox’s keywords, and writes them back in the bookmark file and the JSON', async () => {
    const person = await createPerson(app, db, org.id);
    const imported = await post(
      '/import',
      { file: fixture('firefox.html'), target: { into: 'new' }, duplicates: 'keep' },
      person.headers,
    );
    const { collectionId } = imported.json<{ collectionId: string }>();
    const get = (format: string) =>
      app.inject({
        method: 'GET',
        url: `/api/consumer/bookmarks/export?format=${format}&collectionId=${collectionId}`,
        headers: person.headers,
      });
    expect((await get('netscape')).body).toContain('SHORTCUTURL="mdn"');
    const json = (await get('json')).json<{ format: string; items: unknown[] }>();
    expect(json.format).toBe('signpost-bookmarks');
    expect(JSON.stringify(json)).toContain('"keyword":"mdn"');
    const csv = await get('csv');
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.body).toContain('url,name,description,path');
  });
});

describe('what HTTP refuses', () => {
  it('answers a file that is not a bookmark file with 400 in words, and writes nothing', async () => {
    const person = await createPerson(app, db, org.id);
    const before = await countRows(db, 'links');
    const answer = await post(
      '/import',
      { file: 'just some words', target: { into: 'new' }, duplicates: 'keep' },
      person.headers,
    );
    expect(answer.statusCode).toBe(400);
    expect(answer.json().message).toMatch(/^This is not a bookmark file/);
    expect(await countRows(db, 'links')).toBe(before);
  });

  it('refuses a body past its limit with 413, an unknown target with 400, and no token with 401', async () => {
    const person = await createPerson(app, db, org.id);
    const huge = 'x'.repeat(80 * 1024 * 1024 + 10);
    expect(
      (await post('/import/preview', { file: huge, target: { into: 'new' } }, person.headers))
        .statusCode,
    ).toBe(413);
    expect(
      (await post('/import/preview', { file: 'x', target: { into: 'elsewhere' } }, person.headers))
        .statusCode,
    ).toBe(400);
    expect(
      (await post('/import/preview', { file: 'x', target: { into: 'new' } }, {})).statusCode,
    ).toBe(401);
    const exported = await app.inject({
      method: 'GET',
      url: '/api/consumer/bookmarks/export?format=netscape&space=personal&collectionId=xxxxxxxxxxxxxxxxxxxxx',
      headers: person.headers,
    });
    expect(exported.statusCode).toBe(400);
    expect(exported.json().message).toBe('Name either collectionId or space to export.');
  });
});
