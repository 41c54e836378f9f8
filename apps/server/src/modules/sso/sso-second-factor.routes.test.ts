// decision 0048: single sign-on never skips a person's Signpost second factor. The real
// provider of test/support signs people in with and without `amr`/`acr`.
import { describe, expect, it } from 'vitest';
import { countRows, createUser, signIn } from '../../../test/factories.ts';
import { codeAt, stepNow, turnOnSecondFactor } from '../../../test/support/second-factor.ts';
import { setUpSso } from '../../../test/support/sso-app.ts';
import {
  browserSignIn,
  sessionTokenOf,
  type SignInResult,
} from '../../../test/support/sso-browser.ts';

const { idp, app, db, org, me } = await setUpSso();

/** A password account of Acme with the second factor on, known to the provider. */
async function personWithFactor() {
  const user = await createUser(db, org.id, {
    email: `factor-${Math.random().toString(36).slice(2, 8)}@acme.test`,
  });
  const { headers } = await signIn(app, user);
  const factor = await turnOnSecondFactor(app, headers);
  const account = { sub: `sub-${user.id}`, email: user.email, email_verified: true };
  return { user, ...factor, account };
}

/** Walks a sign-in and calls the callback itself, keeping its cookies. */
async function signInAt(provider: string) {
  const walked: SignInResult = await browserSignIn(app, provider, { stopAtCallback: true });
  const { pathname, search } = new URL(walked.callbackUrl ?? '');
  const response = await app.inject({
    method: 'GET',
    url: `${pathname}${search}`,
    headers: { cookie: `signpost_sso=${walked.cookie}` },
  });
  expect(response.statusCode).toBe(302);
  const location = String(response.headers.location);
  const cookies = ([] as string[]).concat(response.headers['set-cookie'] ?? []);
  const ticketCookie = cookies.find((c) => c.startsWith('signpost_sso_2fa=')) ?? null;
  const ticket = /#sso-second-factor\?ticket=([^&]+)$/.exec(location)?.[1] ?? null;
  return {
    location,
    ticket: ticket && decodeURIComponent(ticket),
    ticketCookie,
    browser: /^signpost_sso_2fa=([^;]*)/.exec(ticketCookie ?? '')?.[1] ?? null,
  };
}

const finish = (
  ticket: string,
  browser: string | null,
  proof: { totp?: string; recoveryCode?: string },
  ip = '10.50.0.1',
) =>
  app.inject({
    method: 'POST',
    url: '/api/auth/sso/second-factor',
    remoteAddress: ip,
    headers: browser ? { cookie: `signpost_sso_2fa=${browser}` } : {},
    payload: { ticket, ...proof },
  });

// What a ticket allows — codes, recovery codes, tries, the throttle, which amr and acr are
// trusted — is the single sign-on service's (sso.service.test.ts). Here, what HTTP shows: the
// redirect and the cookie of a sign-in that waits for the code, and the answers of the call
// that finishes it.
describe('single sign-on of a person with a second factor', () => {
  it('opens no session after the provider alone: it asks for the code, bound to this browser', async () => {
    const who = await personWithFactor();
    const before = await countRows(db, 'sessions');
    idp.nextLogin = who.account;
    const result = await signInAt('acme-link');
    expect(sessionTokenOf(result.location)).toBeNull();
    expect(result.location).toMatch(/^\/#sso-second-factor\?ticket=[\w-]{43}$/);
    expect(result.ticketCookie).toMatch(
      /^signpost_sso_2fa=[\w-]{43}; Path=\/api\/auth\/sso\/; Max-Age=300; HttpOnly; SameSite=Lax$/,
    );
    expect(await countRows(db, 'sessions')).toBe(before);
  });

  it('answers 201 with the session token for a current code, never to be cached; 401 once used', async () => {
    const who = await personWithFactor();
    idp.nextLogin = who.account;
    const { ticket, browser } = await signInAt('acme-link');
    const done = await finish(ticket!, browser, { totp: codeAt(who.secret, stepNow()) });
    expect(done.statusCode, done.body).toBe(201);
    expect(done.headers['cache-control']).toBe('no-store');
    const { token } = done.json<{ token: string }>();
    expect((await me(token)).json().user.id).toBe(who.user.id);
    const again = await finish(ticket!, browser, { totp: codeAt(who.secret, stepNow(1)) });
    expect(again.statusCode).toBe(401);
    expect(again.json().code).toBe('SIGN_IN_EXPIRED');
  });

  it('reads the ticket’s cookie: without it the ticket is 401', async () => {
    const who = await personWithFactor();
    idp.nextLogin = who.account;
    const { ticket } = await signInAt('acme-link');
    const refused = await finish(ticket!, null, { totp: codeAt(who.secret, stepNow()) });
    expect(refused.statusCode).toBe(401);
    expect(refused.json().code).toBe('SIGN_IN_EXPIRED');
  });

  it('asks for a code before looking at the ticket', async () => {
    const refused = await finish('whatever', 'x', {});
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(refused.json().msg).toMatch(/code/);
  });
});
