// The sign-in rules against the auth service and its sessions on the test database: signing
// in and its throttle, what a token is worth, signing out and ending sessions, changing the
// password, confirming who one is (decision 0048), and an organization that signs in by
// single sign-on only (decision 0045).
import { and, eq, sql } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { auditLog, organizations, sessions, users } from '../../db/schema/index.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { AppError } from '../../lib/errors.ts';
import { createTestServices } from '../../../test/app.ts';
import { countRows, createOrganization, createUser, PASSWORD } from '../../../test/factories.ts';
import { codeAt, stepNow, wrongCodeFor } from '../../../test/support/second-factor.ts';
import { OWASP_ARGON2 } from '../../config.ts';
import { hashPassword } from '../../lib/passwords.ts';
import { hashToken } from './auth.service.ts';
import { refusal } from '../../../test/support/refusal.ts';

const { services, db } = await createTestServices({
  LOGIN_MAX_PER_ACCOUNT_AND_ADDRESS: '3',
  LOGIN_MAX_PER_ADDRESS: '1000',
  LOGIN_MAX_PER_ACCOUNT: '6',
  LOGIN_ACCOUNT_BLOCK_SECONDS: '30',
});
const { auth, accessTokens, secondFactor } = services;
/** The same services at the server's own password cost, for the one test of timing. */
const realCost = createTestServices({}, { argon2: OWASP_ARGON2 });
const org = await createOrganization(db, { name: 'Acme' });
const origin = { ip: '10.0.0.9', userAgent: 'Firefox' };

const FIREFOX_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:128.0) Gecko/20100101 Firefox/128.0';
const CHROME_ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

let address = 0;
/** A fresh address for each attempt, so that one test's attempts never count in another's. */
const nextIp = () => `10.1.${Math.floor(address / 250)}.${(address++ % 250) + 1}`;

const login = (email: string, password: string, ip = nextIp()) =>
  auth.login({ email, password, ip, userAgent: undefined });

/** The caller behind a token, which must be live. */
async function callerOf(token: string): Promise<AuthContext> {
  const me = await auth.authenticate(token);
  if (!me) throw new Error('the token does not authenticate');
  return me;
}

/** Signs a person in with their password: the token and the caller it authenticates as. */
async function signIn(user: { email: string }, password = PASSWORD, userAgent?: string) {
  const token = await auth.login({ email: user.email, password, ip: nextIp(), userAgent });
  return { token, me: await callerOf(token) };
}

/** An access token of the person of a fresh session, and the caller it authenticates as. */
async function accessTokenOf(session: { me: AuthContext }) {
  const { token } = await accessTokens.create(session.me, origin, { name: 'script' });
  return { token, me: await callerOf(token) };
}

/** The statuses of calls sent at once: the answer's, or the refusal's. */
const statusesOf = (calls: Promise<unknown>[]) =>
  Promise.all(
    calls.map((call) =>
      call.then(
        () => 200,
        (error: unknown) => (error instanceof AppError ? error.statusCode : 500),
      ),
    ),
  );

const entries = (action: string, targetId: string) =>
  db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.targetId, targetId)));

const sessionRows = (userId: string) =>
  db.select().from(sessions).where(eq(sessions.userId, userId));

/** Makes every session of the person look signed in `minutes` ago. */
async function age(userId: string, minutes = 6) {
  await db
    .update(sessions)
    .set({ reauthenticatedAt: sql`now() - make_interval(mins => ${minutes})` })
    .where(eq(sessions.userId, userId));
}

const WRONG = {
  statusCode: 401,
  code: 'INVALID_CREDENTIALS',
  message: 'The e-mail or password is not correct.',
};

// An organization that turned password sign-in off, and its person's session and access
// token, made while passwords still worked.
const ssoOnly = await createOrganization(db);
const ssoOnlyPerson = await createUser(db, ssoOnly.id);
const ssoOnlySession = await signIn(ssoOnlyPerson);
const ssoOnlyToken = await accessTokenOf(ssoOnlySession);
const passwords = (on: boolean) =>
  db.update(organizations).set({ passwordSignIn: on }).where(eq(organizations.id, ssoOnly.id));
await passwords(false);

describe('signing in with a password', () => {
  it('opens a session for the right password, in any case of the e-mail, storing only its hash', async () => {
    const user = await createUser(db, org.id, { email: 'Ada@Example.test' });
    const token = await auth.login({
      email: 'ada@EXAMPLE.test',
      password: PASSWORD,
      ip: '10.2.0.1',
      userAgent: FIREFOX_MAC,
    });
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    const [row, ...more] = await sessionRows(user.id);
    expect(more).toEqual([]);
    expect(row).toMatchObject({ tokenHash: hashToken(token), ip: '10.2.0.1' });
    expect(row?.tokenHash).not.toContain(token);
    expect(row?.userAgent).toBe(FIREFOX_MAC);
    const [person] = await db.select().from(users).where(eq(users.id, user.id));
    expect(person?.lastSignInAt).toBeInstanceOf(Date);
    expect(await entries('sign-in.succeeded', row!.id)).toMatchObject([
      {
        organizationId: org.id,
        actorId: user.id,
        ip: '10.2.0.1',
        details: { method: 'password', secondFactor: false },
      },
    ]);
  });

  it('gives a new token at every sign-in', async () => {
    const user = await createUser(db, org.id);
    expect((await signIn(user)).token).not.toBe((await signIn(user)).token);
  });

  it.each([
    ['a wrong password', 'active', 'not it at all', 'wrong password'],
    ['a disabled person', 'disabled', PASSWORD, 'account disabled'],
  ] as const)(
    'refuses %s as it refuses an unknown e-mail, auditing the attempt in their organization',
    async (_, status, password, reason) => {
      const user = await createUser(db, org.id, { status });
      expect(await refusal(login(user.email, password))).toEqual(WRONG);
      expect(await refusal(login('nobody@example.test', 'whatever1'))).toEqual(WRONG);
      expect(await countRows(db, 'sessions', { column: 'user_id', value: user.id })).toBe(0);
      expect(await entries('sign-in.failed', user.id)).toMatchObject([
        { organizationId: org.id, actorId: null, details: { method: 'password', reason } },
      ]);
    },
  );

  it('audits nothing for an unknown e-mail: it belongs to no organization', async () => {
    expect(await refusal(login('nobody-known@example.test', 'whatever1'))).toEqual(WRONG);
    const rows = await db
      .select()
      .from(auditLog)
      .where(eq(auditLog.actorEmail, 'nobody-known@example.test'));
    expect(rows).toEqual([]);
  });

  it('takes about as long for an unknown e-mail as for a wrong password', async () => {
    // At the server's own cost (OWASP's): the tests' small one would drown in the database's.
    const real = await realCost;
    const realOrg = await createOrganization(real.db);
    // One person per sample: a third wrong password for one address would be throttled.
    const people = [];
    for (let i = 0; i < 5; i += 1) {
      const person = await createUser(real.db, realOrg.id);
      await real.db
        .update(users)
        .set({ passwordHash: await hashPassword(PASSWORD, OWASP_ARGON2) })
        .where(eq(users.id, person.id));
      people.push(person);
    }
    const time = async (email: string) => {
      const start = performance.now();
      await real.services.auth
        .login({ email, password: 'wrong password', ip: nextIp(), userAgent: undefined })
        .catch(() => undefined);
      return performance.now() - start;
    };
    await time('warm@example.test');
    // Five of each, in turn, and the medians: one sample on a busy machine can be a pause.
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      known.push(await time(people[i]!.email));
      unknown.push(await time(`nobody-else-${i}@example.test`));
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[2]!;
    // Both run one argon2id verification; without the dummy hash, unknown would be ~0 ms.
    expect(median(unknown)).toBeGreaterThan(median(known) * 0.4);
  });

  it('refuses even the right password once one address guessed wrong 3 times: 429 with the wait, while another address gets in', async () => {
    const user = await createUser(db, org.id);
    for (let i = 0; i < 3; i += 1) {
      expect(await refusal(login(user.email, 'wrong password', '10.3.0.1'))).toEqual(WRONG);
    }
    const blocked = await login(user.email, PASSWORD, '10.3.0.1').catch((e: unknown) => e);
    expect(blocked).toMatchObject({ statusCode: 429, code: 'RATE_LIMITED' });
    const seconds = Number((blocked as AppError).headers['Retry-After']);
    expect(seconds).toBeGreaterThan(0);
    expect((blocked as AppError).message).toBe(
      `Too many sign-in attempts. Try again in ${seconds} seconds.`,
    );
    expect(await login(user.email, PASSWORD, '10.3.0.2')).toEqual(expect.any(String));
  });

  it('counts attempts sent at once: no more are checked than the limit', async () => {
    const user = await createUser(db, org.id);
    const statuses = await statusesOf(
      Array.from({ length: 20 }, () => login(user.email, 'wrong password', '10.3.1.1')),
    );
    expect(statuses.filter((s) => s === 401)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(17);
  });

  it('blocks an account guessed at from many addresses only briefly', async () => {
    const user = await createUser(db, org.id);
    for (let i = 0; i < 6; i += 1) await refusal(login(user.email, 'wrong password'));
    const blocked = await login(user.email, PASSWORD).catch((e: unknown) => e);
    expect(blocked).toMatchObject({ statusCode: 429, code: 'RATE_LIMITED' });
    expect(Number((blocked as AppError).headers['Retry-After'])).toBeLessThanOrEqual(30);
    // Once the short block ends, the real person gets in.
    await db.execute(
      sql`UPDATE login_throttle SET blocked_until = now() - interval '1 second' WHERE key = ${`account:${user.email.toLowerCase()}`}`,
    );
    expect(await login(user.email, PASSWORD)).toEqual(expect.any(String));
  });
});

describe('a session token', () => {
  it('authenticates as its person and organization, recently signed in', async () => {
    const user = await createUser(db, org.id, { name: 'Grace Hopper' });
    const { token, me } = await signIn(user);
    const [row] = await sessionRows(user.id);
    expect(me).toMatchObject({
      sessionId: row!.id,
      accessTokenId: null,
      userId: user.id,
      name: 'Grace Hopper',
      email: user.email,
      role: 'member',
      organizationId: org.id,
      organizationName: 'Acme',
      menuScopes: null,
      recentlyAuthenticated: true,
      expiresAt: row!.expiresAt,
    });
    // Thirty days from the sign-in.
    const days = (me.expiresAt!.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
    expect((await auth.authenticate(token, true))?.menuScopes).toContain(`p:${user.id}=`);
  });

  it('is no one when it never was a token, and says the session has ended', async () => {
    const token = 'x'.repeat(43);
    expect(await auth.authenticate(token)).toBeNull();
    expect(await auth.refusal(token)).toMatchObject({
      statusCode: 401,
      code: 'UNAUTHORIZED',
      message: 'This token is not valid, or its session has ended. Sign in again.',
    });
  });

  it('notes its use at most once a minute', async () => {
    const user = await createUser(db, org.id);
    const { token } = await signIn(user);
    const seen = async (ago: string) => {
      await db
        .update(sessions)
        .set({ lastSeenAt: sql`now() - ${ago}::interval` })
        .where(eq(sessions.userId, user.id));
      const [before] = await sessionRows(user.id);
      await callerOf(token);
      const [after] = await sessionRows(user.id);
      return after!.lastSeenAt.getTime() - before!.lastSeenAt.getTime();
    };
    expect(await seen('30 seconds')).toBe(0);
    expect(await seen('2 minutes')).toBeGreaterThan(100_000);
  });

  it('ends when its person is disabled', async () => {
    const user = await createUser(db, org.id);
    const { token } = await signIn(user);
    await db.update(users).set({ status: 'disabled' }).where(eq(users.id, user.id));
    expect(await auth.authenticate(token)).toBeNull();
  });

  it('ends when idle for too long, and past its absolute expiry', async () => {
    const user = await createUser(db, org.id);
    const idle = await signIn(user);
    const old = await signIn(user);
    await db
      .update(sessions)
      .set({ lastSeenAt: sql`now() - interval '8 days'` })
      .where(eq(sessions.id, idle.me.sessionId!));
    await db
      .update(sessions)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(sessions.id, old.me.sessionId!));
    expect(await auth.authenticate(idle.token)).toBeNull();
    expect(await auth.authenticate(old.token)).toBeNull();
  });

  it('keeps the provider and ID token of a session opened by single sign-on, and of no other', async () => {
    const user = await createUser(db, org.id, { password: null });
    const { sessionId } = await auth.startSession(db, user.id, '10.4.0.1', 'Firefox', {
      providerId: 'acme-idp',
      idToken: 'the-id-token',
    });
    expect(await auth.ssoSessionOf(sessionId)).toEqual({
      sessionId,
      providerId: 'acme-idp',
      idToken: 'the-id-token',
    });
    const other = await auth.openSession(user.id, '10.4.0.2', undefined);
    expect(await auth.ssoSessionOf((await callerOf(other)).sessionId!)).toBeNull();
  });
});

describe("signing out, and where you're signed in", () => {
  it('signs out: the session ends, audited', async () => {
    const user = await createUser(db, org.id);
    const { token, me } = await signIn(user);
    await auth.logout(me, origin);
    expect(await auth.authenticate(token)).toBeNull();
    const [row] = await sessionRows(user.id);
    expect(row?.revokedAt).toBeInstanceOf(Date);
    expect(await entries('sign-out', me.sessionId!)).toMatchObject([
      { actorId: user.id, targetType: 'session', ip: origin.ip, userAgent: origin.userAgent },
    ]);
  });

  it('signing out with an access token ends nothing: revoke it instead', async () => {
    const user = await createUser(db, org.id);
    const session = await signIn(user);
    const bearer = await accessTokenOf(session);
    await auth.logout(bearer.me, origin);
    expect(await auth.authenticate(bearer.token)).not.toBeNull();
    expect(await auth.authenticate(session.token)).not.toBeNull();
  });

  it('lists the live sessions with browser, device, dates, how each was opened and which is current', async () => {
    const user = await createUser(db, org.id);
    const mac = await signIn(user, PASSWORD, FIREFOX_MAC);
    const phone = await signIn(user, PASSWORD, CHROME_ANDROID);
    const ended = await signIn(user, PASSWORD, SAFARI_IPHONE);
    await auth.logout(ended.me, origin);
    await auth.startSession(db, user.id, '10.4.1.1', SAFARI_IPHONE, {
      providerId: 'acme-idp',
      idToken: 'id-token',
    });
    await signIn(await createUser(db, org.id));

    const { items } = await auth.listSessions(mac.me);
    expect(items).toHaveLength(3);
    expect(items).toContainEqual({
      id: mac.me.sessionId,
      current: true,
      browser: 'Firefox',
      device: 'macOS',
      userAgent: FIREFOX_MAC,
      method: 'password',
      createdAt: expect.any(String),
      lastActiveAt: expect.any(String),
      expiresAt: mac.me.expiresAt!.toISOString(),
    });
    expect(items).toContainEqual(
      expect.objectContaining({ id: phone.me.sessionId, current: false, browser: 'Chrome' }),
    );
    expect(items).toContainEqual(
      expect.objectContaining({ current: false, device: 'iPhone', method: 'sso' }),
    );
    expect(JSON.stringify(items)).not.toContain(mac.token);
  });

  it("ends one of one's own sessions, audited; someone else's, or one ended, is 404", async () => {
    const user = await createUser(db, org.id);
    const laptop = await signIn(user);
    const phone = await signIn(user);
    const stranger = await signIn(await createUser(db, org.id));
    const notFound = { statusCode: 404, code: 'NOT_FOUND', message: 'No such session.' };

    expect(await refusal(auth.endSession(stranger.me, phone.me.sessionId!, origin))).toEqual(
      notFound,
    );
    expect(await auth.authenticate(phone.token)).not.toBeNull();

    await auth.endSession(laptop.me, phone.me.sessionId!, origin);
    expect(await auth.authenticate(phone.token)).toBeNull();
    expect(await auth.authenticate(laptop.token)).not.toBeNull();
    expect(await entries('session.ended', phone.me.sessionId!)).toMatchObject([
      { actorId: user.id, targetType: 'session' },
    ]);
    expect(await refusal(auth.endSession(laptop.me, phone.me.sessionId!, origin))).toEqual(
      notFound,
    );
  });

  it("ends every other session at once, keeping this one and other people's", async () => {
    const user = await createUser(db, org.id);
    const here = await signIn(user);
    const others = [await signIn(user), await signIn(user)];
    const someoneElse = await signIn(await createUser(db, org.id));
    await auth.endOtherSessions(here.me, origin);
    for (const other of others) expect(await auth.authenticate(other.token)).toBeNull();
    expect(await auth.authenticate(here.token)).not.toBeNull();
    expect(await auth.authenticate(someoneElse.token)).not.toBeNull();
    expect((await auth.listSessions(here.me)).items).toHaveLength(1);
    expect(await entries('sessions.ended-everywhere', user.id)).toMatchObject([
      { details: { ended: 2, keptCurrent: true } },
    ]);
  });

  it('ends every session, keeping none, when an access token asks', async () => {
    const user = await createUser(db, org.id);
    const session = await signIn(user);
    const bearer = await accessTokenOf(session);
    await auth.endOtherSessions(bearer.me, origin);
    expect(await auth.authenticate(session.token)).toBeNull();
    expect(await auth.authenticate(bearer.token)).not.toBeNull();
    expect(await entries('sessions.ended-everywhere', user.id)).toMatchObject([
      { details: { ended: 1, keptCurrent: false } },
    ]);
  });
});

describe('changing the password', () => {
  const passwordOf = async (id: string) =>
    (await db.select().from(users).where(eq(users.id, id)))[0]?.passwordHash;

  it('changes it: the old one no longer signs in, the new one does; sessions and tokens go on', async () => {
    const user = await createUser(db, org.id);
    const other = await signIn(user);
    const bearer = await accessTokenOf(other);
    const { me, token } = await signIn(user);
    const before = await passwordOf(user.id);
    await auth.changePassword(
      me,
      { currentPassword: PASSWORD, newPassword: 'a brand new passphrase' },
      origin,
    );
    expect(await passwordOf(user.id)).not.toBe(before);
    expect(await refusal(login(user.email, PASSWORD))).toEqual(WRONG);
    expect(await login(user.email, 'a brand new passphrase')).toEqual(expect.any(String));
    for (const live of [token, other.token, bearer.token]) {
      expect(await auth.authenticate(live)).not.toBeNull();
    }
    expect(await entries('password.changed', user.id)).toMatchObject([
      { actorId: user.id, details: { otherSessionsEnded: 0, accessTokensRevoked: 0 } },
    ]);
  });

  it.each([
    [{ signOutOtherSessions: true }, 1, 2],
    [{ revokeAccessTokens: true }, 0, 2],
    [{ signOutOtherSessions: true, revokeAccessTokens: false }, 1, 0],
  ])(
    'with %j ends %i other session and revokes %i access tokens, in the audited change',
    async (options, ended, revoked) => {
      const user = await createUser(db, org.id);
      const other = await signIn(user);
      const bearers = [await accessTokenOf(other), await accessTokenOf(other)];
      const { me, token } = await signIn(user);
      await auth.changePassword(
        me,
        { currentPassword: PASSWORD, newPassword: 'another new passphrase', ...options },
        origin,
      );
      expect(await auth.authenticate(token)).not.toBeNull();
      expect(Boolean(await auth.authenticate(other.token))).toBe(ended === 0);
      for (const bearer of bearers) {
        expect(Boolean(await auth.authenticate(bearer.token))).toBe(revoked === 0);
      }
      expect(await entries('password.changed', user.id)).toMatchObject([
        { details: { otherSessionsEnded: ended, accessTokensRevoked: revoked } },
      ]);
    },
  );

  it('refuses a wrong current password with 400, never 401, changing nothing', async () => {
    const user = await createUser(db, org.id);
    const { me } = await signIn(user);
    const before = await passwordOf(user.id);
    expect(
      await refusal(
        auth.changePassword(
          me,
          { currentPassword: 'not the password', newPassword: 'whatever new one' },
          origin,
        ),
      ),
    ).toEqual({
      statusCode: 400,
      code: 'VALIDATION_ERROR',
      message: 'The current password is not correct.',
    });
    expect(await passwordOf(user.id)).toBe(before);
    expect(await entries('password.changed', user.id)).toEqual([]);
  });

  it('counts wrong current passwords sent at once: past the limit, 429', async () => {
    const user = await createUser(db, org.id);
    const { me } = await signIn(user);
    const statuses = await statusesOf(
      Array.from({ length: 10 }, () =>
        auth.changePassword(
          me,
          { currentPassword: 'wrong guess', newPassword: 'new passphrase' },
          origin,
        ),
      ),
    );
    expect(statuses.filter((s) => s === 400)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(7);
  });

  it('is refused to an access token (403) and to an account without a password (409)', async () => {
    const user = await createUser(db, org.id);
    const bearer = await accessTokenOf(await signIn(user));
    const body = { currentPassword: PASSWORD, newPassword: 'new passphrase' };
    expect(await refusal(auth.changePassword(bearer.me, body, origin))).toEqual({
      statusCode: 403,
      code: 'FORBIDDEN',
      message: 'Sign in to change your password; a token cannot.',
    });

    const noPassword = await createUser(db, org.id, { password: null });
    const sso = await callerOf(await auth.openSession(noPassword.id, '10.4.2.1', undefined));
    expect(await refusal(auth.changePassword(sso, body, origin))).toEqual({
      statusCode: 409,
      code: 'CONFLICT',
      message: 'This account signs in by single sign-on; it has no password here.',
    });
  });
});

describe('confirming who one is (decision 0048)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('counts a sign-in as recent for 5 minutes', async () => {
    const user = await createUser(db, org.id);
    const { token } = await signIn(user);
    await age(user.id, 4);
    expect((await callerOf(token)).recentlyAuthenticated).toBe(true);
    await age(user.id, 5);
    expect((await callerOf(token)).recentlyAuthenticated).toBe(false);
  });

  it('confirms with the password only the session that asks, audited', async () => {
    const user = await createUser(db, org.id);
    const one = await signIn(user);
    const two = await signIn(user);
    await age(user.id);
    await auth.reauthenticate(await callerOf(one.token), { password: PASSWORD }, origin);
    expect((await callerOf(one.token)).recentlyAuthenticated).toBe(true);
    expect((await callerOf(two.token)).recentlyAuthenticated).toBe(false);
    expect(await entries('session.reauthenticated', one.me.sessionId!)).toMatchObject([
      { actorId: user.id, details: { method: 'password' } },
    ]);
  });

  it('asks for the code when the second factor is on, and refuses a wrong one', async () => {
    // The codes of one 30-second step, whatever the clock does meanwhile.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime((stepNow() * 30 + 15) * 1000);
    const user = await createUser(db, org.id);
    const { token, me } = await signIn(user);
    const { secret } = await secondFactor.setup(me);
    await secondFactor.enable(me, codeAt(secret, stepNow(-1)), origin);
    await age(user.id);
    const stale = await callerOf(token);

    expect(await refusal(auth.reauthenticate(stale, { password: PASSWORD }, origin))).toEqual({
      statusCode: 400,
      code: 'SECOND_FACTOR_REQUIRED',
      message: 'Enter the 6-digit code from your authenticator app, or a recovery code.',
    });
    const wrong = { password: PASSWORD, totp: wrongCodeFor(secret) };
    expect(await refusal(auth.reauthenticate(stale, wrong, origin))).toEqual({
      statusCode: 400,
      code: 'SECOND_FACTOR_INVALID',
      message: 'That code is not right, or was already used. Try the next one.',
    });
    expect((await callerOf(token)).recentlyAuthenticated).toBe(false);

    const right = { password: PASSWORD, totp: codeAt(secret, stepNow()) };
    await auth.reauthenticate(stale, right, origin);
    expect((await callerOf(token)).recentlyAuthenticated).toBe(true);
  });

  it('refuses a wrong password with 400, never 401, and guesses past the limit with 429; the session goes on', async () => {
    const user = await createUser(db, org.id);
    const { token } = await signIn(user);
    await age(user.id);
    const me = await callerOf(token);
    for (let i = 0; i < 3; i += 1) {
      expect(await refusal(auth.reauthenticate(me, { password: 'not it' }, origin))).toEqual({
        statusCode: 400,
        code: 'INVALID_CREDENTIALS',
        message: 'The password is not correct.',
      });
    }
    const blocked = await refusal(auth.reauthenticate(me, { password: PASSWORD }, origin));
    expect(blocked).toMatchObject({ statusCode: 429, code: 'RATE_LIMITED' });
    expect(blocked.message).toMatch(/^Too many attempts\. Try again in \d+ seconds\.$/);
    expect((await callerOf(token)).recentlyAuthenticated).toBe(false);
    expect(await entries('sign-in.failed', user.id)).toMatchObject(
      Array.from({ length: 3 }, () => ({
        details: { reason: 're-authentication: wrong password' },
      })),
    );
  });

  it('is no way for an access token: 403', async () => {
    const user = await createUser(db, org.id);
    const bearer = await accessTokenOf(await signIn(user));
    expect(await refusal(auth.reauthenticate(bearer.me, { password: PASSWORD }, origin))).toEqual({
      statusCode: 403,
      code: 'FORBIDDEN',
      message: 'An access token cannot confirm who you are. Sign in to do this.',
    });
    expect(
      await refusal(auth.markReauthenticated(bearer.me, origin, { method: 'password' })),
    ).toEqual({
      statusCode: 403,
      code: 'FORBIDDEN',
      message: 'An access token cannot confirm who you are.',
    });
  });

  it('tells a person without a password to use their provider (409), and does not offer it', async () => {
    const user = await createUser(db, org.id, { password: null });
    const me = await callerOf(await auth.openSession(user.id, '10.4.3.1', undefined));
    expect(await refusal(auth.reauthenticate(me, { password: 'anything' }, origin))).toEqual({
      statusCode: 409,
      code: 'CONFLICT',
      message:
        'This account signs in by single sign-on; it has no password here. Sign in again with your provider.',
    });
    expect(await auth.canReauthenticateWithPassword(me)).toBe(false);
  });

  it('stamps no session that has ended: 401', async () => {
    const user = await createUser(db, org.id);
    const { me } = await signIn(user);
    await auth.logout(me, origin);
    expect(await refusal(auth.markReauthenticated(me, origin, { method: 'sso' }))).toEqual({
      statusCode: 401,
      code: 'UNAUTHORIZED',
      message: 'Your session has ended. Sign in again.',
    });
    expect(await entries('session.reauthenticated', me.sessionId!)).toEqual([]);
  });
});

describe('an organization that signs in by single sign-on only (decision 0045)', () => {
  it('refuses the right password with 403, opening no session, and audits why', async () => {
    const before = await countRows(db, 'sessions', { column: 'user_id', value: ssoOnlyPerson.id });
    expect(await refusal(login(ssoOnlyPerson.email, PASSWORD))).toEqual({
      statusCode: 403,
      code: 'PASSWORD_SIGN_IN_OFF',
      message: 'Your organization signs in with single sign-on only. Use its button to sign in.',
    });
    expect(await countRows(db, 'sessions', { column: 'user_id', value: ssoOnlyPerson.id })).toBe(
      before,
    );
    expect(await entries('sign-in.failed', ssoOnlyPerson.id)).toMatchObject([
      { organizationId: ssoOnly.id, details: { reason: 'password sign-in is off' } },
    ]);
  });

  it('answers a wrong password as for an unknown e-mail: no account is revealed', async () => {
    expect(await refusal(login(ssoOnlyPerson.email, 'not the password'))).toEqual(WRONG);
    expect(await refusal(login('nobody-here@example.test', 'not the password'))).toEqual(WRONG);
  });

  it('leaves other organizations, access tokens and sessions already open alone', async () => {
    expect(await login((await createUser(db, org.id)).email, PASSWORD)).toEqual(expect.any(String));
    expect(await auth.authenticate(ssoOnlyToken.token)).not.toBeNull();
    expect(await auth.authenticate(ssoOnlySession.token)).not.toBeNull();
  });

  it('refuses the password to confirm who one is too, and does not offer it', async () => {
    const me = await callerOf(ssoOnlySession.token);
    expect(await refusal(auth.reauthenticate(me, { password: PASSWORD }, origin))).toEqual({
      statusCode: 403,
      code: 'PASSWORD_SIGN_IN_OFF',
      message:
        'Your organization signs in with single sign-on only. Sign in again with its provider.',
    });
    expect(await auth.canReauthenticateWithPassword(me)).toBe(false);
  });

  it('lets the person in again once password sign-in is back on', async () => {
    await passwords(true);
    expect(await login(ssoOnlyPerson.email, PASSWORD)).toEqual(expect.any(String));
    await passwords(false);
  });
});
