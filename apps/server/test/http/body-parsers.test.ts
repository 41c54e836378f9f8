// What a request body may be (decision 0049): JSON in UTF-8. Any other content type is 415,
// invalid UTF-8 is 400, and neither changes anything — not even a sign-out.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { links, sessions } from '../../src/db/schema/index.ts';
import { createTestApp } from '../app.ts';
import { createCollection, createOrganization, createUser, signIn } from '../factories.ts';

const { app, db } = await createTestApp();
const org = await createOrganization(db);
const person = await createUser(db, org.id);
const collection = await createCollection(db, { user: person });
const { headers } = await signIn(app, person);

const shape = (statusCode: number) => ({
  statusCode,
  error: expect.any(String),
  code: 'VALIDATION_ERROR',
  message: expect.any(String),
  msg: expect.any(String),
});
const linksStored = async () =>
  (await db.select().from(links).where(eq(links.collectionId, collection.id))).length;
const postLink = (payload: string | Buffer, contentType = 'application/json') =>
  app.inject({
    method: 'POST',
    url: `/api/consumer/collections/${collection.id}/links`,
    headers: { ...headers, 'content-type': contentType },
    payload,
  });
const okLink = JSON.stringify({ name: 'A link', url: 'https://example.com/fine' });

describe('content types', () => {
  it.each(['text/plain', 'text/plain; charset=utf-8', 'text/html', 'application/octet-stream'])(
    'refuses a sign-out sent as %s with 415, and the session lives on',
    async (contentType) => {
      const response = await app.inject({
        method: 'POST',
        url: '/api/auth/logout',
        headers: { ...headers, 'content-type': contentType },
        payload: '{}',
      });
      expect(response.statusCode).toBe(415);
      expect(response.json()).toEqual(shape(415));
      const menu = await app.inject({ method: 'GET', url: '/api/consumer/menu', headers });
      expect(menu.statusCode).toBe(200);
    },
  );

  it('refuses a JSON link sent as text/plain with 415 and stores nothing', async () => {
    const before = await linksStored();
    const response = await postLink(okLink, 'text/plain');
    expect(response.statusCode).toBe(415);
    expect(response.json()).toEqual(shape(415));
    expect(await linksStored()).toBe(before);
  });

  it('refuses a sign-in sent as text/plain with 415 and opens no session', async () => {
    const before = (await db.select().from(sessions)).length;
    const response = await app.inject({
      method: 'POST',
      url: '/api/auth/sessions',
      headers: { 'content-type': 'text/plain' },
      payload: JSON.stringify({ type: 'email-password', email: person.email, password: 'x' }),
    });
    expect(response.statusCode).toBe(415);
    expect((await db.select().from(sessions)).length).toBe(before);
  });

  it('refuses JSON that declares a charset other than UTF-8 with 415', async () => {
    const before = await linksStored();
    const response = await postLink(okLink, 'application/json; charset=iso-8859-1');
    expect(response.statusCode).toBe(415);
    expect(response.json().message).toMatch(/UTF-8/);
    expect(await linksStored()).toBe(before);
  });

  it.each([
    'application/json',
    'application/json; charset=utf-8',
    'Application/JSON; charset="UTF-8"',
  ])('takes JSON sent as %s', async (contentType) => {
    const before = await linksStored();
    const response = await postLink(okLink, contentType);
    expect(response.statusCode, response.body).toBe(204);
    expect(await linksStored()).toBe(before + 1);
  });

  it('takes a sign-out without a body or a content type', async () => {
    const session = await signIn(app, person);
    const response = await app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: session.headers,
    });
    expect(response.statusCode).toBe(200);
  });
});

describe('UTF-8', () => {
  it.each([
    ['an overlong slash', [0xc0, 0xaf]],
    ['a stray FF FE 80', [0xff, 0xfe, 0x80]],
    ['a lone continuation byte', [0x80]],
    ['a truncated sequence', [0xe2, 0x82]],
    ['an encoded surrogate', [0xed, 0xa0, 0x80]],
  ])('refuses %s in a link name with 400, and stores nothing', async (_what, bad) => {
    const before = await linksStored();
    const response = await postLink(
      Buffer.concat([
        Buffer.from('{"name":"a'),
        Buffer.from(bad),
        Buffer.from('b","url":"https://example.com"}'),
      ]),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(shape(400));
    expect(response.json().message).toMatch(/not valid UTF-8/);
    expect(await linksStored()).toBe(before);
  });

  it('takes real multi-byte characters, and stores them as sent', async () => {
    const name = 'Café ☕ 𝄞 日本';
    const response = await postLink(
      Buffer.from(JSON.stringify({ name, url: 'https://example.com/utf8' })),
    );
    expect(response.statusCode, response.body).toBe(204);
    const stored = await db.select().from(links).where(eq(links.collectionId, collection.id));
    expect(stored.map((link) => link.name)).toContain(name);
  });

  it('keeps the error shape for JSON that does not parse, and the body limit', async () => {
    const broken = await postLink('{"name":');
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toEqual(shape(400));
    expect(broken.json().message).toMatch(/not valid JSON/);
    const huge = await postLink(
      JSON.stringify({ name: 'x', url: 'https://example.com', description: 'x'.repeat(70_000) }),
    );
    expect(huge.statusCode).toBe(413);
    expect(huge.json().code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('still refuses __proto__ keys', async () => {
    const response = await postLink(
      '{"__proto__":{"polluted":true},"name":"x","url":"https://example.com"}',
    );
    expect(response.statusCode).toBe(400);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
