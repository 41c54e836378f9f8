import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, collections, identities, sessions, users } from '../../db/schema/index.ts';
import { countRows, createOrganization, createUser, signIn } from '../../../test/factories.ts';
import { setUpSso } from '../../../test/support/sso-app.ts';
import { browserSignIn, sessionTokenOf, ssoErrorOf } from '../../../test/support/sso-browser.ts';

const { PUBLIC_URL, callbackOf, idp, app, db, org, person, expectFailure, me } = await setUpSso();

describe('GET /api/auth/methods', () => {
  it('lists every configured provider with its login address', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/auth/methods' });
    expect(response.json()).toEqual([
      { type: 'email-password', name: 'E-mail and password' },
      {
        type: 'sso-oidc-id-token',
        name: 'Acme SSO',
        loginUrl: `${PUBLIC_URL}/api/auth/sso/acme/start`,
      },
      {
        type: 'sso-oidc-id-token',
        name: 'Acme Trusted',
        loginUrl: `${PUBLIC_URL}/api/auth/sso/acme-link/start`,
      },
      {
        type: 'sso-oidc-id-token',
        name: 'Acme Loose',
        loginUrl: `${PUBLIC_URL}/api/auth/sso/acme-loose/start`,
      },
      {
        type: 'sso-oidc-id-token',
        name: 'Lost SSO',
        loginUrl: `${PUBLIC_URL}/api/auth/sso/lost/start`,
      },
      {
        type: 'sso-oidc-id-token',
        name: 'Down SSO',
        loginUrl: `${PUBLIC_URL}/api/auth/sso/down/start`,
      },
    ]);
  });
});

describe('GET /api/auth/sso/:provider/start', () => {
  it('sends the browser to the provider with PKCE (S256), state and nonce, bound by a cookie', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/api/auth/sso/acme/start',
      headers: { host: 'signpost.test' },
    });
    expect(response.statusCode).toBe(302);
    const target = new URL(String(response.headers.location));
    expect(target.origin).toBe(idp.issuer);
    expect(target.searchParams.get('client_id')).toBe('signpost');
    expect(target.searchParams.get('response_type')).toBe('code');
    expect(target.searchParams.get('redirect_uri')).toBe(callbackOf('acme'));
    expect(target.searchParams.get('code_challenge_method')).toBe('S256');
    expect(target.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(target.searchParams.get('state')?.length).toBeGreaterThanOrEqual(22);
    expect(target.searchParams.get('nonce')?.length).toBeGreaterThanOrEqual(22);
    const cookie = String(response.headers['set-cookie']);
    expect(cookie).toMatch(/^signpost_sso=[\w-]{43};/);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
    expect(cookie).toContain('Path=/api/auth/sso/');
    expect(cookie).toMatch(/Max-Age=600/);
  });

  it('ends on the login screen for a provider that is not configured', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/auth/sso/nobody/start' });
    expect(response.statusCode).toBe(302);
    expect(ssoErrorOf(String(response.headers.location))?.code).toBe('SSO_UNKNOWN_PROVIDER');
  });

  it('ends on the login screen when the provider is down, quickly and creating nothing', async () => {
    const before = await countRows(db, 'sso_attempts');
    const response = await app.inject({
      method: 'GET',
      url: '/api/auth/sso/down/start',
      headers: { host: 'signpost.test' },
    });
    const error = ssoErrorOf(String(response.headers.location));
    expect(error?.code).toBe('SSO_PROVIDER_UNAVAILABLE');
    expect(error?.message).toMatch(/Down SSO cannot be reached/);
    expect(await countRows(db, 'sso_attempts')).toBe(before);
  });
});

describe('signing in through the provider', () => {
  it('creates the person on first sign-in (with My Space), then finds the same person', async () => {
    const who = person({ name: 'Grace Hopper' });
    idp.nextLogin = who;
    const first = await browserSignIn(app, 'acme');
    expect(first.location).toMatch(/^\/#session\?token=[\w-]{43}$/);
    const token = sessionTokenOf(first.location)!;
    const current = await me(token);
    expect(current.statusCode).toBe(200);
    expect(current.json()).toMatchObject({
      user: { name: 'Grace Hopper', email: who.email, role: 'member' },
      organization: { id: org.id, name: 'Acme' },
      session: { kind: 'session' },
    });

    const [user] = await db.select().from(users).where(eq(users.email, who.email));
    expect(user?.passwordHash).toBeNull();
    expect(user?.organizationId).toBe(org.id);
    const roots = await db.select().from(collections).where(eq(collections.ownerUserId, user!.id));
    expect(roots).toMatchObject([{ isRoot: true, name: 'My Space', parentId: null }]);
    const ids = await db.select().from(identities).where(eq(identities.userId, user!.id));
    expect(ids).toMatchObject([{ issuer: idp.issuer, subject: who.sub, providerId: 'acme' }]);

    const menu = await app.inject({
      method: 'GET',
      url: '/api/consumer/menu',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(menu.statusCode).toBe(200);

    // Second sign-in: same (issuer, subject), same person, even with a new e-mail.
    idp.nextLogin = { ...who, email: who.email.replace('person', 'renamed') };
    const second = await browserSignIn(app, 'acme');
    const again = await me(sessionTokenOf(second.location)!);
    expect(again.json().user.id).toBe(user!.id);
    expect(await countRows(db, 'identities', { column: 'user_id', value: user!.id })).toBe(1);
    expect(await countRows(db, 'users', { column: 'email', value: who.email })).toBe(1);
    expect(token).not.toBe(sessionTokenOf(second.location));
  });

  it('returns to a path of this site, and to / for any other address', async () => {
    idp.nextLogin = person();
    const home = await browserSignIn(app, 'acme', { returnTo: '/collections?open=1' });
    expect(home.location).toMatch(/^\/collections\?open=1#session\?token=/);
    for (const returnTo of [
      'https://evil.example',
      '//evil.example',
      '/\\evil.example',
      'javascript:alert(1)',
      '/%2F%2Fevil.example',
    ]) {
      idp.nextLogin = person();
      const result = await browserSignIn(app, 'acme', { returnTo });
      expect(result.location, returnTo).toMatch(/^\/#session\?token=/);
      expect(result.location).not.toMatch(/^\/\/|evil\.example#|^https?:/);
    }
  });

  it('ends on the login screen when the person declines consent', async () => {
    const who = person();
    idp.nextLogin = 'deny';
    await expectFailure(
      who,
      async () => (await browserSignIn(app, 'acme')).location,
      'SSO_ACCESS_DENIED',
      /cancelled/,
    );
  });
});

describe('an existing password account with the same e-mail', () => {
  it('is never linked by a provider that is not trusted for linking', async () => {
    const existing = await createUser(db, org.id, {
      email: `ada-${randomBytes(3).toString('hex')}@acme.test`,
    });
    const who = person({ email: existing.email });
    idp.nextLogin = who;
    const sessionsBefore = await countRows(db, 'sessions');
    const result = await browserSignIn(app, 'acme');
    expect(ssoErrorOf(result.location)).toMatchObject({
      code: 'SSO_ACCOUNT_EXISTS',
      message: expect.stringMatching(/Sign in with your e-mail and password/),
    });
    expect(await countRows(db, 'identities', { column: 'subject', value: who.sub })).toBe(0);
    expect(await countRows(db, 'users', { column: 'email', value: existing.email })).toBe(1);
    expect(await countRows(db, 'sessions')).toBe(sessionsBefore);
  });

  it('is never linked on an unverified e-mail, even by a trusted provider', async () => {
    const existing = await createUser(db, org.id, {
      email: `bob-${randomBytes(3).toString('hex')}@acme.test`,
    });
    const who = person({ email: existing.email, email_verified: false });
    idp.nextLogin = who;
    const result = await browserSignIn(app, 'acme-loose');
    expect(ssoErrorOf(result.location)?.code).toBe('SSO_ACCOUNT_EXISTS');
    expect(await countRows(db, 'identities', { column: 'subject', value: who.sub })).toBe(0);
  });

  it('is never linked across organizations', async () => {
    const other = await createOrganization(db, { name: 'Other' });
    const existing = await createUser(db, other.id, {
      email: `eve-${randomBytes(3).toString('hex')}@acme.test`,
    });
    const who = person({ email: existing.email });
    idp.nextLogin = who;
    const result = await browserSignIn(app, 'acme-link');
    expect(ssoErrorOf(result.location)?.code).toBe('SSO_ACCOUNT_EXISTS');
    expect(await countRows(db, 'identities', { column: 'subject', value: who.sub })).toBe(0);
  });

  it('is linked by a provider trusted for the domain, with a verified e-mail', async () => {
    const existing = await createUser(db, org.id, {
      email: `cleo-${randomBytes(3).toString('hex')}@acme.test`,
    });
    const who = person({ email: existing.email.toUpperCase(), email_verified: true });
    idp.nextLogin = who;
    const result = await browserSignIn(app, 'acme-link');
    const token = sessionTokenOf(result.location);
    expect(token, result.location).not.toBeNull();
    expect((await me(token!)).json().user.id).toBe(existing.id);
    const linked = await db.select().from(identities).where(eq(identities.userId, existing.id));
    expect(linked).toMatchObject([{ subject: who.sub, providerId: 'acme-link' }]);
    expect(await countRows(db, 'users', { column: 'email', value: existing.email })).toBe(1);
    // The password still works: linking adds a way in, it takes none away.
    await expect(signIn(app, existing)).resolves.toBeTruthy();
  });
});

describe('an invited person', () => {
  it('accepts their invitation by signing in through a provider trusted for the domain', async () => {
    const invited = await createUser(db, org.id, {
      email: `ivo-${randomBytes(3).toString('hex')}@acme.test`,
      status: 'invited',
      password: null,
    });
    idp.nextLogin = person({ email: invited.email, email_verified: true });
    const token = sessionTokenOf((await browserSignIn(app, 'acme-link')).location);
    expect(token).not.toBeNull();
    expect((await me(token!)).json().user.id).toBe(invited.id);
    const [row] = await db.select().from(users).where(eq(users.id, invited.id));
    expect(row).toMatchObject({ status: 'active', lastSignInAt: expect.any(Date) });
    const entries = await db.select().from(auditLog).where(eq(auditLog.targetId, invited.id));
    expect(entries.map((e) => e.action)).toContain('person.invitation-accepted');
  });

  it('is refused by a provider that may not link, and stays invited', async () => {
    const invited = await createUser(db, org.id, {
      email: `ina-${randomBytes(3).toString('hex')}@acme.test`,
      status: 'invited',
      password: null,
    });
    idp.nextLogin = person({ email: invited.email, email_verified: true });
    const result = await browserSignIn(app, 'acme');
    expect(ssoErrorOf(result.location)?.code).toBe('SSO_ACCOUNT_EXISTS');
    const [row] = await db.select().from(users).where(eq(users.id, invited.id));
    expect(row?.status).toBe('invited');
  });
});

describe('POST /api/auth/logout', () => {
  it('requires authentication', async () => {
    const response = await app.inject({ method: 'POST', url: '/api/auth/logout' });
    expect(response.statusCode).toBe(401);
  });

  it("ends the session and gives the provider's end-session address", async () => {
    idp.nextLogin = person();
    const token = sessionTokenOf((await browserSignIn(app, 'acme')).location)!;
    const response = await app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.statusCode).toBe(200);
    const logoutUrl = new URL(response.json().logoutUrl);
    expect(logoutUrl.origin).toBe(idp.issuer);
    expect(logoutUrl.pathname).toBe('/session/end');
    expect(logoutUrl.searchParams.get('post_logout_redirect_uri')).toBe(`${PUBLIC_URL}/`);
    expect(logoutUrl.searchParams.get('id_token_hint')).toMatch(/^ey/);
    expect((await me(token)).statusCode).toBe(401);
  });

  it('gives no address for a provider without logout, nor for a password session', async () => {
    idp.nextLogin = person();
    const sso = sessionTokenOf((await browserSignIn(app, 'acme-link')).location)!;
    const user = await createUser(db, org.id);
    const password = (await signIn(app, user)).token;
    for (const token of [sso, password]) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/auth/logout',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(response.json()).toEqual({ logoutUrl: null });
      expect((await me(token)).statusCode).toBe(401);
    }
  });

  it('lists single sign-on sessions as such', async () => {
    idp.nextLogin = person();
    const token = sessionTokenOf((await browserSignIn(app, 'acme')).location)!;
    const list = await app.inject({
      method: 'GET',
      url: '/api/auth/sessions',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(list.json().items).toMatchObject([{ current: true, method: 'sso' }]);
    const [row] = await db.select().from(sessions).where(eq(sessions.id, list.json().items[0].id));
    expect(row?.tokenHash).not.toContain(token);
  });
});
