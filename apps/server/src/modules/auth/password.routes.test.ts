// Changing the password over HTTP: its statuses, the body's schema and the throttle's header.
// What a change does and refuses is auth.service.test.ts.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../../db/schema/index.ts';
import { createTestApp } from '../../../test/app.ts';
import { createOrganization, createUser, PASSWORD, signIn } from '../../../test/factories.ts';

const { app, db } = await createTestApp({ LOGIN_MAX_PER_ACCOUNT_AND_ADDRESS: '3' });
const org = await createOrganization(db);

type Headers = Record<string, string>;
const change = (headers: Headers, payload: object) =>
  app.inject({ method: 'POST', url: '/api/auth/password', headers, payload });
const hashOf = async (id: string) =>
  (await db.select({ h: users.passwordHash }).from(users).where(eq(users.id, id)))[0]?.h;

describe('POST /api/auth/password', () => {
  it('requires authentication', async () => {
    const response = await change({}, { currentPassword: PASSWORD, newPassword: 'new password 1' });
    expect(response.statusCode).toBe(401);
  });

  it('changes the password with 204', async () => {
    const user = await createUser(db, org.id);
    const { headers } = await signIn(app, user);
    const response = await change(headers, {
      currentPassword: PASSWORD,
      newPassword: 'a brand new passphrase',
    });
    expect(response.statusCode).toBe(204);
    expect((await signIn(app, user, 'a brand new passphrase')).token).toBeTruthy();
  });

  it.each([
    [
      { currentPassword: PASSWORD, newPassword: 'seven77' },
      'The new password needs at least 8 characters.',
    ],
    [
      { currentPassword: PASSWORD, newPassword: 'x'.repeat(129) },
      'The new password can have at most 128 characters: shorten it.',
    ],
    [{ currentPassword: PASSWORD }, 'Enter the new password.'],
    [
      { currentPassword: PASSWORD, newPassword: 'long enough', admin: true },
      'The request has an unknown property "admin": leave it out.',
    ],
    [
      { currentPassword: PASSWORD, newPassword: 'long enough', revokeAccessTokens: 'yes' },
      'The choice to revoke the access tokens needs to be true or false.',
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

  it('answers a wrong current password with 400, and 429 with Retry-After past the limit', async () => {
    const user = await createUser(db, org.id);
    const { headers } = await signIn(app, user);
    const guess = { currentPassword: 'wrong guess', newPassword: 'new passphrase' };
    for (let i = 0; i < 3; i += 1) {
      const wrong = await change(headers, guess);
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().message).toBe('The current password is not correct.');
    }
    const blocked = await change(headers, guess);
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
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
