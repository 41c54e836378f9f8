// The second factor (TOTP, decisions 0047 and 0048) against its service on the test
// database: setting it up, turning it on and off, who may, and what it asks of a sign-in.
// The clock stands still in the middle of a 30-second step, so that the codes of a test
// belong to the steps it names.
import { and, eq, sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { auditLog, recoveryCodes as recoveryCodesTable } from '../../db/schema/index.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import type { AppError } from '../../lib/errors.ts';
import type { LoginInput } from '../auth/auth.service.ts';
import { createTestServices } from '../../../test/app.ts';
import { countRows, createOrganization, createUser, PASSWORD } from '../../../test/factories.ts';
import { codeAt, stepNow, wrongCodeFor } from '../../../test/support/second-factor.ts';
import { refusal } from '../../../test/support/refusal.ts';

const { services, db } = await createTestServices({ LOGIN_MAX_PER_ADDRESS: '1000' });
const { auth, accessTokens, secondFactor } = services;
const org = await createOrganization(db);
const origin = { ip: '10.0.0.9', userAgent: 'Firefox' };

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime((stepNow() * 30 + 15) * 1000);
});
afterEach(() => {
  vi.useRealTimers();
});

let address = 0;
const nextIp = () => `10.9.${Math.floor(address / 250)}.${(address++ % 250) + 1}`;

/** Signs in with the password, and whatever else is given. */
const login = (input: Partial<LoginInput> & { email: string }, ip = nextIp()) =>
  auth.login({ password: PASSWORD, ip, userAgent: undefined, ...input });

/** The caller behind a token, which must be live. */
async function callerOf(token: string): Promise<AuthContext> {
  const me = await auth.authenticate(token);
  if (!me) throw new Error('the token does not authenticate');
  return me;
}

/** A new person (or this one), signed in a moment ago. */
async function signedIn(user?: { email: string }) {
  const person = user ?? (await createUser(db, org.id));
  const token = await login({ email: person.email });
  return { token, me: await callerOf(token) };
}

/** A person who turned the factor on with the code of the step before now. */
async function withSecondFactor() {
  const user = await createUser(db, org.id);
  const { token, me } = await signedIn(user);
  const { secret } = await secondFactor.setup(me);
  const { recoveryCodes } = await secondFactor.enable(me, codeAt(secret, stepNow(-1)), origin);
  return { user, token, me, secret, recoveryCodes };
}

const entries = (action: string, targetId: string) =>
  db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.targetId, targetId)));

const sessionsOf = (userId: string) =>
  countRows(db, 'sessions', { column: 'user_id', value: userId });

const INVALID = {
  statusCode: 400,
  code: 'SECOND_FACTOR_INVALID',
  message: 'That code is not right, or was already used. Try the next one.',
};
const SIGN_IN_INVALID = { ...INVALID, statusCode: 401 };

describe('setting the second factor up and turning it on', () => {
  it('is offered, off, to a person with a password', async () => {
    const { me } = await signedIn();
    expect(await secondFactor.status(me.userId)).toEqual({
      available: true,
      enabled: false,
      recoveryCodesLeft: 0,
    });
  });

  it('sets up a secret to scan, which changes nothing until a code confirms it', async () => {
    const user = await createUser(db, org.id);
    const { me } = await signedIn(user);
    const { secret, otpauthUrl } = await secondFactor.setup(me);
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauthUrl).toBe(
      `otpauth://totp/Signpost:${encodeURIComponent(user.email)}?issuer=Signpost&secret=${secret}&algorithm=SHA1&digits=6&period=30`,
    );
    expect(await login({ email: user.email })).toEqual(expect.any(String));
    // Setting up again replaces a secret not yet confirmed.
    const again = await secondFactor.setup(me);
    expect(again.secret).not.toBe(secret);
    expect(await countRows(db, 'second_factors', { column: 'user_id', value: user.id })).toBe(1);
    expect(await refusal(secondFactor.enable(me, codeAt(secret, stepNow()), origin))).toEqual(
      INVALID,
    );
  });

  it('turns on only with a right code, answering ten recovery codes kept as hashes, audited', async () => {
    const user = await createUser(db, org.id);
    const { me } = await signedIn(user);
    const { secret } = await secondFactor.setup(me);
    expect(await refusal(secondFactor.enable(me, wrongCodeFor(secret), origin))).toEqual(INVALID);
    expect((await secondFactor.status(user.id)).enabled).toBe(false);

    const { recoveryCodes } = await secondFactor.enable(me, codeAt(secret, stepNow()), origin);
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
    expect(await secondFactor.status(user.id)).toEqual({
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
    expect(JSON.stringify(stored)).not.toContain(recoveryCodes[0]);
    expect(await entries('second-factor.enabled', user.id)).toMatchObject([
      {
        actorId: user.id,
        targetType: 'person',
        ip: origin.ip,
        before: { secondFactor: false },
        after: { secondFactor: true },
        details: { otherSessionsEnded: 0 },
      },
    ]);
  });

  it('cannot be turned on before it is set up, nor set up or turned on again once on: 409', async () => {
    const { me } = await signedIn();
    expect(await refusal(secondFactor.enable(me, '123456', origin))).toEqual({
      statusCode: 409,
      code: 'CONFLICT',
      message: 'Set up the second factor first.',
    });
    const on = await withSecondFactor();
    expect(await refusal(secondFactor.setup(on.me))).toEqual({
      statusCode: 409,
      code: 'CONFLICT',
      message: 'The second factor is already on. Turn it off first to set up a new one.',
    });
    expect(await refusal(secondFactor.enable(on.me, codeAt(on.secret, stepNow()), origin))).toEqual(
      { statusCode: 409, code: 'CONFLICT', message: 'The second factor is already on.' },
    );
  });

  it('turning it on ends every other session in the same change; this one and access tokens go on', async () => {
    const user = await createUser(db, org.id);
    const laptop = await signedIn(user);
    const phone = await signedIn(user);
    const bearer = await accessTokens.create(laptop.me, origin, { name: 'script' });
    const { token, me } = await signedIn(user);
    const { secret } = await secondFactor.setup(me);
    // Setting up changes nothing yet.
    expect(await auth.authenticate(phone.token)).not.toBeNull();
    await secondFactor.enable(me, codeAt(secret, stepNow()), origin);
    expect(await auth.authenticate(laptop.token)).toBeNull();
    expect(await auth.authenticate(phone.token)).toBeNull();
    expect(await auth.authenticate(token)).not.toBeNull();
    expect(await auth.authenticate(bearer.token)).not.toBeNull();
    expect(await entries('second-factor.enabled', user.id)).toMatchObject([
      { details: { otherSessionsEnded: 2 } },
    ]);
  });

  it('a wrong code to turn it on ends no session', async () => {
    const user = await createUser(db, org.id);
    const other = await signedIn(user);
    const { me } = await signedIn(user);
    const { secret } = await secondFactor.setup(me);
    expect(await refusal(secondFactor.enable(me, wrongCodeFor(secret), origin))).toEqual(INVALID);
    expect(await auth.authenticate(other.token)).not.toBeNull();
  });
});

describe('signing in with the second factor on', () => {
  it('makes the password alone not enough: 401 SECOND_FACTOR_REQUIRED, and no session', async () => {
    const { user } = await withSecondFactor();
    const before = await sessionsOf(user.id);
    expect(await refusal(login({ email: user.email }))).toEqual({
      statusCode: 401,
      code: 'SECOND_FACTOR_REQUIRED',
      message: 'Enter the 6-digit code from your authenticator app, or a recovery code.',
    });
    expect(await sessionsOf(user.id)).toBe(before);
    // A wrong password says nothing of the second factor.
    expect(
      await refusal(login({ email: user.email, password: 'not the password', totp: '123456' })),
    ).toMatchObject({ statusCode: 401, code: 'INVALID_CREDENTIALS' });
  });

  it('signs in with a current code once; that code again, or the one that turned it on, is refused', async () => {
    const { user, secret } = await withSecondFactor();
    const enabling = codeAt(secret, stepNow(-1));
    expect(await refusal(login({ email: user.email, totp: enabling }))).toEqual(SIGN_IN_INVALID);

    const code = codeAt(secret, stepNow());
    const token = await login({ email: user.email, totp: code });
    expect(await auth.authenticate(token)).not.toBeNull();
    expect(await refusal(login({ email: user.email, totp: code }))).toEqual(SIGN_IN_INVALID);
    expect(await refusal(login({ email: user.email, totp: '12345x' }))).toEqual(SIGN_IN_INVALID);
    // The session that turned it on, and the one sign-in.
    expect(await sessionsOf(user.id)).toBe(2);
    const failed = await entries('sign-in.failed', user.id);
    expect(failed.map((entry) => entry.details)).toEqual(
      Array.from({ length: 3 }, () => ({
        method: 'password',
        reason: 'wrong second-factor code',
      })),
    );
  });

  it('accepts each recovery code once, in any case', async () => {
    const { user, recoveryCodes } = await withSecondFactor();
    const [code] = recoveryCodes;
    const token = await login({ email: user.email, recoveryCode: code!.toUpperCase() });
    expect(await auth.authenticate(token)).not.toBeNull();
    expect(await refusal(login({ email: user.email, recoveryCode: code }))).toEqual(
      SIGN_IN_INVALID,
    );
    expect((await secondFactor.status(user.id)).recoveryCodesLeft).toBe(9);
  });

  it('counts wrong codes like wrong passwords: past the limit, 429 with the wait', async () => {
    const { user, secret } = await withSecondFactor();
    const ip = nextIp();
    for (let i = 0; i < 5; i += 1) {
      expect(await refusal(login({ email: user.email, totp: wrongCodeFor(secret) }, ip))).toEqual(
        SIGN_IN_INVALID,
      );
    }
    const blocked = await login({ email: user.email, totp: codeAt(secret, stepNow()) }, ip).catch(
      (error: unknown) => error,
    );
    expect(blocked).toMatchObject({ statusCode: 429, code: 'RATE_LIMITED' });
    expect((blocked as AppError).headers['Retry-After']).toMatch(/^[1-9]\d*$/);
  });
});

describe('turning the second factor off', () => {
  it('takes the password, removing the secret and the recovery codes, audited', async () => {
    const { user, me } = await withSecondFactor();
    expect(
      await refusal(secondFactor.disable(me, { password: 'not the password' }, origin)),
    ).toEqual(INVALID);
    expect(await refusal(secondFactor.disable(me, {}, origin))).toEqual({
      ...INVALID,
      message: 'Enter a current code or your password to turn the second factor off.',
    });
    await secondFactor.disable(me, { password: PASSWORD }, origin);
    expect(await countRows(db, 'second_factors', { column: 'user_id', value: user.id })).toBe(0);
    expect(await countRows(db, 'recovery_codes', { column: 'user_id', value: user.id })).toBe(0);
    expect(await entries('second-factor.disabled', user.id)).toMatchObject([
      {
        actorId: user.id,
        before: { secondFactor: true },
        after: { secondFactor: false },
        details: { provedWith: 'password' },
      },
    ]);
    expect(await login({ email: user.email })).toEqual(expect.any(String));
    expect(await refusal(secondFactor.disable(me, { password: PASSWORD }, origin))).toEqual({
      statusCode: 409,
      code: 'CONFLICT',
      message: 'The second factor is not on.',
    });
  });

  it('takes a current code, never one already used', async () => {
    const { user, me, secret } = await withSecondFactor();
    const used = { code: codeAt(secret, stepNow(-1)) };
    expect(await refusal(secondFactor.disable(me, used, origin))).toEqual(INVALID);
    await secondFactor.disable(me, { code: codeAt(secret, stepNow()) }, origin);
    expect((await secondFactor.status(user.id)).enabled).toBe(false);
    expect(await entries('second-factor.disabled', user.id)).toMatchObject([
      { details: { provedWith: 'code' } },
    ]);
  });

  it('counts wrong proofs like sign-in: past the limit, 429 even for the password', async () => {
    const { user, me } = await withSecondFactor();
    for (let i = 0; i < 5; i += 1) {
      expect(await refusal(secondFactor.disable(me, { password: 'guess' }, origin))).toEqual(
        INVALID,
      );
    }
    expect(await refusal(secondFactor.disable(me, { password: PASSWORD }, origin))).toMatchObject({
      statusCode: 429,
      code: 'RATE_LIMITED',
    });
    expect((await secondFactor.status(user.id)).enabled).toBe(true);
  });
});

describe('who may change the second factor', () => {
  it('is not offered to an account without a password: its provider keeps it (403)', async () => {
    const user = await createUser(db, org.id, { password: null });
    const me = await callerOf(await auth.openSession(user.id, '10.9.9.1', undefined));
    expect(await secondFactor.status(user.id)).toEqual({
      available: false,
      enabled: false,
      recoveryCodesLeft: 0,
    });
    expect(await refusal(secondFactor.setup(me))).toEqual({
      statusCode: 403,
      code: 'FORBIDDEN',
      message:
        'Your account signs in by single sign-on; its second factor is set at your provider.',
    });
  });

  it.each([
    ['set up the second factor', (me: AuthContext) => secondFactor.setup(me)],
    ['turn the second factor on', (me: AuthContext) => secondFactor.enable(me, '123456', origin)],
    [
      'turn the second factor off',
      (me: AuthContext) => secondFactor.disable(me, { password: PASSWORD }, origin),
    ],
  ])(
    'asks an access token to sign in, and an old session to confirm it, to %s',
    async (doing, change) => {
      const { user, token, me } = await withSecondFactor();
      const bearer = await callerOf(
        (await accessTokens.create(me, origin, { name: 'script' })).token,
      );
      expect(await refusal(change(bearer))).toEqual({
        statusCode: 403,
        code: 'FORBIDDEN',
        message: `Sign in to ${doing}; an access token cannot.`,
      });
      await db.execute(
        sql`UPDATE sessions SET reauthenticated_at = now() - interval '6 minutes' WHERE user_id = ${user.id}`,
      );
      expect(await refusal(change(await callerOf(token)))).toEqual({
        statusCode: 403,
        code: 'REAUTHENTICATION_REQUIRED',
        message:
          `To ${doing}, confirm it's you: enter your password, or sign in again with your ` +
          'provider. This is asked when you last did so more than 5 minutes ago.',
      });
      expect(await secondFactor.status(user.id)).toMatchObject({
        enabled: true,
        recoveryCodesLeft: 10,
      });
    },
  );

  it('lets an old session change it once it confirmed who it is', async () => {
    const user = await createUser(db, org.id);
    const { token } = await signedIn(user);
    await db.execute(
      sql`UPDATE sessions SET reauthenticated_at = now() - interval '6 minutes' WHERE user_id = ${user.id}`,
    );
    const stale = await callerOf(token);
    expect(await refusal(secondFactor.setup(stale))).toMatchObject({
      code: 'REAUTHENTICATION_REQUIRED',
    });
    expect(await countRows(db, 'second_factors', { column: 'user_id', value: user.id })).toBe(0);
    await auth.reauthenticate(stale, { password: PASSWORD }, origin);
    expect((await secondFactor.setup(await callerOf(token))).secret).toMatch(/^[A-Z2-7]{32}$/);
  });
});
