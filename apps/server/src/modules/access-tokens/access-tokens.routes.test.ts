import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { accessTokens, users } from '../../db/schema/index.ts';
import { createTestApp } from '../../../test/app.ts';
import { countRows, createOrganization, createUser, signIn } from '../../../test/factories.ts';
import { hashAccessToken } from './access-tokens.service.ts';

const { app, db } = await createTestApp();
const org = await createOrganization(db);

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function createToken(headers: Record<string, string>, payload: Record<string, unknown>) {
  return app.inject({ method: 'POST', url: '/api/auth/tokens', headers, payload });
}

describe('personal access tokens', () => {
  it('requires authentication', async () => {
    for (const [method, url] of [
      ['GET', '/api/auth/tokens'],
      ['POST', '/api/auth/tokens'],
      ['DELETE', '/api/auth/tokens/aaaaaaaaaaaaaaaaaaaaa'],
    ] as const) {
      const response = await app.inject({
        method,
        url,
        payload: method === 'POST' ? { name: 'x' } : undefined,
      });
      expect(response.statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it('creates a token shown once, stored only as a hash, with a prefix and 256 random bits', async () => {
    const user = await createUser(db, org.id);
    const { headers } = await signIn(app, user);
    const response = await createToken(headers, { name: 'CI script' });
    expect(response.statusCode).toBe(201);
    const { token, accessToken } = response.json();
    expect(token).toMatch(/^spat_[\w-]{43}$/);
    expect(accessToken).toMatchObject({
      name: 'CI script',
      hint: token.slice(0, 9),
      lastUsedAt: null,
      expiresAt: null,
    });
    const [row] = await db.select().from(accessTokens).where(eq(accessTokens.id, accessToken.id));
    expect(row?.tokenHash).toBe(hashAccessToken(token));
    expect(JSON.stringify(row)).not.toContain(token);
  });

  it('answers the new token with Cache-Control: no-store', async () => {
    const user = await createUser(db, org.id);
    const { headers } = await signIn(app, user);
    const response = await createToken(headers, { name: 'not for caches' });
    expect(response.statusCode).toBe(201);
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('lists tokens with name, dates and hint, never the token', async () => {
    const user = await createUser(db, org.id);
    const { headers } = await signIn(app, user);
    const a = (await createToken(headers, { name: 'first' })).json();
    const b = (await createToken(headers, { name: 'second', expiresInDays: 30 })).json();
    const list = await app.inject({ method: 'GET', url: '/api/auth/tokens', headers });
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(a.token);
    expect(list.body).not.toContain(b.token);
    const items = list.json().items;
    expect(items.map((t: { name: string }) => t.name).sort()).toEqual(['first', 'second']);
    const second = items.find((t: { name: string }) => t.name === 'second');
    const days = (Date.parse(second.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
    expect(Object.keys(second).sort()).toEqual(
      ['createdAt', 'expiresAt', 'hint', 'id', 'lastUsedAt', 'name'].sort(),
    );
    // Another person sees none of them.
    const other = await signIn(app, await createUser(db, org.id));
    const theirs = await app.inject({
      method: 'GET',
      url: '/api/auth/tokens',
      headers: other.headers,
    });
    expect(theirs.json().items).toEqual([]);
  });

  it('works as a bearer for the API and for token sign-in, and records its last use', async () => {
    const user = await createUser(db, org.id, { name: 'Token User' });
    const { headers } = await signIn(app, user);
    const { token, accessToken } = (await createToken(headers, { name: 'script' })).json();
    const current = await app.inject({
      method: 'GET',
      url: '/api/auth/sessions/current',
      headers: bearer(token),
    });
    expect(current.statusCode).toBe(200);
    expect(current.json()).toMatchObject({
      user: { id: user.id, name: 'Token User' },
      session: { kind: 'access-token', expiresAt: null },
    });
    const menu = await app.inject({
      method: 'GET',
      url: '/api/consumer/menu',
      headers: bearer(token),
    });
    expect(menu.statusCode).toBe(200);
    const list = await app.inject({ method: 'GET', url: '/api/auth/tokens', headers });
    expect(list.json().items[0]).toMatchObject({
      id: accessToken.id,
      lastUsedAt: expect.any(String),
    });
  });

  it('revokes a token: 401 on every route from then on', async () => {
    const user = await createUser(db, org.id);
    const { headers } = await signIn(app, user);
    const { token, accessToken } = (await createToken(headers, { name: 'to revoke' })).json();
    const revoke = await app.inject({
      method: 'DELETE',
      url: `/api/auth/tokens/${accessToken.id}`,
      headers,
    });
    expect(revoke.statusCode).toBe(204);
    for (const url of ['/api/auth/sessions/current', '/api/consumer/menu', '/api/auth/tokens']) {
      const response = await app.inject({ method: 'GET', url, headers: bearer(token) });
      expect(response.statusCode, url).toBe(401);
      // Revoked reads as never issued: its holder learns only that it does not work.
      expect(response.json(), url).toMatchObject({
        code: 'UNAUTHORIZED',
        message: 'This access token is not valid.',
      });
    }
    const again = await app.inject({
      method: 'DELETE',
      url: `/api/auth/tokens/${accessToken.id}`,
      headers,
    });
    expect(again.statusCode).toBe(404);
    expect(
      (await app.inject({ method: 'GET', url: '/api/auth/tokens', headers })).json().items,
    ).toEqual([]);
  });

  it("cannot revoke another person's token (404, still working)", async () => {
    const owner = await signIn(app, await createUser(db, org.id));
    const { token, accessToken } = (await createToken(owner.headers, { name: 'mine' })).json();
    const stranger = await signIn(app, await createUser(db, org.id));
    const response = await app.inject({
      method: 'DELETE',
      url: `/api/auth/tokens/${accessToken.id}`,
      headers: stranger.headers,
    });
    expect(response.statusCode).toBe(404);
    const still = await app.inject({
      method: 'GET',
      url: '/api/auth/sessions/current',
      headers: bearer(token),
    });
    expect(still.statusCode).toBe(200);
  });

  it('stops working when it expires', async () => {
    const user = await createUser(db, org.id);
    const { headers } = await signIn(app, user);
    const { token, accessToken } = (
      await createToken(headers, { name: 'short', expiresInDays: 1 })
    ).json();
    expect(
      (
        await app.inject({
          method: 'GET',
          url: '/api/auth/sessions/current',
          headers: bearer(token),
        })
      ).statusCode,
    ).toBe(200);
    await db
      .update(accessTokens)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(accessTokens.id, accessToken.id));
    for (const url of ['/api/auth/sessions/current', '/api/consumer/menu']) {
      const response = await app.inject({ method: 'GET', url, headers: bearer(token) });
      expect(response.statusCode, url).toBe(401);
      expect(response.json(), url).toMatchObject({
        code: 'ACCESS_TOKEN_EXPIRED',
        message: 'This access token has expired. Make a new one in your settings.',
        msg: 'This access token has expired. Make a new one in your settings.',
      });
    }
    expect(
      (await app.inject({ method: 'GET', url: '/api/auth/tokens', headers })).json().items,
    ).toEqual([]);
    // Expired, then revoked: no longer told as expired.
    await db
      .update(accessTokens)
      .set({ revokedAt: sql`now()` })
      .where(eq(accessTokens.id, accessToken.id));
    const revoked = await app.inject({
      method: 'GET',
      url: '/api/auth/sessions/current',
      headers: bearer(token),
    });
    expect(revoked.json()).toMatchObject({
      code: 'UNAUTHORIZED',
      message: 'This access token is not valid.',
    });
  });

  it('an expired token of a disabled person is only not valid', async () => {
    const user = await createUser(db, org.id);
    const { headers } = await signIn(app, user);
    const { token, accessToken } = (
      await createToken(headers, { name: 'short', expiresInDays: 1 })
    ).json();
    await db
      .update(accessTokens)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(accessTokens.id, accessToken.id));
    await db.update(users).set({ status: 'disabled' }).where(eq(users.id, user.id));
    const response = await app.inject({
      method: 'GET',
      url: '/api/auth/sessions/current',
      headers: bearer(token),
    });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({
      code: 'UNAUTHORIZED',
      message: 'This access token is not valid.',
    });
  });

  it('stops working when the person is disabled', async () => {
    const user = await createUser(db, org.id);
    const { headers } = await signIn(app, user);
    const { token } = (await createToken(headers, { name: 'x' })).json();
    await db.update(users).set({ status: 'disabled' }).where(eq(users.id, user.id));
    const response = await app.inject({
      method: 'GET',
      url: '/api/auth/sessions/current',
      headers: bearer(token),
    });
    expect(response.statusCode).toBe(401);
  });

  it('cannot make further tokens with a token (403), but can list them', async () => {
    const user = await createUser(db, org.id);
    const { headers } = await signIn(app, user);
    const { token } = (await createToken(headers, { name: 'x' })).json();
    const before = await countRows(db, 'access_tokens', { column: 'user_id', value: user.id });
    const response = await createToken(bearer(token), { name: 'y' });
    expect(response.statusCode).toBe(403);
    expect(await countRows(db, 'access_tokens', { column: 'user_id', value: user.id })).toBe(
      before,
    );
    expect(
      (await app.inject({ method: 'GET', url: '/api/auth/tokens', headers: bearer(token) }))
        .statusCode,
    ).toBe(200);
  });

  it('signing out with a token leaves the token working (revoke it instead)', async () => {
    const user = await createUser(db, org.id);
    const { headers } = await signIn(app, user);
    const { token } = (await createToken(headers, { name: 'x' })).json();
    const out = await app.inject({
      method: 'DELETE',
      url: '/api/auth/sessions/current',
      headers: bearer(token),
    });
    expect(out.statusCode).toBe(204);
    expect(
      (
        await app.inject({
          method: 'GET',
          url: '/api/auth/sessions/current',
          headers: bearer(token),
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (await app.inject({ method: 'GET', url: '/api/auth/sessions/current', headers })).statusCode,
    ).toBe(200);
  });

  it.each([
    [{}, 'required'],
    [{ name: '' }, 'fewer than 1'],
    [{ name: 'x'.repeat(101) }, 'more than 100'],
    [{ name: 'x', expiresInDays: 0 }, '>= 1'],
    [{ name: 'x', expiresInDays: 3651 }, '<= 3650'],
    [{ name: 'x', expiresInDays: '30' }, 'integer'],
    [{ name: 'x', owner: 'someone' }, 'unknown property'],
  ])('refuses the body %j with 400, storing nothing', async (payload, message) => {
    const user = await createUser(db, org.id);
    const { headers } = await signIn(app, user);
    const response = await createToken(headers, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(message);
    expect(await countRows(db, 'access_tokens', { column: 'user_id', value: user.id })).toBe(0);
  });
});
