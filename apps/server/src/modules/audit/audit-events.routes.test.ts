// Every security event of signing in, sessions, access tokens, the second factor and
// passwords is in the audit log with who, when, from where, what and the values it changed
// (decision 0045); a refused action leaves no entry where nothing happened. The entries of
// shares are tested against their service (shares/shares.service.test.ts).
import { asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/app.ts';
import { createOrganization, createUser, PASSWORD, signIn } from '../../../test/factories.ts';
import { auditLog, users } from '../../db/schema/index.ts';
import { totpCode, totpStep } from '../second-factor/totp.ts';

const { app, db } = await createTestApp();
const org = await createOrganization(db);

type Headers = Record<string, string>;
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0';

const send = (method: 'POST' | 'DELETE', url: string, headers: Headers, payload?: object) =>
  app.inject({
    method,
    url,
    headers: { ...headers, 'user-agent': BROWSER },
    remoteAddress: '10.9.8.7',
    ...(payload ? { payload } : {}),
  });

const login = (payload: Record<string, unknown>, ip = '10.9.8.7') =>
  app.inject({
    method: 'POST',
    url: '/api/auth/sessions',
    headers: { 'user-agent': BROWSER },
    remoteAddress: ip,
    payload: { type: 'email-password', password: PASSWORD, ...payload },
  });

/** The entries of one action about one person (as actor or target), oldest first. */
async function entries(action: string, personId: string) {
  const rows = await db
    .select()
    .from(auditLog)
    .where(eq(auditLog.action, action))
    .orderBy(asc(auditLog.occurredAt));
  return rows.filter((row) => row.actorId === personId || row.targetId === personId);
}

const byPerson = (user: { id: string; name: string; email: string }) => ({
  organizationId: org.id,
  actorId: user.id,
  actorName: user.name,
  actorEmail: user.email,
  ip: '10.9.8.7',
  userAgent: BROWSER,
});

describe('signing in and out', () => {
  it('records a password sign-in with the session, and notes it on the person', async () => {
    const user = await createUser(db, org.id);
    const before = Date.now();
    const response = await login({ email: user.email.toUpperCase() });
    expect(response.statusCode).toBe(201);
    const [entry] = await entries('sign-in.succeeded', user.id);
    expect(entry).toMatchObject({
      ...byPerson(user),
      targetType: 'session',
      targetLabel: user.email,
      details: { method: 'password', secondFactor: false },
    });
    expect(entry!.occurredAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
    const [row] = await db.select().from(users).where(eq(users.id, user.id));
    expect(row!.lastSignInAt!.getTime()).toBeGreaterThanOrEqual(before - 1000);
  });

  it('records a wrong password of a known person in their organization, naming them as target', async () => {
    const user = await createUser(db, org.id);
    expect((await login({ email: user.email, password: 'not the password' })).statusCode).toBe(401);
    expect(await entries('sign-in.failed', user.id)).toMatchObject([
      {
        organizationId: org.id,
        actorId: null,
        actorEmail: user.email,
        targetType: 'person',
        targetId: user.id,
        ip: '10.9.8.7',
        details: { method: 'password', reason: 'wrong password' },
      },
    ]);
    expect(await entries('sign-in.succeeded', user.id)).toEqual([]);
    const [row] = await db.select().from(users).where(eq(users.id, user.id));
    expect(row!.lastSignInAt).toBeNull();
  });

  it('records a disabled person who knows their password', async () => {
    const user = await createUser(db, org.id, { status: 'disabled' });
    expect((await login({ email: user.email })).statusCode).toBe(401);
    expect(await entries('sign-in.failed', user.id)).toMatchObject([
      { details: { reason: 'account disabled' } },
    ]);
  });

  it('records nothing for an unknown e-mail, nor for attempts the throttle blocks', async () => {
    const count = async () => (await db.select().from(auditLog)).length;
    const before = await count();
    expect((await login({ email: 'nobody@example.test' }, '10.66.0.1')).statusCode).toBe(401);
    expect(await count()).toBe(before);

    // A flood against one account: past the throttle, answers are 429 and no entry is added.
    const user = await createUser(db, org.id);
    const answers = [];
    for (let i = 0; i < 12; i += 1) {
      answers.push((await login({ email: user.email, password: 'wrong' }, '10.66.0.2')).statusCode);
    }
    expect(answers).toContain(429);
    const failed = await entries('sign-in.failed', user.id);
    expect(failed.length).toBe(answers.filter((s) => s === 401).length);
    expect(failed.length).toBeLessThan(12);
  });

  it('records a wrong second-factor code as a failed sign-in, and the right one as a success', async () => {
    const user = await createUser(db, org.id);
    const { headers } = await signIn(app, user);
    const setup = await send('POST', '/api/auth/second-factor/setup', headers);
    const { secret } = setup.json<{ secret: string }>();
    const step = totpStep();
    const enabled = await send('POST', '/api/auth/second-factor/enable', headers, {
      code: totpCode(secret, step),
    });
    expect(enabled.statusCode).toBe(200);
    expect(await entries('second-factor.enabled', user.id)).toMatchObject([
      {
        ...byPerson(user),
        targetId: user.id,
        before: { secondFactor: false },
        after: { secondFactor: true },
      },
    ]);

    const right = totpCode(secret, step + 1);
    const wrong = right === '000000' ? '111111' : '000000';
    // The password alone is no failure: only the code is missing.
    expect((await login({ email: user.email })).statusCode).toBe(401);
    expect((await login({ email: user.email, totp: wrong })).statusCode).toBe(401);
    expect(await entries('sign-in.failed', user.id)).toMatchObject([
      { details: { method: 'password', reason: 'wrong second-factor code' } },
    ]);
    expect((await login({ email: user.email, totp: right })).statusCode).toBe(201);
    const succeeded = await entries('sign-in.succeeded', user.id);
    expect(succeeded.at(-1)).toMatchObject({ details: { secondFactor: true } });

    const off = await send('POST', '/api/auth/second-factor/disable', headers, {
      password: PASSWORD,
    });
    expect(off.statusCode).toBe(204);
    expect(await entries('second-factor.disabled', user.id)).toMatchObject([
      {
        ...byPerson(user),
        before: { secondFactor: true },
        after: { secondFactor: false },
        details: { provedWith: 'password' },
      },
    ]);
  });

  it('records sign-out, one session ended and every other session ended', async () => {
    const user = await createUser(db, org.id);
    const first = await signIn(app, user);
    await signIn(app, user);
    await signIn(app, user);
    const sessions = await app.inject({
      method: 'GET',
      url: '/api/auth/sessions',
      headers: first.headers,
    });
    const other = sessions.json().items.find((s: { current: boolean }) => !s.current);

    expect((await send('DELETE', `/api/auth/sessions/${other.id}`, first.headers)).statusCode).toBe(
      204,
    );
    expect(await entries('session.ended', user.id)).toMatchObject([
      { ...byPerson(user), targetType: 'session', targetId: other.id },
    ]);
    // An unknown session is 404 and no entry.
    expect(
      (await send('DELETE', `/api/auth/sessions/${'x'.repeat(21)}`, first.headers)).statusCode,
    ).toBe(404);
    expect(await entries('session.ended', user.id)).toHaveLength(1);

    expect((await send('DELETE', '/api/auth/sessions/others', first.headers)).statusCode).toBe(204);
    expect(await entries('sessions.ended-everywhere', user.id)).toMatchObject([
      { ...byPerson(user), details: { ended: 1, keptCurrent: true } },
    ]);

    expect((await send('POST', '/api/auth/logout', first.headers)).statusCode).toBe(200);
    expect(await entries('sign-out', user.id)).toMatchObject([
      { ...byPerson(user), targetType: 'session' },
    ]);
  });

  it('records a password change, with how many other sessions it ended', async () => {
    const user = await createUser(db, org.id);
    const { headers } = await signIn(app, user);
    await signIn(app, user);
    const wrong = await send('POST', '/api/auth/password', headers, {
      currentPassword: 'not it at all',
      newPassword: 'a brand new password',
    });
    expect(wrong.statusCode).toBe(400);
    expect(await entries('password.changed', user.id)).toEqual([]);
    const changed = await send('POST', '/api/auth/password', headers, {
      currentPassword: PASSWORD,
      newPassword: 'a brand new password',
      signOutOtherSessions: true,
    });
    expect(changed.statusCode).toBe(204);
    const [entry] = await entries('password.changed', user.id);
    expect(entry).toMatchObject({
      ...byPerson(user),
      targetId: user.id,
      details: { otherSessionsEnded: 1 },
    });
    // Never the password or its hash.
    expect(JSON.stringify(entry)).not.toMatch(/brand new|argon2/);
  });
});

describe('access tokens', () => {
  it('records a token made and revoked, never the token itself', async () => {
    const user = await createUser(db, org.id);
    const { headers } = await signIn(app, user);
    const created = await send('POST', '/api/auth/tokens', headers, {
      name: 'CI deploys',
      expiresInDays: 30,
    });
    expect(created.statusCode).toBe(201);
    const { token, accessToken } = created.json();
    const [made] = await entries('access-token.created', user.id);
    expect(made).toMatchObject({
      ...byPerson(user),
      targetType: 'access-token',
      targetId: accessToken.id,
      targetLabel: 'CI deploys',
      after: { name: 'CI deploys', hint: accessToken.hint, expiresAt: accessToken.expiresAt },
    });
    expect(JSON.stringify(made)).not.toContain(token);

    // Using the token is no sign-in event (it authenticates each call).
    const use = await app.inject({
      method: 'GET',
      url: '/api/auth/sessions/current',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(use.statusCode).toBe(200);
    expect(await entries('sign-in.succeeded', user.id)).toHaveLength(1);

    expect((await send('DELETE', `/api/auth/tokens/${'x'.repeat(21)}`, headers)).statusCode).toBe(
      404,
    );
    expect((await send('DELETE', `/api/auth/tokens/${accessToken.id}`, headers)).statusCode).toBe(
      204,
    );
    expect(await entries('access-token.revoked', user.id)).toMatchObject([
      { ...byPerson(user), targetId: accessToken.id, targetLabel: 'CI deploys' },
    ]);
  });
});
