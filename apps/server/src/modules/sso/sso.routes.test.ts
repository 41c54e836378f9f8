import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { sessions } from '../../db/schema/index.ts';
import { setUpSso } from '../../../test/support/sso-app.ts';
import {
  browserSignIn,
  handoverOf,
  sessionTokenOf,
  ssoErrorOf,
} from '../../../test/support/sso-browser.ts';
import { handoverCookie } from './handover.ts';

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

// Who may sign in, who is created, linked or refused, what each step stores, and every kind
// of failure are the single sign-on service's (sso.service.test.ts). Here, what HTTP shows:
// the redirects, the cookie that binds a sign-in to its browser, and the fragments the login
// screen reads.
describe('GET /api/auth/sso/:provider/start', () => {
  it('sends the browser to the provider, bound by a cookie', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/api/auth/sso/acme/start',
      headers: { host: 'signpost.test' },
    });
    expect(response.statusCode).toBe(302);
    const target = new URL(String(response.headers.location));
    expect(target.origin).toBe(idp.issuer);
    expect(target.searchParams.get('redirect_uri')).toBe(callbackOf('acme'));
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
});

describe('signing in through the provider', () => {
  it('ends at the app with the session token in the fragment, which signs the person in', async () => {
    const who = person({ name: 'Grace Hopper' });
    idp.nextLogin = who;
    const first = await browserSignIn(app, 'acme');
    expect(first.location).toMatch(/^\/#session\?token=[\w-]{43}&handover=[\w-]{43}$/);
    const token = sessionTokenOf(first.location)!;
    const current = await me(token);
    expect(current.statusCode).toBe(200);
    expect(current.json()).toMatchObject({
      user: { name: 'Grace Hopper', email: who.email, role: 'member' },
      organization: { id: org.id, name: 'Acme' },
      session: { kind: 'session' },
    });
    const menu = await app.inject({
      method: 'GET',
      url: '/api/consumer/menu',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(menu.statusCode).toBe(200);
  });

  it('hands the session over with a value in the fragment and in a cookie of this browser', async () => {
    idp.nextLogin = person();
    const started = await browserSignIn(app, 'acme', { stopAtCallback: true });
    const { pathname, search } = new URL(started.callbackUrl!);
    const response = await app.inject({
      method: 'GET',
      url: `${pathname}${search}`,
      headers: { cookie: `signpost_sso=${started.cookie}` },
    });
    expect(response.statusCode).toBe(302);
    const location = String(response.headers.location);
    const value = handoverOf(location);
    expect(value).toMatch(/^[\w-]{43}$/);
    const cookies = [response.headers['set-cookie']].flat().map(String);
    // The attempt's cookie goes; the hand-over's is the fragment's value, readable by the
    // page (no HttpOnly), for the whole origin, briefly, sent with no request from elsewhere.
    expect(cookies).toContainEqual(expect.stringMatching(/^signpost_sso=; .*Max-Age=0/));
    expect(cookies).toContainEqual(
      `signpost_handover=${value}; Path=/; Max-Age=120; SameSite=Strict`,
    );
    // Every sign-in its own value.
    idp.nextLogin = person();
    expect(handoverOf((await browserSignIn(app, 'acme')).location)).not.toBe(value);
  });

  it('names the hand-over cookie __Host- over https, so no other site can set it', () => {
    expect(handoverCookie('v', true)).toBe(
      '__Host-signpost_handover=v; Path=/; Max-Age=120; SameSite=Strict; Secure',
    );
    expect(handoverCookie('v', false)).not.toMatch(/HttpOnly|Domain|Secure/);
  });

  it('returns to the path it was given, the token in its fragment', async () => {
    idp.nextLogin = person();
    const home = await browserSignIn(app, 'acme', { returnTo: '/collections?open=1' });
    expect(home.location).toMatch(/^\/collections\?open=1#session\?token=/);
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

describe('POST /api/auth/logout', () => {
  it('requires authentication', async () => {
    const response = await app.inject({ method: 'POST', url: '/api/auth/logout' });
    expect(response.statusCode).toBe(401);
  });

  it("ends the session and answers the provider's end-session address", async () => {
    idp.nextLogin = person();
    const token = sessionTokenOf((await browserSignIn(app, 'acme')).location)!;
    const response = await app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.statusCode).toBe(200);
    expect(new URL(response.json().logoutUrl).origin).toBe(idp.issuer);
    expect((await me(token)).statusCode).toBe(401);
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
