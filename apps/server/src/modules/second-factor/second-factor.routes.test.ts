import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, recoveryCodes as recoveryCodesTable } from '../../db/schema/index.ts';
import { createTestApp } from '../../../test/app.ts';
import {
  countRows,
  createOrganization,
  createUser,
  PASSWORD,
  signIn,
} from '../../../test/factories.ts';
import { totpCode, totpStep } from './totp.ts';

const { app, db } = await createTestApp({ LOGIN_MAX_PER_ADDRESS: '1000' });
const org = await createOrganization(db);

let address = 0;
const nextIp = () => `10.9.${Math.floor(address / 250)}.${(address++ % 250) + 1}`;

const login = (payload: Record<string, unknown>, ip = nextIp()) =>
  app.inject({
    method: 'POST',
    url: '/api/auth/sessions',
    remoteAddress: ip,
    payload: { type: 'email-password', password: PASSWORD, ...payload },
  });

const post = (url: string, headers: Record<string, string>, payload?: Record<string, unknown>) =>
  app.inject({ method: 'POST', url: `/api/auth/second-factor${url}`, headers, payload });

/** A person with the second factor on; returns the secret and the step its code used. */
async function withSecondFactor() {
  const user = await createUser(db, org.id);
  const { headers, token } = await signIn(app, user);
  const setup = await post('/setup', headers);
  expect(setup.statusCode).toBe(200);
  const { secret } = setup.json<{ secret: string }>();
  const step = totpStep();
  const enable = await post('/enable', headers, { code: totpCode(secret, step) });
  expect(enable.statusCode).toBe(200);
  return {
    user,
    headers,
    token,
    secret,
    step,
    recoveryCodes: enable.json().recoveryCodes as string[],
  };
}

/** A well-formed code that is not valid anywhere near now. */
function wrongCode(secret: string): string {
  const near = new Set([-2, -1, 0, 1, 2].map((o) => totpCode(secret, totpStep() + o)));
  for (let i = 0; ; i += 1) {
    const code = String(i).padStart(6, '0');
    if (!near.has(code)) return code;
  }
}

const current = (headers: Record<string, string>) =>
  app.inject({ method: 'GET', url: '/api/auth/sessions/current', headers });

const sessionsOf = (userId: string) =>
  countRows(db, 'sessions', { column: 'user_id', value: userId });

describe('second factor (TOTP)', () => {
  it('requires authentication', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/auth/second-factor' })).statusCode).toBe(
      401,
    );
    for (const url of ['/setup', '/enable', '/disable']) {
      expect((await post(url, {}, { code: '123456' })).statusCode, url).toBe(401);
    }
  });

  it('sets up a secret, and turns on only after a right code, answering ten recovery codes', async () => {
    const user = await createUser(db, org.id);
    const { headers } = await signIn(app, user);
    const status = await app.inject({ method: 'GET', url: '/api/auth/second-factor', headers });
    expect(status.json()).toEqual({ available: true, enabled: false, recoveryCodesLeft: 0 });

    const setup = await post('/setup', headers);
    const { secret, otpauthUrl } = setup.json();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauthUrl).toBe(
      `otpauth://totp/Signpost:${encodeURIComponent(user.email)}?issuer=Signpost&secret=${secret}&algorithm=SHA1&digits=6&period=30`,
    );
    // Not on yet: the password alone still signs in.
    expect((await login({ email: user.email })).statusCode).toBe(201);

    const wrong = await post('/enable', headers, {
      code: '000000' === totpCode(secret, totpStep()) ? '111111' : '000000',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().code).toBe('SECOND_FACTOR_INVALID');
    expect(
      (await app.inject({ method: 'GET', url: '/api/auth/second-factor', headers })).json().enabled,
    ).toBe(false);

    const enable = await post('/enable', headers, { code: totpCode(secret, totpStep()) });
    expect(enable.statusCode).toBe(200);
    const codes = enable.json().recoveryCodes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
    expect(
      (await app.inject({ method: 'GET', url: '/api/auth/second-factor', headers })).json(),
    ).toEqual({
      available: true,
      enabled: true,
      recoveryCodesLeft: 10,
    });
    const stored = await db
      .select()
      .from(recoveryCodesTable)
      .where(eq(recoveryCodesTable.userId, user.id));
    expect(stored).toHaveLength(10);
    for (const row of stored) expect(row.codeHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(codes[0]);
    // A second setup cannot replace the enabled secret.
    expect((await post('/setup', headers)).statusCode).toBe(409);
  });

  it('turning it on ends every other session in the same change; this one and access tokens go on', async () => {
    const user = await createUser(db, org.id);
    const laptop = await signIn(app, user);
    const phone = await signIn(app, user);
    const made = await app.inject({
      method: 'POST',
      url: '/api/auth/tokens',
      headers: laptop.headers,
      payload: { name: 'script' },
    });
    const token = { authorization: `Bearer ${made.json().token}` };
    const { headers } = await signIn(app, user);
    const { secret } = (await post('/setup', headers)).json<{ secret: string }>();
    // Setting up changes nothing yet.
    expect((await current(phone.headers)).statusCode).toBe(200);
    const enable = await post('/enable', headers, { code: totpCode(secret, totpStep()) });
    expect(enable.statusCode).toBe(200);
    expect((await current(laptop.headers)).statusCode).toBe(401);
    expect((await current(phone.headers)).statusCode).toBe(401);
    expect((await current(headers)).statusCode).toBe(200);
    expect((await current(token)).statusCode).toBe(200);
    const [entry] = await db
      .select({ details: auditLog.details })
      .from(auditLog)
      .where(and(eq(auditLog.action, 'second-factor.enabled'), eq(auditLog.targetId, user.id)));
    expect(entry?.details).toEqual({ otherSessionsEnded: 2 });
  });

  it('a wrong code to turn it on ends no session', async () => {
    const user = await createUser(db, org.id);
    const other = await signIn(app, user);
    const { headers } = await signIn(app, user);
    const { secret } = (await post('/setup', headers)).json<{ secret: string }>();
    expect((await post('/enable', headers, { code: wrongCode(secret) })).statusCode).toBe(400);
    expect((await current(other.headers)).statusCode).toBe(200);
  });

  it('answers the secret and the recovery codes with Cache-Control: no-store', async () => {
    const user = await createUser(db, org.id);
    const { headers } = await signIn(app, user);
    const setup = await post('/setup', headers);
    expect(setup.statusCode).toBe(200);
    expect(setup.headers['cache-control']).toBe('no-store');
    const enable = await post('/enable', headers, {
      code: totpCode(setup.json().secret, totpStep()),
    });
    expect(enable.statusCode).toBe(200);
    expect(enable.headers['cache-control']).toBe('no-store');
  });

  it('makes the password alone not enough: 401 SECOND_FACTOR_REQUIRED and no session', async () => {
    const { user } = await withSecondFactor();
    const before = await sessionsOf(user.id);
    const response = await login({ email: user.email });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({
      code: 'SECOND_FACTOR_REQUIRED',
      message: expect.stringMatching(/6-digit code/),
    });
    expect(await sessionsOf(user.id)).toBe(before);
    // A wrong password says nothing about the second factor.
    const wrong = await login({ email: user.email, password: 'not the password', totp: '123456' });
    expect(wrong.json().code).toBe('INVALID_CREDENTIALS');
  });

  it('signs in with a current code once; the same code again is refused', async () => {
    const { user, secret, step } = await withSecondFactor();
    // The code that turned the factor on has been used already.
    const enabling = await login({ email: user.email, totp: totpCode(secret, step) });
    expect(enabling.statusCode).toBe(401);
    expect(enabling.json().code).toBe('SECOND_FACTOR_INVALID');

    const code = totpCode(secret, step + 1);
    const first = await login({ email: user.email, totp: code });
    expect(first.statusCode).toBe(201);
    const replay = await login({ email: user.email, totp: code });
    expect(replay.statusCode).toBe(401);
    expect(replay.json().code).toBe('SECOND_FACTOR_INVALID');
    const wrong = await login({ email: user.email, totp: '12345x' });
    expect(wrong.json().code).toBe('SECOND_FACTOR_INVALID');
    expect(await sessionsOf(user.id)).toBe(2); // the set-up session and the one sign-in
  });

  it('accepts each recovery code once', async () => {
    const { user, headers, recoveryCodes } = await withSecondFactor();
    const [code] = recoveryCodes;
    const first = await login({ email: user.email, recoveryCode: code!.toUpperCase() });
    expect(first.statusCode).toBe(201);
    const again = await login({ email: user.email, recoveryCode: code });
    expect(again.statusCode).toBe(401);
    expect(again.json().code).toBe('SECOND_FACTOR_INVALID');
    const status = await app.inject({ method: 'GET', url: '/api/auth/second-factor', headers });
    expect(status.json().recoveryCodesLeft).toBe(9);
  });

  it('throttles wrong codes like wrong passwords', async () => {
    const { user, secret, step } = await withSecondFactor();
    const ip = nextIp();
    for (let i = 0; i < 5; i += 1) {
      const response = await login({ email: user.email, totp: wrongCode(secret) }, ip);
      expect(response.statusCode).toBe(401);
    }
    const blocked = await login({ email: user.email, totp: totpCode(secret, step + 1) }, ip);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toMatch(/^[1-9]\d*$/);
  });

  it('turns off with the password or a current code, not with a wrong one', async () => {
    const a = await withSecondFactor();
    const wrong = await post('/disable', a.headers, { password: 'not the password' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().code).toBe('SECOND_FACTOR_INVALID');
    expect((await post('/disable', a.headers, {})).statusCode).toBe(400);
    expect((await post('/disable', a.headers, { password: PASSWORD })).statusCode).toBe(204);
    expect((await login({ email: a.user.email })).statusCode).toBe(201);
    expect(await countRows(db, 'recovery_codes', { column: 'user_id', value: a.user.id })).toBe(0);
    expect((await post('/disable', a.headers, { password: PASSWORD })).statusCode).toBe(409);

    const b = await withSecondFactor();
    const used = await post('/disable', b.headers, { code: totpCode(b.secret, b.step) });
    expect(used.statusCode).toBe(400);
    const ok = await post('/disable', b.headers, { code: totpCode(b.secret, b.step + 1) });
    expect(ok.statusCode).toBe(204);
  });

  it('is not offered to accounts without a password, nor changed with an access token', async () => {
    const sso = await createUser(db, org.id, { password: null });
    // Such a person has a session through single sign-on; here one is opened directly.
    const token = await app.services.auth.openSession(sso.id, '127.0.0.1', undefined);
    const headers = { authorization: `Bearer ${token}` };
    const status = await app.inject({ method: 'GET', url: '/api/auth/second-factor', headers });
    expect(status.json()).toMatchObject({ available: false, enabled: false });
    expect((await post('/setup', headers)).statusCode).toBe(403);

    const user = await createUser(db, org.id);
    const session = await signIn(app, user);
    const created = await app.inject({
      method: 'POST',
      url: '/api/auth/tokens',
      headers: session.headers,
      payload: { name: 'script' },
    });
    const pat = { authorization: `Bearer ${created.json().token}` };
    expect((await post('/setup', pat)).statusCode).toBe(403);
    expect(await countRows(db, 'second_factors', { column: 'user_id', value: user.id })).toBe(0);
  });

  it.each([
    [{ code: 123456 }, 'string'],
    [{ code: '1'.repeat(17) }, 'more than 16'],
    [{ code: '123456', extra: true }, 'unknown property'],
  ])('refuses the enable body %j with 400', async (payload, message) => {
    const user = await createUser(db, org.id);
    const { headers } = await signIn(app, user);
    await post('/setup', headers);
    const response = await post('/enable', headers, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(message);
  });
});
