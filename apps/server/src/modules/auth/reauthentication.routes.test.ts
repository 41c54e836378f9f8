// decision 0048 (ASVS 5.0 V7.5): sensitive changes need a sign-in or re-authentication of
// the last 5 minutes; POST /api/auth/reauthenticate proves it with the password (and code).
// Here what HTTP shows of it: the answers, their statuses and headers. The rules of signing in
// again are auth.service.test.ts; those of the changes that need it, the services' tests of
// access tokens and the second factor.
import { createHash } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { sessions, users } from '../../db/schema/index.ts';
import { createTestApp } from '../../../test/app.ts';
import {
  countRows,
  createOrganization,
  createUser,
  PASSWORD,
  signIn,
} from '../../../test/factories.ts';
import { codeAt, stepNow, turnOnSecondFactor } from '../../../test/support/second-factor.ts';

const { app, db } = await createTestApp({ LOGIN_MAX_PER_ADDRESS: '1000' });
const org = await createOrganization(db);

/** Makes every session of the person look signed in `minutes` ago. */
async function age(userId: string, minutes = 6) {
  await db
    .update(sessions)
    .set({ reauthenticatedAt: sql`now() - make_interval(mins => ${minutes})` })
    .where(eq(sessions.userId, userId));
}

const call = (
  method: 'GET' | 'POST' | 'PATCH',
  url: string,
  headers: Record<string, string>,
  payload?: Record<string, unknown>,
) => app.inject({ method, url, headers, payload });

const reauthenticate = (headers: Record<string, string>, payload: Record<string, unknown>) =>
  call('POST', '/api/auth/reauthenticate', headers, payload);

function expectReauthenticationRequired(response: { statusCode: number; json: () => unknown }) {
  expect(response.statusCode).toBe(403);
  const body = response.json() as { code: string; message: string; msg: string };
  expect(body.code).toBe('REAUTHENTICATION_REQUIRED');
  expect(body.message).toMatch(/confirm it's you/);
  expect(body.msg).toBe(body.message);
}

describe('sensitive changes of a session signed in long ago', () => {
  it('answer 403 REAUTHENTICATION_REQUIRED until the session confirms who it is, which answers 204 uncached', async () => {
    const user = await createUser(db, org.id);
    const { headers } = await signIn(app, user);
    const { secret } = await turnOnSecondFactor(app, headers);
    await age(user.id);

    expectReauthenticationRequired(
      await call('POST', '/api/auth/tokens', headers, { name: 'script' }),
    );
    const methods = await call('GET', '/api/auth/reauthenticate', headers);
    expect(methods.json()).toEqual({
      password: true,
      secondFactor: true,
      providers: [],
      recent: false,
      windowMinutes: 5,
    });

    // The password alone is not all of it: the factor is on.
    const half = await reauthenticate(headers, { password: PASSWORD });
    expect(half.statusCode).toBe(400);
    expect(half.json().code).toBe('SECOND_FACTOR_REQUIRED');
    const done = await reauthenticate(headers, {
      password: PASSWORD,
      totp: codeAt(secret, stepNow()),
    });
    expect(done.statusCode, done.body).toBe(204);
    expect(done.headers['cache-control']).toBe('no-store');
    expect((await call('GET', '/api/auth/reauthenticate', headers)).json().recent).toBe(true);
    const made = await call('POST', '/api/auth/tokens', headers, { name: 'script' });
    expect(made.statusCode, made.body).toBe(201);
  });

  it('answers a wrong password with 400 (not 401), and 429 with Retry-After past the limit', async () => {
    const user = await createUser(db, org.id);
    const { headers } = await signIn(app, user);
    await age(user.id);
    for (let i = 0; i < 5; i += 1) {
      const wrong = await reauthenticate(headers, { password: 'not the password' });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json()).toMatchObject({ code: 'INVALID_CREDENTIALS' });
    }
    const blocked = await reauthenticate(headers, { password: PASSWORD });
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('answers an access token with 403', async () => {
    const user = await createUser(db, org.id);
    const { headers } = await signIn(app, user);
    const token = (await call('POST', '/api/auth/tokens', headers, { name: 'x' })).json().token;
    const bearer = { authorization: `Bearer ${token}` };
    const again = await reauthenticate(bearer, { password: PASSWORD });
    expect(again.statusCode).toBe(403);
    expect(again.json().code).toBe('FORBIDDEN');
  });

  it('answers a person without a password with 409, and offers them no password', async () => {
    const user = await createUser(db, org.id, { password: null });
    // A session of this person, opened as single sign-on would.
    const token = 'sso-person-token-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
    await db.insert(sessions).values({
      id: `s-${user.id}`,
      userId: user.id,
      tokenHash: createHash('sha256').update(token).digest('hex'),
      expiresAt: new Date(Date.now() + 3600_000),
    });
    const headers = { authorization: `Bearer ${token}` };
    const answer = await reauthenticate(headers, { password: 'anything at all' });
    expect(answer.statusCode).toBe(409);
    expect((await call('GET', '/api/auth/reauthenticate', headers)).json()).toMatchObject({
      password: false,
      secondFactor: false,
    });
  });
});

describe('the other ways in (decision 0048)', () => {
  it('an invitation is never a way around a second factor: only people never signed in get one', async () => {
    const admin = await createUser(db, org.id, { role: 'admin' });
    const person = await createUser(db, org.id);
    const own = await signIn(app, person);
    await turnOnSecondFactor(app, own.headers);
    const { headers } = await signIn(app, admin);
    const resend = await call('POST', `/api/admin/people/${person.id}/invitation`, headers);
    expect(resend.statusCode).toBe(409);
    expect(await countRows(db, 'invitations', { column: 'user_id', value: person.id })).toBe(0);
  });
});

describe("the console's high-risk changes", () => {
  async function adminAndPerson() {
    const admin = await createUser(db, org.id, { role: 'admin' });
    const person = await createUser(db, org.id);
    const { headers } = await signIn(app, admin);
    await age(admin.id);
    return { admin, person, headers };
  }

  it("need a recent sign-in to change someone's e-mail or role, not their name", async () => {
    const { person, headers } = await adminAndPerson();
    const url = `/api/admin/people/${person.id}`;
    expectReauthenticationRequired(
      await call('PATCH', url, headers, { email: `new-${person.email}` }),
    );
    expectReauthenticationRequired(await call('PATCH', url, headers, { role: 'admin' }));
    expectReauthenticationRequired(
      await call('POST', '/api/admin/people/bulk', headers, {
        action: 'role',
        role: 'admin',
        ids: [person.id],
      }),
    );
    const [unchanged] = await db
      .select({ email: users.email, role: users.role })
      .from(users)
      .where(eq(users.id, person.id));
    expect(unchanged).toEqual({ email: person.email, role: 'member' });
    // Neither the name nor the same e-mail again needs it.
    const renamed = await call('PATCH', url, headers, { name: 'Renamed', email: person.email });
    expect(renamed.statusCode, renamed.body).toBe(200);

    expect((await reauthenticate(headers, { password: PASSWORD })).statusCode).toBe(204);
    const moved = await call('PATCH', url, headers, {
      email: `new-${person.email}`,
      role: 'admin',
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({ email: `new-${person.email}`, role: 'admin' });
  });

  it("need it to reset someone's second factor or create an administrator", async () => {
    const { person, headers } = await adminAndPerson();
    const own = await signIn(app, person);
    await turnOnSecondFactor(app, own.headers);
    expectReauthenticationRequired(
      await call('POST', `/api/admin/people/${person.id}/second-factor/reset`, headers),
    );
    expect(await countRows(db, 'second_factors', { column: 'user_id', value: person.id })).toBe(1);
    expectReauthenticationRequired(
      await call('POST', '/api/admin/people', headers, {
        name: 'New Admin',
        email: `new-admin-${person.id}@example.test`,
        password: 'a long enough password',
        role: 'admin',
      }),
    );
    expect(
      await countRows(db, 'users', {
        column: 'email',
        value: `new-admin-${person.id}@example.test`,
      }),
    ).toBe(0);
  });
});
