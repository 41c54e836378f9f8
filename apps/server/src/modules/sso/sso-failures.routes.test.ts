import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ssoAttempts, users } from '../../db/schema/index.ts';
import { countRows } from '../../../test/factories.ts';
import { setUpSso } from '../../../test/support/sso-app.ts';
import {
  browserSignIn,
  callback,
  sessionTokenOf,
  ssoErrorOf,
} from '../../../test/support/sso-browser.ts';
import { decodeJwt, unsignedJwt, type TestAccount } from '../../../test/support/sso-provider.ts';

const { idp, app, db, person, expectFailure } = await setUpSso();

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

  it('refuses an e-mail address with a control character, and stores nothing', async () => {
    const who = person({ email: `nul\u0000-${randomBytes(3).toString('hex')}@acme.test` });
    idp.nextLogin = who;
    const counts = async () => ({
      users: await countRows(db, 'users'),
      identities: await countRows(db, 'identities'),
      sessions: await countRows(db, 'sessions'),
    });
    const before = await counts();
    const { location } = await browserSignIn(app, 'acme');
    const error = ssoErrorOf(location);
    expect(error?.code).toBe('SSO_EMAIL_MISSING');
    expect(error?.message).toMatch(/an e-mail address/);
    expect(await counts()).toEqual(before);
  });

  it('names a new person from a claim that can be shown, never from controls or blanks', async () => {
    const email = `claims-${randomBytes(3).toString('hex')}@acme.test`;
    const who = person({
      email,
      name: 'Eve\u0000\u202e',
      given_name: '\u200b\u200b',
      family_name: '\u2066',
      preferred_username: 'eve.k',
    });
    idp.nextLogin = who;
    const { location } = await browserSignIn(app, 'acme');
    expect(sessionTokenOf(location)).not.toBeNull();
    const [row] = await db.select({ name: users.name }).from(users).where(eq(users.email, email));
    expect(row?.name).toBe('eve.k');
  });

  it('cuts a long name from the provider by characters, never inside a surrogate pair', async () => {
    const email = `long-${randomBytes(3).toString('hex')}@acme.test`;
    const who = person({ email, name: `a${'😀'.repeat(200)}` });
    idp.nextLogin = who;
    const { location } = await browserSignIn(app, 'acme');
    expect(sessionTokenOf(location)).not.toBeNull();
    const [row] = await db.select({ name: users.name }).from(users).where(eq(users.email, email));
    expect(row?.name).toBe(`a${'😀'.repeat(199)}`);
    expect(row?.name).not.toMatch(/\p{Cs}/u);
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

describe('starting sign-ins', () => {
  it('limits how many one address may start per minute', async () => {
    const start = () =>
      app.inject({
        method: 'GET',
        url: '/api/auth/sso/acme/start',
        headers: { host: 'signpost.test' },
        remoteAddress: '10.77.0.1',
      });
    for (let i = 0; i < 30; i += 1) expect((await start()).headers.location).toMatch(/^http/);
    const before = await countRows(db, 'sso_attempts');
    const blocked = ssoErrorOf(String((await start()).headers.location));
    expect(blocked?.code).toBe('SSO_RATE_LIMITED');
    expect(blocked?.message).toMatch(/Try again in \d+ seconds/);
    expect(await countRows(db, 'sso_attempts')).toBe(before);
    const other = await app.inject({
      method: 'GET',
      url: '/api/auth/sso/acme/start',
      headers: { host: 'signpost.test' },
      remoteAddress: '10.77.0.2',
    });
    expect(String(other.headers.location)).toMatch(/^http/);
  });
});
