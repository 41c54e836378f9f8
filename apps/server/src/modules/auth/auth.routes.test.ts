// The sign-in calls over HTTP: their statuses, bodies and headers. The rules behind them
// (who gets in, the throttle, what a token is worth) are auth.service.test.ts.
import { describe, expect, it } from 'vitest';
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
  it('signs in with 201 and the token', async () => {
    const user = await createUser(db, org.id);
    const response = await login({ type: 'email-password', email: user.email, password: PASSWORD });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({ token: expect.any(String) });
  });

  it('answers a wrong password with 401 in the error body of every refusal', async () => {
    const user = await createUser(db, org.id);
    const wrong = await login(
      { type: 'email-password', email: user.email, password: 'not it at all' },
      '10.0.1.1',
    );
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({
      code: 'INVALID_CREDENTIALS',
      message: expect.any(String),
      msg: expect.any(String),
    });
  });

  it.each([
    [{ email: 'a@b.c', password: 'x' }, 'Enter the type.'],
    [{ type: 'email-password', password: 'x' }, 'Enter the e-mail address.'],
    [{ type: 'email-password', email: 'a@b.c', password: 5 }, 'The password needs to be text.'],
    [
      { type: 'email-password', email: 'a@b.c', password: 'x', admin: true },
      'The request has an unknown property "admin": leave it out.',
    ],
    [
      { type: 'email-password', email: 'a@b.c', password: 'x'.repeat(129) },
      'The password can have at most 128 characters: shorten it.',
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
  });
});
