// Personal access tokens over HTTP: the statuses, the answers' shapes and headers, the token
// as a bearer. What making, revoking and expiry do, and who may, is
// access-tokens.service.test.ts.
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { accessTokens } from '../../db/schema/index.ts';
import { createTestApp } from '../../../test/app.ts';
import { countRows, createOrganization, createUser, signIn } from '../../../test/factories.ts';

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

  it("answers the new token with 201, in the answer's shape, and Cache-Control: no-store", async () => {
    const user = await createUser(db, org.id);
    const { headers } = await signIn(app, user);
    const response = await createToken(headers, { name: 'not for caches' });
    expect(response.statusCode).toBe(201);
    expect(response.headers['cache-control']).toBe('no-store');
    const { token, accessToken } = response.json();
    expect(token).toMatch(/^spat_/);
    expect(Object.keys(accessToken).sort()).toEqual(
      ['createdAt', 'expiresAt', 'hint', 'id', 'lastUsedAt', 'name'].sort(),
    );
  });

  it("lists tokens with 200, each in the answer's shape, never the token", async () => {
    const user = await createUser(db, org.id);
    const { headers } = await signIn(app, user);
    const made = (await createToken(headers, { name: 'second', expiresInDays: 30 })).json();
    const list = await app.inject({ method: 'GET', url: '/api/auth/tokens', headers });
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(made.token);
    expect(Object.keys(list.json().items[0]).sort()).toEqual(
      ['createdAt', 'expiresAt', 'hint', 'id', 'lastUsedAt', 'name'].sort(),
    );
  });

  it('works as a bearer: token sign-in says so, and the API answers', async () => {
    const user = await createUser(db, org.id, { name: 'Token User' });
    const { headers } = await signIn(app, user);
    const { token } = (await createToken(headers, { name: 'script' })).json();
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
  });

  it('revokes with 204: the token gets 401 on every route, and revoking it again 404', async () => {
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
    }
    const again = await app.inject({
      method: 'DELETE',
      url: `/api/auth/tokens/${accessToken.id}`,
      headers,
    });
    expect(again.statusCode).toBe(404);
  });

  it('answers an expired token with 401 ACCESS_TOKEN_EXPIRED in the error body', async () => {
    const user = await createUser(db, org.id);
    const { headers } = await signIn(app, user);
    const { token, accessToken } = (
      await createToken(headers, { name: 'short', expiresInDays: 1 })
    ).json();
    await db
      .update(accessTokens)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(accessTokens.id, accessToken.id));
    const response = await app.inject({
      method: 'GET',
      url: '/api/consumer/menu',
      headers: bearer(token),
    });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({
      code: 'ACCESS_TOKEN_EXPIRED',
      message: 'This access token has expired. Make a new one in your settings.',
      msg: 'This access token has expired. Make a new one in your settings.',
    });
  });

  it('answers a token that makes a token with 403', async () => {
    const user = await createUser(db, org.id);
    const { headers } = await signIn(app, user);
    const { token } = (await createToken(headers, { name: 'x' })).json();
    const response = await createToken(bearer(token), { name: 'y' });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: 'FORBIDDEN' });
  });

  it.each([
    [{}, 'Enter the name.'],
    [{ name: '' }, 'Enter the name.'],
    [{ name: 'x'.repeat(101) }, 'at most 100 characters'],
    [{ name: 'x', expiresInDays: 0 }, 'cannot be less than 1'],
    [{ name: 'x', expiresInDays: 3651 }, 'cannot be more than 3650'],
    [{ name: 'x', expiresInDays: '30' }, 'a whole number'],
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
