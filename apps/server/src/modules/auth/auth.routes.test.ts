import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { sessions, users } from '../../db/schema/index.ts';
import { hashToken } from './auth.service.ts';
import { createTestApp } from '../../../test/app.ts';
import {
  countRows,
  createOrganization,
  createUser,
  PASSWORD,
  signIn,
} from '../../../test/factories.ts';

const { app, db } = await createTestApp({
  LOGIN_MAX_PER_ACCOUNT_AND_ADDRESS: '3',
  LOGIN_MAX_PER_ADDRESS: '1000',
  LOGIN_MAX_PER_ACCOUNT: '6',
  LOGIN_ACCOUNT_BLOCK_SECONDS: '30',
});
const org = await createOrganization(db, { name: 'Acme' });

const login = (payload: Record<string, unknown>, ip = '10.0.0.1') =>
  app.inject({ method: 'POST', url: '/api/auth/sessions/', payload, remoteAddress: ip });

describe('GET /api/auth/methods', () => {
  it('lists e-mail and password sign-in', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/auth/methods' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toContainEqual({ type: 'email-password', name: 'E-mail and password' });
  });
});

describe('POST /api/auth/sessions/', () => {
  it('signs in with the right password, any e-mail case, and stores only a hash', async () => {
    const user = await createUser(db, org.id, { email: 'Ada@Example.test' });
    const response = await login({
      type: 'email-password',
      email: 'ada@EXAMPLE.test',
      password: PASSWORD,
    });
    expect(response.statusCode).toBe(201);
    const { token } = response.json<{ token: string }>();
    expect(Buffer.from(token, 'base64url').length).toBeGreaterThanOrEqual(16);
    const rows = await db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.tokenHash).not.toContain(token);
    expect(rows[0]?.tokenHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('gives a new token at every sign-in', async () => {
    const user = await createUser(db, org.id);
    const a = await signIn(app, user);
    const b = await signIn(app, user);
    expect(a.token).not.toBe(b.token);
  });

  it('answers a wrong password and an unknown e-mail the same way', async () => {
    const user = await createUser(db, org.id);
    const wrong = await login(
      { type: 'email-password', email: user.email, password: 'not it at all' },
      '10.0.1.1',
    );
    const unknown = await login(
      { type: 'email-password', email: 'nobody@example.test', password: 'whatever1' },
      '10.0.1.2',
    );
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json()).toMatchObject({
      code: 'INVALID_CREDENTIALS',
      message: expect.any(String),
      msg: expect.any(String),
    });
  });

  it('takes about as long for an unknown e-mail as for a wrong password', async () => {
    const user = await createUser(db, org.id);
    const time = async (email: string, ip: string) => {
      const start = performance.now();
      await login({ type: 'email-password', email, password: 'wrong password' }, ip);
      return performance.now() - start;
    };
    await time('warm@example.test', '10.0.2.0');
    const known = await time(user.email, '10.0.2.1');
    const unknown = await time('nobody-else@example.test', '10.0.2.2');
    // Both run one argon2id verification; without the dummy hash, unknown would be ~0 ms.
    expect(unknown).toBeGreaterThan(known * 0.4);
  });

  it('refuses a disabled person with the same answer', async () => {
    const user = await createUser(db, org.id, { status: 'disabled' });
    const response = await login(
      { type: 'email-password', email: user.email, password: PASSWORD },
      '10.0.3.1',
    );
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe('INVALID_CREDENTIALS');
  });

  it.each([
    [{ email: 'a@b.c', password: 'x' }, 'body.type is required'],
    [{ type: 'email-password', password: 'x' }, 'body.email is required'],
    [{ type: 'email-password', email: 'a@b.c', password: 5 }, 'body.password must be string'],
    [
      { type: 'email-password', email: 'a@b.c', password: 'x', admin: true },
      'body has an unknown property "admin"',
    ],
    [
      { type: 'email-password', email: 'a@b.c', password: 'x'.repeat(129) },
      'body.password must NOT have more than 128 characters',
    ],
  ])('refuses bad input %j with 400 naming the field', async (payload, message) => {
    const before = await countRows(db, 'sessions');
    const response = await login(payload, '10.0.4.1');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION_ERROR', message });
    expect(await countRows(db, 'sessions')).toBe(before);
  });

  it('refuses prototype-poisoning bodies', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/auth/sessions/',
      headers: { 'content-type': 'application/json' },
      payload:
        '{"type":"email-password","email":"a@b.c","password":"x","__proto__":{"admin":true}}',
    });
    expect(response.statusCode).toBe(400);
  });

  it('refuses an oversized body with 413 before hashing', async () => {
    const response = await login({
      type: 'email-password',
      email: 'a@b.c',
      password: 'x'.repeat(70_000),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json().code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('rate limits one account from one address with 429 and Retry-After', async () => {
    const user = await createUser(db, org.id);
    const bad = { type: 'email-password', email: user.email, password: 'wrong password' };
    for (let i = 0; i < 3; i += 1) expect((await login(bad, '10.0.5.1')).statusCode).toBe(401);
    const blocked = await login({ ...bad, password: PASSWORD }, '10.0.5.1');
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(blocked.json().code).toBe('RATE_LIMITED');
    // The real person, from another address, still gets in.
    const other = await login({ ...bad, password: PASSWORD }, '10.0.5.2');
    expect(other.statusCode).toBe(201);
  });

  it('counts attempts sent all at once: no more get through than the limit', async () => {
    const user = await createUser(db, org.id);
    const bad = { type: 'email-password', email: user.email, password: 'wrong password' };
    const answers = await Promise.all(Array.from({ length: 20 }, () => login(bad, '10.0.7.1')));
    const statuses = answers.map((a) => a.statusCode);
    // The limit for one e-mail from one address is 3 in this file.
    expect(statuses.filter((s) => s === 401)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(17);
  });

  it('blocks an account attacked from many addresses only briefly', async () => {
    const user = await createUser(db, org.id);
    const bad = { type: 'email-password', email: user.email, password: 'wrong password' };
    for (let i = 0; i < 6; i += 1) await login(bad, `10.0.6.${i}`);
    const blocked = await login({ ...bad, password: PASSWORD }, '10.0.6.200');
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeLessThanOrEqual(30);
    // Once the short block ends, the real person gets in.
    await db.execute(
      sql`UPDATE login_throttle SET blocked_until = now() - interval '1 second' WHERE key LIKE 'account:%'`,
    );
    expect((await login({ ...bad, password: PASSWORD }, '10.0.6.200')).statusCode).toBe(201);
  });
});

describe('GET /api/auth/sessions/current', () => {
  it('requires authentication', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/auth/sessions/current' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ code: 'UNAUTHORIZED', msg: expect.any(String) });
  });

  it.each([
    [undefined, 'Sign in to continue.'],
    ['Bearer short', 'This token is not valid.'],
    ['Bearer has spaces in it somewhere', 'This token is not valid.'],
    [
      'Bearer aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
      'This token is not valid, or its session has ended. Sign in again.',
    ],
    ['Bearer spat_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', 'This access token is not valid.'],
  ])('with the header %j answers 401 saying %j', async (authorization, message) => {
    const response = await app.inject({
      method: 'GET',
      url: '/api/auth/sessions/current',
      headers: authorization === undefined ? {} : { authorization },
    });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ code: 'UNAUTHORIZED', message, msg: message });
  });

  it('returns the person behind a live token', async () => {
    const user = await createUser(db, org.id, { name: 'Grace Hopper' });
    const { headers } = await signIn(app, user);
    const response = await app.inject({
      method: 'GET',
      url: '/api/auth/sessions/current',
      headers,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      user: { id: user.id, name: 'Grace Hopper', email: user.email, role: 'member' },
      organization: { id: org.id, name: 'Acme' },
    });
  });

  it('refuses an unknown token with 401 and a message', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/api/auth/sessions/current',
      headers: { authorization: `Bearer ${'x'.repeat(43)}` },
    });
    expect(response.statusCode).toBe(401);
    expect(response.json().msg).toMatch(/session/i);
  });

  it('ends the sessions of a disabled person', async () => {
    const user = await createUser(db, org.id);
    const { headers } = await signIn(app, user);
    await db.update(users).set({ status: 'disabled' }).where(eq(users.id, user.id));
    const response = await app.inject({
      method: 'GET',
      url: '/api/auth/sessions/current',
      headers,
    });
    expect(response.statusCode).toBe(401);
  });

  it('ends a session idle for too long, and one past its absolute expiry', async () => {
    const user = await createUser(db, org.id);
    const idle = await signIn(app, user);
    const old = await signIn(app, user);
    await db.execute(
      sql`UPDATE sessions SET last_seen_at = now() - interval '8 days' WHERE user_id = ${user.id} AND token_hash = ${hashToken(idle.token)}`,
    );
    await db.execute(
      sql`UPDATE sessions SET expires_at = now() - interval '1 second' WHERE user_id = ${user.id} AND token_hash = ${hashToken(old.token)}`,
    );
    for (const { headers } of [idle, old]) {
      const response = await app.inject({
        method: 'GET',
        url: '/api/auth/sessions/current',
        headers,
      });
      expect(response.statusCode).toBe(401);
    }
  });
});

describe('DELETE /api/auth/sessions/current', () => {
  it('requires authentication', async () => {
    const response = await app.inject({ method: 'DELETE', url: '/api/auth/sessions/current' });
    expect(response.statusCode).toBe(401);
  });

  it('signs out: the token is dead on every route', async () => {
    const user = await createUser(db, org.id);
    const { headers } = await signIn(app, user);
    const out = await app.inject({ method: 'DELETE', url: '/api/auth/sessions/current', headers });
    expect(out.statusCode).toBe(204);
    for (const url of ['/api/auth/sessions/current', '/api/consumer/menu']) {
      expect((await app.inject({ method: 'GET', url, headers })).statusCode).toBe(401);
    }
    const [row] = await db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(row?.revokedAt).toBeInstanceOf(Date);
  });
});
