// An organization that turns password sign-in off: its people cannot sign in with a
// password, and the refusal reveals nothing to whoever does not know the password
// (decision 0045). Single sign-on and access tokens keep working.
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/app.ts';
import {
  countRows,
  createOrganization,
  createUser,
  PASSWORD,
  signIn,
} from '../../../test/factories.ts';
import { auditLog } from '../../db/schema/index.ts';

const { app, db } = await createTestApp();
const ssoOnly = await createOrganization(db);
const open = await createOrganization(db);
const person = await createUser(db, ssoOnly.id);
const other = await createUser(db, open.id);

// Made while passwords still worked.
const { headers } = await signIn(app, person);
const created = await app.inject({
  method: 'POST',
  url: '/api/auth/tokens',
  headers,
  payload: { name: 'scripts' },
});
const accessToken: string = created.json().token;
await db.execute(sql`UPDATE organizations SET password_sign_in = false WHERE id = ${ssoOnly.id}`);

let ip = 0;
const login = (email: string, password = PASSWORD) =>
  app.inject({
    method: 'POST',
    url: '/api/auth/sessions',
    payload: { type: 'email-password', email, password },
    remoteAddress: `10.44.0.${(ip += 1)}`,
  });

describe('password sign-in turned off for an organization', () => {
  it('refuses the right password with a clear message, opening no session', async () => {
    const sessions = await countRows(db, 'sessions');
    const response = await login(person.email);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({
      code: 'PASSWORD_SIGN_IN_OFF',
      message: expect.stringMatching(/single sign-on only/),
    });
    expect(await countRows(db, 'sessions')).toBe(sessions);
    const entries = await db.select().from(auditLog).where(eq(auditLog.targetId, person.id));
    expect(entries.filter((e) => e.action === 'sign-in.failed')).toMatchObject([
      { organizationId: ssoOnly.id, details: { reason: 'password sign-in is off' } },
    ]);
  });

  it('answers a wrong password exactly as for an unknown e-mail: no account is revealed', async () => {
    const wrong = await login(person.email, 'not the password');
    const unknown = await login('nobody-here@example.test', 'not the password');
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json().code).toBe('INVALID_CREDENTIALS');
  });

  it('leaves other organizations, access tokens and sessions already open alone', async () => {
    expect((await login(other.email)).statusCode).toBe(201);
    for (const authorization of [`Bearer ${accessToken}`, headers.authorization]) {
      const me = await app.inject({
        method: 'GET',
        url: '/api/auth/sessions/current',
        headers: { authorization },
      });
      expect(me.statusCode).toBe(200);
    }
  });

  it('refuses a password to confirm who one is too, and does not offer it (decision 0048)', async () => {
    const again = await app.inject({
      method: 'POST',
      url: '/api/auth/reauthenticate',
      headers,
      payload: { password: PASSWORD },
    });
    expect(again.statusCode).toBe(403);
    expect(again.json().code).toBe('PASSWORD_SIGN_IN_OFF');
    const methods = await app.inject({ method: 'GET', url: '/api/auth/reauthenticate', headers });
    expect(methods.json()).toMatchObject({ password: false });
  });

  it('still offers e-mail and password among the methods: the organization is not known yet', async () => {
    const methods = await app.inject({ method: 'GET', url: '/api/auth/methods' });
    expect(methods.json()).toContainEqual({ type: 'email-password', name: 'E-mail and password' });
  });

  it('lets the person in again once password sign-in is back on', async () => {
    await db.execute(
      sql`UPDATE organizations SET password_sign_in = true WHERE id = ${ssoOnly.id}`,
    );
    expect((await login(person.email)).statusCode).toBe(201);
    await db.execute(
      sql`UPDATE organizations SET password_sign_in = false WHERE id = ${ssoOnly.id}`,
    );
  });
});
