import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { collections, identities, sessions, ssoAttempts, users } from '../../db/schema/index.ts';
import { createTestApp } from '../../../test/app.ts';
import { countRows, createOrganization, createUser, signIn } from '../../../test/factories.ts';
import {
  browserSignIn,
  callback,
  closedPort,
  decodeJwt,
  sessionTokenOf,
  ssoErrorOf,
  startTestProvider,
  unsignedJwt,
  type TestAccount,
} from './sso.test-support.ts';

const PUBLIC_URL = 'http://signpost.test';
const callbackOf = (id: string) => `${PUBLIC_URL}/api/auth/sso/${id}/callback`;

const idp = await startTestProvider([
  { clientId: 'signpost', clientSecret: 'secret-one', redirectUri: callbackOf('acme') },
  { clientId: 'signpost-link', clientSecret: 'secret-two', redirectUri: callbackOf('acme-link') },
  { clientId: 'signpost-loose', clientSecret: 'secret-3', redirectUri: callbackOf('acme-loose') },
  { clientId: 'signpost-lost', clientSecret: 'secret-4', redirectUri: callbackOf('lost') },
]);
const base = {
  issuer: idp.issuer,
  organization: 'Acme',
  allowedDomains: ['acme.test'],
};
const downPort = await closedPort();
const { app, db } = await createTestApp({
  PUBLIC_URL,
  OIDC_PROVIDERS: JSON.stringify([
    {
      ...base,
      id: 'acme',
      name: 'Acme SSO',
      clientId: 'signpost',
      clientSecret: 'secret-one',
      logout: true,
    },
    {
      ...base,
      id: 'acme-link',
      name: 'Acme Trusted',
      clientId: 'signpost-link',
      clientSecret: 'secret-two',
      linkExistingAccounts: true,
    },
    {
      ...base,
      id: 'acme-loose',
      name: 'Acme Loose',
      clientId: 'signpost-loose',
      clientSecret: 'secret-3',
      linkExistingAccounts: true,
      requireVerifiedEmail: false,
    },
    {
      ...base,
      id: 'lost',
      name: 'Lost SSO',
      clientId: 'signpost-lost',
      clientSecret: 'secret-4',
      organization: 'No Such Organization',
    },
    {
      id: 'down',
      name: 'Down SSO',
      issuer: `http://127.0.0.1:${downPort}`,
      clientId: 'x',
      clientSecret: 'y',
      organization: 'Acme',
      allowedDomains: ['*'],
    },
  ]),
});
const org = await createOrganization(db, { name: 'Acme' });

let n = 0;
function person(overrides: Partial<TestAccount> = {}): TestAccount & { email: string } {
  n += 1;
  const tag = randomBytes(3).toString('hex');
  return {
    sub: `subject-${n}-${tag}`,
    email: `person${n}-${tag}@acme.test`,
    email_verified: true,
    name: `Person ${n}`,
    ...overrides,
  } as TestAccount & { email: string };
}

/** Everything a sign-in could leave behind for this account. */
async function traces(who: { sub: string; email?: string }) {
  return {
    users: who.email ? await countRows(db, 'users', { column: 'email', value: who.email }) : 0,
    identities: await countRows(db, 'identities', { column: 'subject', value: who.sub }),
    sessions: await countRows(db, 'sessions'),
  };
}

/** Asserts a failed sign-in: the login screen with this code, and nothing created. */
async function expectFailure(
  who: { sub: string; email?: string },
  run: () => Promise<string>,
  code: string,
  message: RegExp,
) {
  const before = await traces(who);
  const location = await run();
  const error = ssoErrorOf(location);
  expect(error, location).not.toBeNull();
  expect(error?.code).toBe(code);
  expect(error?.message).toMatch(message);
  expect(error?.message).not.toMatch(/\bat \w+ \(|Error:|undefined/);
  expect(await traces(who)).toEqual({ ...before, users: 0, identities: 0 });
  expect((await traces(who)).sessions).toBe(before.sessions);
  return error;
}

const me = (token: string) =>
  app.inject({
    method: 'GET',
    url: '/api/auth/sessions/current',
    headers: { authorization: `Bearer ${token}` },
  });

afterEach(() => {
  idp.tokenEndpoint = null;
  idp.nextLogin = 'deny';
});

describe('GET /api/auth/methods', () => {
  it('lists every configured provider with its login address', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/auth/methods' });
    expect(response.json()).toEqual([
      { type: 'email-password', name: 'E-mail and password' },
      { type: 'sso-oidc-id-token', name: 'Acme SSO', loginUrl: '/api/auth/sso/acme/start' },
      {
        type: 'sso-oidc-id-token',
        name: 'Acme Trusted',
        loginUrl: '/api/auth/sso/acme-link/start',
      },
      { type: 'sso-oidc-id-token', name: 'Acme Loose', loginUrl: '/api/auth/sso/acme-loose/start' },
      { type: 'sso-oidc-id-token', name: 'Lost SSO', loginUrl: '/api/auth/sso/lost/start' },
      { type: 'sso-oidc-id-token', name: 'Down SSO', loginUrl: '/api/auth/sso/down/start' },
    ]);
  });
});

describe('GET /api/auth/sso/:provider/start', () => {
  it('sends the browser to the provider with PKCE (S256), state and nonce, bound by a cookie', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/auth/sso/acme/start' });
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
    const response = await app.inject({ method: 'GET', url: '/api/auth/sso/down/start' });
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

describe('state, code and the browser', () => {
  it('refuses a replayed callback (state used once)', async () => {
    const who = person();
    idp.nextLogin = who;
    const first = await browserSignIn(app, 'acme');
    expect(sessionTokenOf(first.location)).not.toBeNull();
    const sessionsBefore = await countRows(db, 'sessions');
    const replay = await callback(app, first.callbackUrl!, first.cookie);
    expect(ssoErrorOf(replay)?.code).toBe('SSO_STATE_INVALID');
    expect(await countRows(db, 'sessions')).toBe(sessionsBefore);
  });

  it('refuses a wrong state, and a callback from a browser that did not start the sign-in', async () => {
    const who = person();
    idp.nextLogin = who;
    const started = await browserSignIn(app, 'acme', { stopAtCallback: true });
    const url = new URL(started.callbackUrl!);
    const wrong = new URL(url);
    wrong.searchParams.set('state', 'not-the-state-of-this-attempt');
    await expectFailure(
      who,
      () => callback(app, wrong.href, started.cookie),
      'SSO_STATE_INVALID',
      /expired or was already used/,
    );
    await expectFailure(
      who,
      () => callback(app, url.href, null),
      'SSO_STATE_INVALID',
      /another browser/,
    );
    await expectFailure(
      who,
      () => callback(app, url.href, 'a-cookie-of-another-browser-aaaaaaaaaaaaaaaaa'),
      'SSO_STATE_INVALID',
      /another browser/,
    );
    // The attempt survived those: the browser that started it can still finish.
    const done = await callback(app, url.href, started.cookie);
    expect(sessionTokenOf(done)).not.toBeNull();
  });

  it('lets only one of two simultaneous callbacks with the same state through', async () => {
    const who = person();
    idp.nextLogin = who;
    const started = await browserSignIn(app, 'acme', { stopAtCallback: true });
    const results = await Promise.all([
      callback(app, started.callbackUrl!, started.cookie),
      callback(app, started.callbackUrl!, started.cookie),
    ]);
    expect(results.filter((l) => sessionTokenOf(l) !== null)).toHaveLength(1);
    expect(results.map((l) => ssoErrorOf(l)?.code).filter(Boolean)).toEqual(['SSO_STATE_INVALID']);
    expect(await countRows(db, 'identities', { column: 'subject', value: who.sub })).toBe(1);
  });

  it('refuses an attempt older than ten minutes', async () => {
    const who = person();
    idp.nextLogin = who;
    const started = await browserSignIn(app, 'acme', { stopAtCallback: true });
    const state = new URL(started.callbackUrl!).searchParams.get('state')!;
    await db
      .update(ssoAttempts)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(ssoAttempts.state, state));
    await expectFailure(
      who,
      () => callback(app, started.callbackUrl!, started.cookie),
      'SSO_STATE_INVALID',
      /expired/,
    );
  });

  it('refuses a replayed authorization code (the provider rejects it)', async () => {
    const who = person();
    idp.nextLogin = who;
    const first = await browserSignIn(app, 'acme');
    expect(sessionTokenOf(first.location)).not.toBeNull();
    // A new attempt in the same browser, finished with the old code.
    const other = person();
    idp.nextLogin = other;
    const second = await browserSignIn(app, 'acme', { stopAtCallback: true });
    const forged = new URL(second.callbackUrl!);
    forged.searchParams.set('code', new URL(first.callbackUrl!).searchParams.get('code')!);
    await expectFailure(
      other,
      () => callback(app, forged.href, second.cookie),
      'SSO_CODE_REJECTED',
      /did not accept/,
    );
  });

  it('ends on the login screen when the provider answers another error', async () => {
    const who = person();
    idp.nextLogin = who;
    const started = await browserSignIn(app, 'acme', { stopAtCallback: true });
    const url = new URL(started.callbackUrl!);
    url.searchParams.delete('code');
    url.searchParams.set('error', 'temporarily_unavailable');
    url.searchParams.set('error_description', '<script>alert(1)</script>');
    const error = await expectFailure(
      who,
      () => callback(app, url.href, started.cookie),
      'SSO_PROVIDER_ERROR',
      /could not complete the sign-in/,
    );
    // The provider's own words are logged, never shown.
    expect(error?.message).not.toContain('script');
  });

  it('refuses a callback without a code', async () => {
    const who = person();
    idp.nextLogin = who;
    const started = await browserSignIn(app, 'acme', { stopAtCallback: true });
    const url = new URL(started.callbackUrl!);
    url.searchParams.delete('code');
    const location = await callback(app, url.href, started.cookie);
    expect(ssoErrorOf(location)?.code).toMatch(/^SSO_/);
    expect(await countRows(db, 'identities', { column: 'subject', value: who.sub })).toBe(0);
  });
});

describe('the ID token', () => {
  const resign =
    (change: (claims: Record<string, unknown>) => Record<string, unknown>) =>
    async (body: Record<string, unknown>) => ({
      ...body,
      id_token: await idp.sign(change(decodeJwt(String(body.id_token)))),
    });
  const now = () => Math.floor(Date.now() / 1000);

  it.each([
    [
      'a wrong audience',
      resign((c) => ({ ...c, aud: 'someone-else' })),
      'SSO_TOKEN_INVALID',
      /wrong audience/,
    ],
    [
      'an extra, untrusted audience',
      resign((c) => ({ ...c, aud: ['signpost', 'someone-else'], azp: 'signpost' })),
      'SSO_TOKEN_INVALID',
      /wrong audience/,
    ],
    [
      'a wrong issuer',
      resign((c) => ({ ...c, iss: 'http://127.0.0.1:1/impostor' })),
      'SSO_TOKEN_INVALID',
      /wrong issuer/,
    ],
    [
      'an expired token',
      resign((c) => ({ ...c, iat: now() - 7200, exp: now() - 3600 })),
      'SSO_TOKEN_INVALID',
      /expired/,
    ],
    [
      'a nonce of another sign-in',
      resign((c) => ({ ...c, nonce: 'another-nonce' })),
      'SSO_NONCE_MISMATCH',
      /not made for this sign-in/,
    ],
  ])('refuses %s', async (_name, tamper, code, message) => {
    const who = person();
    idp.nextLogin = who;
    idp.tokenEndpoint = tamper;
    await expectFailure(
      who,
      async () => (await browserSignIn(app, 'acme')).location,
      code,
      message,
    );
  });

  it('refuses an unsigned token (alg: none)', async () => {
    const who = person();
    idp.nextLogin = who;
    // The real provider issues a real token; the test replaces it at the token endpoint
    // with the same claims under {"alg":"none"} and no signature.
    idp.tokenEndpoint = async (body) => ({
      ...body,
      id_token: unsignedJwt(decodeJwt(String(body.id_token))),
    });
    await expectFailure(
      who,
      async () => (await browserSignIn(app, 'acme')).location,
      'SSO_TOKEN_INVALID',
      /signing algorithm refused/,
    );
  });

  it('refuses a tampered token (claims changed after signing)', async () => {
    const who = person();
    const victim = person();
    idp.nextLogin = who;
    idp.tokenEndpoint = async (body) => {
      const [header, , signature] = String(body.id_token).split('.');
      const claims = { ...decodeJwt(String(body.id_token)), sub: victim.sub };
      const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
      return { ...body, id_token: `${header}.${payload}.${signature}` };
    };
    await expectFailure(
      who,
      async () => (await browserSignIn(app, 'acme')).location,
      'SSO_TOKEN_INVALID',
      /bad signature/,
    );
    expect(await countRows(db, 'identities', { column: 'subject', value: victim.sub })).toBe(0);
  });

  it('ends on the login screen when the token endpoint is down', async () => {
    const who = person();
    idp.nextLogin = who;
    idp.tokenEndpoint = 'down';
    await expectFailure(
      who,
      async () => (await browserSignIn(app, 'acme')).location,
      'SSO_PROVIDER_UNAVAILABLE',
      /cannot be reached/,
    );
  });
});

describe('who may sign in', () => {
  it('refuses an e-mail domain the provider is not allowed for', async () => {
    const who = person({ email: `mallory-${randomBytes(3).toString('hex')}@elsewhere.test` });
    idp.nextLogin = who;
    await expectFailure(
      who,
      async () => (await browserSignIn(app, 'acme')).location,
      'SSO_DOMAIN_NOT_ALLOWED',
      /elsewhere\.test cannot sign in with Acme SSO/,
    );
  });

  it('refuses an unverified e-mail when the provider requires verified ones', async () => {
    const who = person({ email_verified: false });
    idp.nextLogin = who;
    await expectFailure(
      who,
      async () => (await browserSignIn(app, 'acme')).location,
      'SSO_EMAIL_MISSING',
      /verified e-mail address/,
    );
  });

  it('refuses a person without an e-mail address', async () => {
    const who: TestAccount = { sub: `no-mail-${randomBytes(3).toString('hex')}`, name: 'No Mail' };
    idp.nextLogin = who;
    await expectFailure(
      who,
      async () => (await browserSignIn(app, 'acme')).location,
      'SSO_EMAIL_MISSING',
      /an e-mail address/,
    );
  });

  it('ends on the login screen when the organization of the provider does not exist', async () => {
    const who = person();
    idp.nextLogin = who;
    await expectFailure(
      who,
      async () => (await browserSignIn(app, 'lost')).location,
      'SSO_MISCONFIGURED',
      /not set up completely/,
    );
  });

  it('refuses a disabled person', async () => {
    const who = person();
    idp.nextLogin = who;
    const first = await browserSignIn(app, 'acme');
    expect(sessionTokenOf(first.location)).not.toBeNull();
    await db.update(users).set({ status: 'disabled' }).where(eq(users.email, who.email));
    const sessionsBefore = await countRows(db, 'sessions');
    const again = await browserSignIn(app, 'acme');
    expect(ssoErrorOf(again.location)?.code).toBe('SSO_ACCOUNT_DISABLED');
    expect(await countRows(db, 'sessions')).toBe(sessionsBefore);
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
