// decision 0048: a person without a password confirms who they are with a fresh single
// sign-on (prompt=login, max_age, auth_time checked), which stamps their current session.
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { sessions } from '../../db/schema/index.ts';
import { setUpSso } from '../../../test/support/sso-app.ts';
import {
  browserSignIn,
  callback,
  followProvider,
  sessionTokenOf,
  ssoErrorOf,
} from '../../../test/support/sso-browser.ts';

const { idp, app, db, person } = await setUpSso();

/** A person of the provider, signed in by it, whose session is 10 minutes old. */
async function staleSsoPerson() {
  const who = person();
  idp.nextLogin = who;
  const token = sessionTokenOf((await browserSignIn(app, 'acme')).location);
  expect(token).not.toBeNull();
  const headers = { authorization: `Bearer ${token}` };
  await db
    .update(sessions)
    .set({ reauthenticatedAt: sql`now() - interval '10 minutes'` })
    .where(sql`${sessions.id} IN (SELECT id FROM sessions WHERE revoked_at IS NULL)`);
  return { who, headers };
}

const makeToken = (headers: Record<string, string>) =>
  app.inject({ method: 'POST', url: '/api/auth/tokens', headers, payload: { name: 'script' } });

async function startReauthentication(headers: Record<string, string>, provider = 'acme') {
  const response = await app.inject({
    method: 'POST',
    url: '/api/auth/reauthenticate/sso',
    headers,
    payload: { provider, returnTo: '/settings' },
  });
  const cookie =
    /signpost_sso=([^;]*)/.exec(String(response.headers['set-cookie'] ?? ''))?.[1] ?? null;
  return { response, cookie };
}

// Who may re-authenticate where, and what the provider must prove (the same person, just
// now, with more than one factor when they have a second factor), are the single sign-on
// service's (sso.service.test.ts). Here, what HTTP shows: the answers, the cookie and the
// redirect back.
describe('re-authentication by single sign-on', () => {
  it('answers the provider address, and returns to the page once the session is stamped', async () => {
    const { who, headers } = await staleSsoPerson();
    expect((await makeToken(headers)).json().code).toBe('REAUTHENTICATION_REQUIRED');
    const methods = await app.inject({ method: 'GET', url: '/api/auth/reauthenticate', headers });
    expect(methods.json()).toMatchObject({
      password: false,
      secondFactor: false,
      providers: [{ id: 'acme', name: 'Acme SSO' }],
      recent: false,
    });

    const { response, cookie } = await startReauthentication(headers);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(cookie).toMatch(/^[\w-]{43}$/);
    const location = new URL(response.json().location);
    expect(location.origin).toBe(idp.issuer);

    idp.nextLogin = who;
    const back = await callback(app, await followProvider(location.href, 'acme'), cookie);
    expect(back).toBe('/settings#reauthenticated');
    expect((await makeToken(headers)).statusCode).toBe(201);
  });

  it('ends on the login screen when the provider signed in another person', async () => {
    const { headers } = await staleSsoPerson();
    const { response, cookie } = await startReauthentication(headers);
    idp.nextLogin = person();
    const back = await callback(
      app,
      await followProvider(response.json().location, 'acme'),
      cookie,
    );
    expect(ssoErrorOf(back)).toMatchObject({ code: 'SSO_REAUTHENTICATION_FAILED' });
  });

  it('only at a provider the person signs in with (404), never for an access token (403): no cookie', async () => {
    const who = person();
    idp.nextLogin = who;
    const token = sessionTokenOf((await browserSignIn(app, 'acme')).location);
    const headers = { authorization: `Bearer ${token}` };
    const pat = (await makeToken(headers)).json().token as string;
    const elsewhere = await startReauthentication(headers, 'acme-link');
    expect(elsewhere.response.statusCode).toBe(404);
    expect(elsewhere.cookie).toBeNull();
    const byToken = await startReauthentication({ authorization: `Bearer ${pat}` });
    expect(byToken.response.statusCode).toBe(403);
    expect(byToken.cookie).toBeNull();
  });
});
