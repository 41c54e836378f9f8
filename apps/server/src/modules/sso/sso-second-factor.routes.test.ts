// decision 0048: single sign-on never skips a person's Signpost second factor. The real
// provider of test/support signs people in with and without `amr`/`acr`.
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, sessions, sessionSso } from '../../db/schema/index.ts';
import { countRows, createUser, signIn } from '../../../test/factories.ts';
import {
  codeAt,
  stepNow,
  turnOnSecondFactor,
  wrongCodeFor,
} from '../../../test/support/second-factor.ts';
import { setUpSso } from '../../../test/support/sso-app.ts';
import {
  browserSignIn,
  sessionTokenOf,
  ssoErrorOf,
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

const sessionsOf = (userId: string) =>
  db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), sql`${sessions.revokedAt} IS NULL`));

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
    // Only hashes are stored.
    const stored = await countRows(db, 'sso_second_factor_tickets', {
      column: 'ticket_hash',
      value: result.ticket ?? '',
    });
    expect(stored).toBe(0);
  });

  it('opens the session with a current code, once: the ticket and the code never work again', async () => {
    const who = await personWithFactor();
    idp.nextLogin = who.account;
    const { ticket, browser } = await signInAt('acme-link');
    const code = codeAt(who.secret, stepNow());
    const done = await finish(ticket!, browser, { totp: code });
    expect(done.statusCode, done.body).toBe(201);
    expect(done.headers['cache-control']).toBe('no-store');
    const { token } = done.json<{ token: string }>();
    expect((await me(token)).json().user.id).toBe(who.user.id);
    // The session keeps its provider and ID token, for signing out there.
    const [row] = await db
      .select({ providerId: sessionSso.providerId })
      .from(sessionSso)
      .innerJoin(sessions, eq(sessions.id, sessionSso.sessionId))
      .where(eq(sessions.userId, who.user.id));
    expect(row?.providerId).toBe('acme-link');
    const [event] = await db
      .select({ details: auditLog.details })
      .from(auditLog)
      .where(and(eq(auditLog.action, 'sign-in.succeeded'), eq(auditLog.actorId, who.user.id)))
      .orderBy(sql`${auditLog.occurredAt} DESC`)
      .limit(1);
    expect(event?.details).toMatchObject({
      method: 'sso',
      provider: 'acme-link',
      secondFactor: true,
    });

    const count = (await sessionsOf(who.user.id)).length;
    const again = await finish(ticket!, browser, { totp: codeAt(who.secret, stepNow(1)) });
    expect(again.statusCode).toBe(401);
    expect(again.json().code).toBe('SIGN_IN_EXPIRED');
    // The code accepted here cannot sign in with the password either (no replay).
    const replay = await app.inject({
      method: 'POST',
      url: '/api/auth/sessions',
      payload: {
        type: 'email-password',
        email: who.user.email,
        password: 'correct horse battery',
        totp: code,
      },
    });
    expect(replay.json().code).toBe('SECOND_FACTOR_INVALID');
    expect((await sessionsOf(who.user.id)).length).toBe(count);
  });

  it('accepts a recovery code instead, once', async () => {
    const who = await personWithFactor();
    idp.nextLogin = who.account;
    const first = await signInAt('acme-link');
    const done = await finish(first.ticket!, first.browser, { recoveryCode: who.recoveryCodes[0] });
    expect(done.statusCode, done.body).toBe(201);
    idp.nextLogin = who.account;
    const second = await signInAt('acme-link');
    const reused = await finish(second.ticket!, second.browser, {
      recoveryCode: who.recoveryCodes[0],
    });
    expect(reused.statusCode).toBe(401);
    expect(reused.json().code).toBe('SECOND_FACTOR_INVALID');
  });

  it('refuses a wrong code (401, audited, counted) and ends the ticket after five tries', async () => {
    const who = await personWithFactor();
    idp.nextLogin = who.account;
    const { ticket, browser } = await signInAt('acme-link');
    const before = (await sessionsOf(who.user.id)).length;
    for (let i = 0; i < 5; i += 1) {
      const wrong = await finish(ticket!, browser, { totp: wrongCodeFor(who.secret) });
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json()).toMatchObject({ code: 'SECOND_FACTOR_INVALID' });
    }
    const failures = await db
      .select({ id: auditLog.id })
      .from(auditLog)
      .where(and(eq(auditLog.action, 'sign-in.failed'), eq(auditLog.targetId, who.user.id)));
    expect(failures.length).toBe(5);
    const late = await finish(ticket!, browser, { totp: codeAt(who.secret, stepNow()) });
    expect(late.statusCode).toBe(401);
    expect(late.json().code).toBe('SIGN_IN_EXPIRED');
    expect((await sessionsOf(who.user.id)).length).toBe(before);
  });

  it('falls under the throttle of sign-in: wrong codes count for the account', async () => {
    const who = await personWithFactor();
    const account = `account:${who.user.email.toLowerCase()}`;
    idp.nextLogin = who.account;
    const { ticket, browser } = await signInAt('acme-link');
    await finish(ticket!, browser, { totp: wrongCodeFor(who.secret) });
    const counted = await db.execute(
      sql`SELECT failures FROM login_throttle WHERE key = ${account}`,
    );
    expect((counted as unknown as { rows: { failures: number }[] }).rows[0]?.failures).toBe(1);
  });

  it('works only in the browser that signed in, and not after it expires', async () => {
    const who = await personWithFactor();
    idp.nextLogin = who.account;
    const { ticket, browser } = await signInAt('acme-link');
    const code = codeAt(who.secret, stepNow());
    for (const other of [null, 'another-browser-secret-aaaaaaaaaaaaaaaaaaaaaaa']) {
      const refused = await finish(ticket!, other, { totp: code });
      expect(refused.statusCode).toBe(401);
      expect(refused.json().code).toBe('SIGN_IN_EXPIRED');
    }
    await db.execute(
      sql`UPDATE sso_second_factor_tickets SET expires_at = now() - interval '1 second'
          WHERE user_id = ${who.user.id}`,
    );
    const expired = await finish(ticket!, browser, { totp: code });
    expect(expired.json().code).toBe('SIGN_IN_EXPIRED');
  });

  it('asks for a code before looking at the ticket', async () => {
    const refused = await finish('whatever', 'x', {});
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(refused.json().msg).toMatch(/code/);
  });

  it.each([[['pwd', 'otp']], [['mfa']], [['pwd', 'hwk']], [['hwk', 'fpt']]])(
    'trusts the provider when its amr %j says multi-factor',
    async (amr) => {
      const who = await personWithFactor();
      idp.nextLogin = { ...who.account, amr };
      const { location } = await signInAt('acme-link');
      const token = sessionTokenOf(location);
      expect(token, location).not.toBeNull();
      expect((await me(token!)).json().user.id).toBe(who.user.id);
    },
  );

  it.each([[['pwd']], [['otp']], [['hwk']], [['pwd', 'kba']], [['user', 'rba']]])(
    'asks for the code when the amr %j is one factor',
    async (amr) => {
      const who = await personWithFactor();
      idp.nextLogin = { ...who.account, amr };
      const { location } = await signInAt('acme-link');
      expect(sessionTokenOf(location)).toBeNull();
      expect(location).toMatch(/#sso-second-factor\?ticket=/);
    },
  );

  it('trusts an acr the provider is configured with, and no other', async () => {
    const who = await personWithFactor();
    idp.nextLogin = { ...who.account, acr: 'urn:acme:mfa' };
    expect(sessionTokenOf((await signInAt('acme-link')).location)).not.toBeNull();
    idp.nextLogin = { ...who.account, acr: 'urn:acme:password' };
    expect((await signInAt('acme-link')).location).toMatch(/#sso-second-factor\?ticket=/);
  });

  it('still signs in a person without a second factor at once', async () => {
    idp.nextLogin = {
      sub: `plain-${Date.now()}`,
      email: `plain-${Date.now()}@acme.test`,
      email_verified: true,
    };
    const { location } = await signInAt('acme');
    expect(sessionTokenOf(location)).not.toBeNull();
    expect(ssoErrorOf(location)).toBeNull();
  });
});
