// An organization that turns password sign-in off: its people cannot sign in with a
// password, and the refusal reveals nothing to whoever does not know the password
// (decision 0045). Here what HTTP shows of it; the rules are auth.service.test.ts.
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/app.ts';
import { createOrganization, createUser, PASSWORD } from '../../../test/factories.ts';

const { app, db } = await createTestApp();
const ssoOnly = await createOrganization(db);
const person = await createUser(db, ssoOnly.id);
await db.execute(sql`UPDATE organizations SET password_sign_in = false WHERE id = ${ssoOnly.id}`);

describe('password sign-in turned off for an organization', () => {
  it('answers the right password with 403 PASSWORD_SIGN_IN_OFF', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/auth/sessions',
      payload: { type: 'email-password', email: person.email, password: PASSWORD },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({
      code: 'PASSWORD_SIGN_IN_OFF',
      message: expect.stringMatching(/single sign-on only/),
    });
  });

  it('still offers e-mail and password among the methods: the organization is not known yet', async () => {
    const methods = await app.inject({ method: 'GET', url: '/api/auth/methods' });
    expect(methods.json()).toContainEqual({ type: 'email-password', name: 'E-mail and password' });
  });
});
