// decision 0048: a person without a password confirms who they are with a fresh single
// sign-on (prompt=login, max_age, auth_time checked), which stamps their current session.
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { sessions } from '../../db/schema/index.ts';
import { countRows } from '../../../test/factories.ts';
import { setUpSso } from '../../../test/support/sso-app.ts';
import {
  browserSignIn,
  callback,
  followProvider,
  sessionTokenOf,
  ssoErrorOf,
} from '../../../test/support/sso-browser.ts';
import { decodeJwt } from '../../../test/support/sso-provider.ts';

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

describe('re-authentication by single sign-on', () => {
  it('asks the provider for a fresh sign-in and stamps the session that asked, opening none', async () => {
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
    const location = new URL(response.json().location);
    expect(location.origin).toBe(idp.issuer);
    expect(location.searchParams.get('prompt')).toBe('login');
    expect(location.searchParams.get('max_age')).toBe('300');

    const before = await countRows(db, 'sessions');
    idp.nextLogin = who;
    const back = await callback(app, await followProvider(location.href, 'acme'), cookie);
    expect(back).toBe('/settings#reauthenticated');
    expect(await countRows(db, 'sessions')).toBe(before);
    expect((await makeToken(headers)).statusCode).toBe(201);
  });

  it('refuses another person at the provider, and leaves the session as it was', async () => {
    const { headers } = await staleSsoPerson();
    const { response, cookie } = await startReauthentication(headers);
    idp.nextLogin = person();
    const back = await callback(
      app,
      await followProvider(response.json().location, 'acme'),
      cookie,
    );
    expect(ssoErrorOf(back)).toMatchObject({ code: 'SSO_REAUTHENTICATION_FAILED' });
    expect((await makeToken(headers)).json().code).toBe('REAUTHENTICATION_REQUIRED');
  });

  it('refuses a sign-in the provider remembered from long ago (auth_time)', async () => {
    const { who, headers } = await staleSsoPerson();
    const { response, cookie } = await startReauthentication(headers);
    idp.nextLogin = who;
    idp.tokenEndpoint = async (body) => {
      const claims = decodeJwt(String(body.id_token));
      return {
        ...body,
        id_token: await idp.sign({ ...claims, auth_time: Number(claims.iat) - 3600 }),
      };
    };
    const back = await callback(
      app,
      await followProvider(response.json().location, 'acme'),
      cookie,
    );
    expect(ssoErrorOf(back)).toMatchObject({ code: 'SSO_REAUTHENTICATION_FAILED' });
    expect((await makeToken(headers)).json().code).toBe('REAUTHENTICATION_REQUIRED');
  });

  it('only at a provider the person signs in with, and never for an access token', async () => {
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
