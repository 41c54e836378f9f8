// The organization's sign-in policy and single sign-on (decision 0045): `sso_domains` says
// for which e-mail domains single sign-on may create people; turning password sign-in off
// leaves single sign-on working. Refusals of a person the provider vouched for are audited.
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, users } from '../../db/schema/index.ts';
import { countRows, createUser } from '../../../test/factories.ts';
import { setUpSso } from '../../../test/support/sso-app.ts';
import { browserSignIn, sessionTokenOf } from '../../../test/support/sso-browser.ts';

const { idp, app, db, org, person, expectFailure, me } = await setUpSso();

const setDomains = (domains: string[]) =>
  db.execute(
    sql`UPDATE organizations SET sso_domains = ${`{${domains.join(',')}}`}::text[] WHERE id = ${org.id}`,
  );

const auditOf = (action: string, email: string) =>
  db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.organizationId, org.id)))
    .then((rows) => rows.filter((row) => row.actorEmail === email));

describe('sso_domains: which people single sign-on may create', () => {
  it('creates a person whose domain is listed, audited with the sign-in, last sign-in noted', async () => {
    await setDomains(['acme.test', 'acme-labs.test']);
    const who = person();
    idp.nextLogin = who;
    const { location } = await browserSignIn(app, 'acme');
    expect((await me(sessionTokenOf(location)!)).statusCode).toBe(200);
    const [user] = await db.select().from(users).where(eq(users.email, who.email));
    expect(user?.lastSignInAt).toBeInstanceOf(Date);
    expect(await auditOf('person.created', who.email)).toMatchObject([
      {
        actorId: user!.id,
        targetId: user!.id,
        after: { email: who.email, role: 'member' },
        details: { via: 'single sign-on', provider: 'acme' },
      },
    ]);
    expect(await auditOf('sign-in.succeeded', who.email)).toMatchObject([
      { actorId: user!.id, targetType: 'session', details: { method: 'sso', provider: 'acme' } },
    ]);
  });

  it('refuses to create a person of a domain that is not listed, clearly, creating nothing', async () => {
    await setDomains(['acme-labs.test']);
    const who = person();
    idp.nextLogin = who;
    await expectFailure(
      who,
      async () => (await browserSignIn(app, 'acme')).location,
      'SSO_NO_ACCOUNT',
      /does not create accounts for addresses at acme\.test.*invite you/,
    );
    expect(await auditOf('sign-in.failed', who.email)).toMatchObject([
      {
        organizationId: org.id,
        actorId: null,
        targetId: null,
        details: { method: 'sso', provider: 'acme', reason: 'SSO_NO_ACCOUNT' },
      },
    ]);
  });

  it('still signs in a person who already has an account', async () => {
    await setDomains(['acme.test']);
    const who = person();
    idp.nextLogin = who;
    await browserSignIn(app, 'acme');
    await setDomains(['acme-labs.test']);
    idp.nextLogin = who;
    const again = await browserSignIn(app, 'acme');
    expect((await me(sessionTokenOf(again.location)!)).statusCode).toBe(200);
  });

  it('with no domain listed, leaves the provider’s allowed domains to decide', async () => {
    await setDomains([]);
    idp.nextLogin = person();
    const { location } = await browserSignIn(app, 'acme');
    expect(sessionTokenOf(location)).toBeTruthy();
  });

  it('audits a disabled person who signs in, naming them', async () => {
    await setDomains([]);
    const who = person();
    idp.nextLogin = who;
    await browserSignIn(app, 'acme');
    await db.update(users).set({ status: 'disabled' }).where(eq(users.email, who.email));
    idp.nextLogin = who;
    const { location } = await browserSignIn(app, 'acme');
    expect(location).toContain('SSO_ACCOUNT_DISABLED');
    const [user] = await db.select().from(users).where(eq(users.email, who.email));
    expect(await auditOf('sign-in.failed', who.email)).toMatchObject([
      { targetType: 'person', targetId: user!.id, details: { reason: 'SSO_ACCOUNT_DISABLED' } },
    ]);
  });
});

describe('password sign-in turned off', () => {
  it('leaves single sign-on working for the organization', async () => {
    await setDomains([]);
    await db.execute(sql`UPDATE organizations SET password_sign_in = false WHERE id = ${org.id}`);
    const sessions = await countRows(db, 'sessions');
    idp.nextLogin = person();
    const { location } = await browserSignIn(app, 'acme');
    expect((await me(sessionTokenOf(location)!)).statusCode).toBe(200);
    expect(await countRows(db, 'sessions')).toBe(sessions + 1);

    const withPassword = await createUser(db, org.id);
    const refused = await app.inject({
      method: 'POST',
      url: '/api/auth/sessions',
      payload: {
        type: 'email-password',
        email: withPassword.email,
        password: 'correct horse battery',
      },
    });
    expect(refused.statusCode).toBe(403);
    await db.execute(sql`UPDATE organizations SET password_sign_in = true WHERE id = ${org.id}`);
  });
});
