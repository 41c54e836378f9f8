import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, users } from '../../db/schema/index.ts';
import { createTestApp } from '../../../test/app.ts';
import { createOrganization, createUser, PASSWORD, signIn } from '../../../test/factories.ts';

const { app, db } = await createTestApp({ LOGIN_MAX_PER_ACCOUNT_AND_ADDRESS: '3' });
const org = await createOrganization(db);

type Headers = Record<string, string>;
const change = (headers: Headers, payload: object) =>
  app.inject({ method: 'POST', url: '/api/auth/password', headers, payload });
const me = (headers: Headers) =>
  app.inject({ method: 'GET', url: '/api/auth/sessions/current', headers });
const makeToken = async (headers: Headers) => {
  const created = await app.inject({
    method: 'POST',
    url: '/api/auth/tokens',
    headers,
    payload: { name: 'script' },
  });
  expect(created.statusCode).toBe(201);
  return { authorization: `Bearer ${created.json<{ token: string }>().token}` };
};
const changeEntries = async (id: string) =>
  (
    await db
      .select({ details: auditLog.details })
      .from(auditLog)
      .where(and(eq(auditLog.action, 'password.changed'), eq(auditLog.targetId, id)))
  ).map((row) => row.details);
const hashOf = async (id: string) =>
  (await db.select({ h: users.passwordHash }).from(users).where(eq(users.id, id)))[0]?.h;

describe('POST /api/auth/password', () => {
  it('requires authentication', async () => {
    const response = await change({}, { currentPassword: PASSWORD, newPassword: 'new password 1' });
    expect(response.statusCode).toBe(401);
  });

  it('changes the password: the old one no longer signs in, the new one does', async () => {
    const user = await createUser(db, org.id);
    const { headers } = await signIn(app, user);
    const response = await change(headers, {
      currentPassword: PASSWORD,
      newPassword: 'a brand new passphrase',
    });
    expect(response.statusCode).toBe(204);
    await expect(signIn(app, user)).rejects.toThrow(/401/);
    expect((await signIn(app, user, 'a brand new passphrase')).token).toBeTruthy();
    // Other sessions go on unless asked otherwise.
    expect((await me(headers)).statusCode).toBe(200);
  });

  it('keeps sessions and access tokens when asked for neither', async () => {
    const user = await createUser(db, org.id);
    const other = await signIn(app, user);
    const token = await makeToken(other.headers);
    const { headers } = await signIn(app, user);
    const response = await change(headers, {
      currentPassword: PASSWORD,
      newPassword: 'a quiet new passphrase',
    });
    expect(response.statusCode).toBe(204);
    expect((await me(other.headers)).statusCode).toBe(200);
    expect((await me(token)).statusCode).toBe(200);
    expect(await changeEntries(user.id)).toEqual([
      { otherSessionsEnded: 0, accessTokensRevoked: 0 },
    ]);
  });

  it('signing out everywhere else revokes every access token too, audited with the change', async () => {
    const user = await createUser(db, org.id);
    const other = await signIn(app, user);
    const tokens = [await makeToken(other.headers), await makeToken(other.headers)];
    const { headers } = await signIn(app, user);
    const response = await change(headers, {
      currentPassword: PASSWORD,
      newPassword: 'another new passphrase',
      signOutOtherSessions: true,
    });
    expect(response.statusCode).toBe(204);
    for (const token of tokens) {
      expect((await me(token)).statusCode).toBe(401);
      expect((await app.inject({ url: '/api/consumer/menu', headers: token })).statusCode).toBe(
        401,
      );
    }
    expect((await me(other.headers)).statusCode).toBe(401);
    expect((await me(headers)).statusCode).toBe(200);
    expect(await changeEntries(user.id)).toEqual([
      { otherSessionsEnded: 1, accessTokensRevoked: 2 },
    ]);
  });

  it('revokes access tokens on their own when asked, and keeps them when told to', async () => {
    const user = await createUser(db, org.id);
    const other = await signIn(app, user);
    const token = await makeToken(other.headers);
    const { headers } = await signIn(app, user);
    expect(
      (
        await change(headers, {
          currentPassword: PASSWORD,
          newPassword: 'tokens go, sessions stay',
          revokeAccessTokens: true,
        })
      ).statusCode,
    ).toBe(204);
    expect((await me(token)).statusCode).toBe(401);
    expect((await me(other.headers)).statusCode).toBe(200);

    const kept = await makeToken(headers);
    expect(
      (
        await change(headers, {
          currentPassword: 'tokens go, sessions stay',
          newPassword: 'sessions go, tokens stay',
          signOutOtherSessions: true,
          revokeAccessTokens: false,
        })
      ).statusCode,
    ).toBe(204);
    expect((await me(kept)).statusCode).toBe(200);
    expect((await me(other.headers)).statusCode).toBe(401);
    expect(await changeEntries(user.id)).toEqual(
      expect.arrayContaining([
        { otherSessionsEnded: 0, accessTokensRevoked: 1 },
        { otherSessionsEnded: 1, accessTokensRevoked: 0 },
      ]),
    );
  });

  it('ends every other session on request, keeping this one', async () => {
    const user = await createUser(db, org.id);
    const other = await signIn(app, user);
    const { headers } = await signIn(app, user);
    const response = await change(headers, {
      currentPassword: PASSWORD,
      newPassword: 'another new passphrase',
      signOutOtherSessions: true,
    });
    expect(response.statusCode).toBe(204);
    expect((await me(other.headers)).statusCode).toBe(401);
    expect((await me(headers)).statusCode).toBe(200);
  });

  it('refuses a wrong current password with 400, changing nothing', async () => {
    const user = await createUser(db, org.id);
    const { headers } = await signIn(app, user);
    const before = await hashOf(user.id);
    const response = await change(headers, {
      currentPassword: 'not the password',
      newPassword: 'whatever new one',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('The current password is not correct.');
    expect(await hashOf(user.id)).toBe(before);
  });

  it.each([
    [
      { currentPassword: PASSWORD, newPassword: 'seven77' },
      'body.newPassword must NOT have fewer than 8 characters',
    ],
    [
      { currentPassword: PASSWORD, newPassword: 'x'.repeat(129) },
      'body.newPassword must NOT have more than 128 characters',
    ],
    [{ currentPassword: PASSWORD }, 'body.newPassword is required'],
    [
      { currentPassword: PASSWORD, newPassword: 'long enough', admin: true },
      'body has an unknown property "admin"',
    ],
    [
      { currentPassword: PASSWORD, newPassword: 'long enough', revokeAccessTokens: 'yes' },
      'body.revokeAccessTokens must be boolean',
    ],
  ])('refuses %j with 400 naming the field, changing nothing', async (payload, message) => {
    const user = await createUser(db, org.id);
    const { headers } = await signIn(app, user);
    const before = await hashOf(user.id);
    const response = await change(headers, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(message);
    expect(await hashOf(user.id)).toBe(before);
  });

  it('takes 8 and 128 characters exactly as typed, spaces included', async () => {
    const user = await createUser(db, org.id);
    const { headers } = await signIn(app, user);
    expect(
      (await change(headers, { currentPassword: PASSWORD, newPassword: '  8 ch  ' })).statusCode,
    ).toBe(204);
    expect((await signIn(app, user, '  8 ch  ')).token).toBeTruthy();
    const long = 'é'.repeat(128);
    const again = await signIn(app, user, '  8 ch  ');
    expect(
      (await change(again.headers, { currentPassword: '  8 ch  ', newPassword: long })).statusCode,
    ).toBe(204);
    expect((await signIn(app, user, long)).token).toBeTruthy();
  });

  it('is throttled: wrong current passwords sent at once get 429 past the limit', async () => {
    const user = await createUser(db, org.id);
    const { headers } = await signIn(app, user);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        change(headers, { currentPassword: 'wrong guess', newPassword: 'new passphrase' }),
      ),
    );
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 400)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(7);
  });

  it('is refused to an access token, and to an account without a password', async () => {
    const user = await createUser(db, org.id);
    const { headers } = await signIn(app, user);
    const created = await app.inject({
      method: 'POST',
      url: '/api/auth/tokens',
      headers,
      payload: { name: 'script' },
    });
    const token = created.json<{ token: string }>().token;
    const byToken = await change(
      { authorization: `Bearer ${token}` },
      { currentPassword: PASSWORD, newPassword: 'new passphrase' },
    );
    expect(byToken.statusCode).toBe(403);

    const ssoOnly = await createUser(db, org.id, { password: null });
    const session = await app.services.auth.openSession(ssoOnly.id, '10.1.1.1', undefined);
    const noPassword = await change(
      { authorization: `Bearer ${session}` },
      { currentPassword: 'anything', newPassword: 'new passphrase' },
    );
    expect(noPassword.statusCode).toBe(409);
  });
});
