// Single sign-on's rules against the service on the test database, with a real OpenID
// provider on a loopback port (test/support/sso-provider.ts): the service starts a sign-in,
// the browser's round trip through the provider is walked (followProvider), and the service
// is handed the callback as the route would hand it. Who may sign in, who is created, linked
// or refused (and audited), what a second factor and a re-authentication ask, and what each
// step stores. The redirects and cookies around them are the routes' (sso*.routes.test.ts).
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import {
  auditLog,
  collections,
  identities,
  invitations,
  organizations,
  sessions,
  sessionSso,
  ssoAttempts,
  ssoSecondFactorTickets,
  users,
} from '../../db/schema/index.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { newId } from '../../lib/ids.ts';
import { createTestServices } from '../../../test/app.ts';
import {
  countRows,
  createOrganization,
  createUser,
  PASSWORD,
  type TestUser,
} from '../../../test/factories.ts';
import { codeAt, stepNow, wrongCodeFor } from '../../../test/support/second-factor.ts';
import { signInTraces, ssoProviders } from '../../../test/support/sso-app.ts';
import { followProvider } from '../../../test/support/sso-browser.ts';
import { decodeJwt, unsignedJwt, type TestAccount } from '../../../test/support/sso-provider.ts';
import { SsoFailure } from './sso-errors.ts';
import { refusal } from '../../../test/support/refusal.ts';

const { idp, env, PUBLIC_URL, callbackOf } = await ssoProviders();
const { services, db } = await createTestServices(env);
const sso = services.sso;
const org = await createOrganization(db, { name: 'Acme' });

afterEach(() => {
  idp.tokenEndpoint = null;
  idp.nextLogin = 'deny';
});

let n = 0;
/** A new account at the provider, of Acme's domain, with a verified e-mail. */
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

let addresses = 0;
/** Each sign-in from its own address, as different people's browsers would be. */
const nextIp = () => {
  addresses += 1;
  return `10.60.${Math.floor(addresses / 250)}.${(addresses % 250) + 1}`;
};

interface Walked {
  providerId: string;
  /** The query string the provider sent the browser back with. */
  query: string;
  browserSecret: string;
  ip: string;
}

/** The browser's round trip: from the provider's address to the callback, as `who`. */
async function roundTrip(
  providerId: string,
  started: { location: string; browserSecret: string },
  who: TestAccount | 'deny',
  ip: string,
): Promise<Walked> {
  idp.nextLogin = who;
  const callbackUrl = await followProvider(started.location, providerId);
  return { providerId, query: new URL(callbackUrl).search.slice(1), ...started, ip };
}

/** Starts a sign-in at the service and walks it through the provider, up to the callback. */
async function walk(providerId: string, who: TestAccount | 'deny', returnTo?: string) {
  const ip = nextIp();
  return roundTrip(providerId, await sso.start(providerId, returnTo, ip), who, ip);
}

/** Hands the service the callback of a walked sign-in, as the route would. */
const finish = (walked: Walked, changes: { query?: string; browserSecret?: string } = {}) =>
  sso.callback({
    providerId: walked.providerId,
    query: walked.query,
    browserSecret: walked.browserSecret,
    ip: walked.ip,
    userAgent: 'SSO Browser',
    ...changes,
  });

/** A whole sign-in; the result of its callback. */
const signInAt = async (providerId: string, who: TestAccount | 'deny', returnTo?: string) =>
  finish(await walk(providerId, who, returnTo));

/** A whole sign-in that must open a session; its token and the caller it makes. */
async function sessionAt(providerId: string, who: TestAccount) {
  const result = await signInAt(providerId, who);
  if (result.kind !== 'session') throw new Error(`expected a session, got ${result.kind}`);
  const me = await services.auth.authenticate(result.token);
  if (!me) throw new Error('the session did not authenticate');
  return { token: result.token, me };
}

/** The code and message of the single sign-on failure a call ends with. */
async function failureOf(work: Promise<unknown>) {
  const error: unknown = await work.then(
    () => null,
    (caught: unknown) => caught,
  );
  if (!(error instanceof SsoFailure)) throw new Error(`expected a failure, got ${String(error)}`);
  return { code: error.code, message: error.message };
}

const traces = (who: { sub: string; email?: string }) => signInTraces(db, who);

/** A refused sign-in: its code and a message for people, and nothing created. */
async function expectRefused(
  who: { sub: string; email?: string },
  run: () => Promise<unknown>,
  code: string,
  message: RegExp,
) {
  const before = await traces(who);
  const failure = await failureOf(run());
  expect(failure).toEqual({ code, message: expect.stringMatching(message) });
  expect(failure.message).not.toMatch(/\bat \w+ \(|Error:|undefined/);
  expect(await traces(who)).toEqual({ ...before, users: 0, identities: 0 });
  return failure;
}

const userByEmail = async (email: string) =>
  (await db.select().from(users).where(eq(users.email, email)))[0];
const auditOf = (action: string, email: string) =>
  db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.organizationId, org.id)))
    .then((rows) => rows.filter((row) => row.actorEmail === email));
const setDomains = (domains: string[]) =>
  db.update(organizations).set({ ssoDomains: domains }).where(eq(organizations.id, org.id));

/** A signed-in caller of a password account, as the app would authenticate them. */
async function signedIn(user: TestUser): Promise<AuthContext> {
  const { token } = await services.auth.startSession(db, user.id, '10.61.0.1', 'Browser');
  const me = await services.auth.authenticate(token);
  if (!me) throw new Error('the session did not authenticate');
  return me;
}

/** A password account of Acme with the second factor on, known to the provider. */
async function personWithFactor() {
  const user = await createUser(db, org.id, {
    email: `factor-${randomBytes(3).toString('hex')}@acme.test`,
  });
  const me = await signedIn(user);
  const { secret } = await services.secondFactor.setup(me);
  const { recoveryCodes } = await services.secondFactor.enable(me, codeAt(secret, stepNow(-1)), {});
  const account = { sub: `sub-${user.id}`, email: user.email, email_verified: true };
  return { user, secret, recoveryCodes, account };
}

/** A sign-in that must wait for the second factor; its ticket and browser secret. */
async function ticketAt(providerId: string, who: TestAccount) {
  const walked = await walk(providerId, who);
  const result = await finish(walked);
  if (result.kind !== 'second-factor') throw new Error(`expected a ticket, got ${result.kind}`);
  return { ...result, ip: walked.ip };
}

/** Finishes a ticket with a code, from the browser that holds it unless another is named. */
const completeWith = (
  ticket: { ticket: string; browserSecret: string | undefined },
  proof: { totp?: string; recoveryCode?: string },
) =>
  sso.completeSecondFactor({
    ticket: ticket.ticket,
    ...proof,
    browserSecret: ticket.browserSecret,
    ip: '10.62.0.1',
    userAgent: 'SSO Browser',
  });

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('starting a sign-in', () => {
  it('answers the provider’s address with PKCE (S256), state and nonce, and a secret for this browser', async () => {
    const started = await sso.start('acme', undefined, nextIp());
    const target = new URL(started.location);
    expect(target.origin).toBe(idp.issuer);
    expect(target.searchParams.get('client_id')).toBe('signpost');
    expect(target.searchParams.get('response_type')).toBe('code');
    expect(target.searchParams.get('redirect_uri')).toBe(callbackOf('acme'));
    expect(target.searchParams.get('code_challenge_method')).toBe('S256');
    expect(target.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(target.searchParams.get('state')?.length).toBeGreaterThanOrEqual(22);
    expect(target.searchParams.get('nonce')?.length).toBeGreaterThanOrEqual(22);
    expect(target.searchParams.get('prompt')).toBeNull();
    expect(started.browserSecret).toMatch(/^[\w-]{43}$/);
    // The attempt keeps only the hash of the browser's secret, for ten minutes.
    const [attempt] = await db
      .select()
      .from(ssoAttempts)
      .where(eq(ssoAttempts.state, target.searchParams.get('state') ?? ''));
    expect(attempt).toMatchObject({
      providerId: 'acme',
      nonce: target.searchParams.get('nonce'),
      browserHash: sha256(started.browserSecret),
      returnTo: '/',
      usedAt: null,
      sessionId: null,
    });
    const minutes = ((attempt?.expiresAt.getTime() ?? 0) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(9);
    expect(minutes).toBeLessThanOrEqual(10);
  });

  it('ends quickly when the provider is down, storing nothing', async () => {
    const before = await countRows(db, 'sso_attempts');
    expect(await failureOf(sso.start('down', undefined, nextIp()))).toEqual({
      code: 'SSO_PROVIDER_UNAVAILABLE',
      message: expect.stringMatching(/^Down SSO cannot be reached right now/),
    });
    expect(await countRows(db, 'sso_attempts')).toBe(before);
  });

  it('limits how many sign-ins one address may start per minute', async () => {
    for (let i = 0; i < 30; i += 1) await sso.start('acme', undefined, '10.77.0.1');
    const before = await countRows(db, 'sso_attempts');
    expect(await failureOf(sso.start('acme', undefined, '10.77.0.1'))).toEqual({
      code: 'SSO_RATE_LIMITED',
      message: expect.stringMatching(/Try again in \d+ seconds\.$/),
    });
    expect(await countRows(db, 'sso_attempts')).toBe(before);
    expect((await sso.start('acme', undefined, '10.77.0.2')).location).toMatch(/^http/);
  });

  it('clears away the attempts of a day ago', async () => {
    const old = await sso.start('acme', undefined, nextIp());
    const state = new URL(old.location).searchParams.get('state') ?? '';
    await db
      .update(ssoAttempts)
      .set({ expiresAt: sql`now() - interval '25 hours'` })
      .where(eq(ssoAttempts.state, state));
    await sso.start('acme', undefined, nextIp());
    expect(await countRows(db, 'sso_attempts', { column: 'state', value: state })).toBe(0);
  });
});

describe('signing in through the provider', () => {
  it('creates the person on first sign-in, with My Space and their identity, audited', async () => {
    const who = person({ name: 'Grace Hopper' });
    const result = await signInAt('acme', who);
    expect(result).toMatchObject({ kind: 'session', returnTo: '/' });
    const user = await userByEmail(who.email);
    expect(user).toMatchObject({
      organizationId: org.id,
      name: 'Grace Hopper',
      role: 'member',
      status: 'active',
      passwordHash: null,
      lastSignInAt: expect.any(Date),
    });
    const token = result.kind === 'session' ? result.token : '';
    expect(await services.auth.authenticate(token)).toMatchObject({ userId: user?.id });
    const roots = await db
      .select()
      .from(collections)
      .where(eq(collections.ownerUserId, user?.id ?? ''));
    expect(roots).toMatchObject([{ isRoot: true, name: 'My Space', parentId: null }]);
    const ids = await db
      .select()
      .from(identities)
      .where(eq(identities.userId, user?.id ?? ''));
    expect(ids).toMatchObject([
      { issuer: idp.issuer, subject: who.sub, providerId: 'acme', email: who.email },
    ]);
    expect(await auditOf('person.created', who.email)).toMatchObject([
      {
        actorId: user?.id,
        targetId: user?.id,
        after: { name: 'Grace Hopper', email: who.email, role: 'member' },
        details: { via: 'single sign-on', provider: 'acme' },
        userAgent: 'SSO Browser',
      },
    ]);
    expect(await auditOf('sign-in.succeeded', who.email)).toMatchObject([
      { actorId: user?.id, targetType: 'session', details: { method: 'sso', provider: 'acme' } },
    ]);
  });

  it('finds the same person by issuer and subject, even with a new e-mail, and notes it', async () => {
    const who = person();
    const first = await sessionAt('acme', who);
    const renamed = who.email.replace('person', 'renamed');
    const second = await sessionAt('acme', { ...who, email: renamed });
    expect(second.me.userId).toBe(first.me.userId);
    expect(second.token).not.toBe(first.token);
    expect(await countRows(db, 'identities', { column: 'user_id', value: first.me.userId })).toBe(
      1,
    );
    expect(await countRows(db, 'users', { column: 'email', value: who.email })).toBe(1);
    expect(await countRows(db, 'users', { column: 'email', value: renamed })).toBe(0);
    const [identity] = await db.select().from(identities).where(eq(identities.subject, who.sub));
    expect(identity?.email).toBe(renamed);
  });

  it('returns to / for any address that is not a path of this site', async () => {
    for (const returnTo of [
      'https://evil.example',
      '//evil.example',
      '/\\evil.example',
      'javascript:alert(1)',
      '/%2F%2Fevil.example',
    ]) {
      expect(await signInAt('acme', person(), returnTo), returnTo).toMatchObject({
        kind: 'session',
        returnTo: '/',
      });
    }
  });

  it('names a new person from a claim that can be shown, never from controls or blanks', async () => {
    const who = person({
      name: 'Eve\u0000\u202e',
      given_name: '\u200b\u200b',
      family_name: '\u2066',
      preferred_username: 'eve.k',
    });
    await sessionAt('acme', who);
    expect((await userByEmail(who.email))?.name).toBe('eve.k');
  });

  it('takes bidirectional controls out of the name and e-mail a provider sends', async () => {
    const who = person({ name: 'invoice\u202egnp.exe \u2067Doe\u2069' });
    const claimed = who.email.replace('@', '\u2066@');
    await sessionAt('acme', { ...who, email: claimed });
    const stored = await userByEmail(who.email);
    expect(stored?.name).toBe('invoicegnp.exe Doe');
    expect(stored?.email).toBe(who.email);
  });

  it('cuts a long name from the provider by characters, never inside a surrogate pair', async () => {
    const who = person({ name: `a${'😀'.repeat(200)}` });
    await sessionAt('acme', who);
    const name = (await userByEmail(who.email))?.name;
    expect(name).toBe(`a${'😀'.repeat(199)}`);
    expect(name).not.toMatch(/\p{Cs}/u);
  });
});

describe('state, code and the browser', () => {
  it('refuses a replayed callback (state used once)', async () => {
    const walked = await walk('acme', person());
    expect((await finish(walked)).kind).toBe('session');
    const sessionsBefore = await countRows(db, 'sessions');
    expect((await failureOf(finish(walked))).code).toBe('SSO_STATE_INVALID');
    expect(await countRows(db, 'sessions')).toBe(sessionsBefore);
  });

  it('refuses a wrong state, and a callback from a browser that did not start the sign-in', async () => {
    const who = person();
    const walked = await walk('acme', who);
    const wrong = new URLSearchParams(walked.query);
    wrong.set('state', 'not-the-state-of-this-attempt');
    await expectRefused(
      who,
      () => finish(walked, { query: wrong.toString() }),
      'SSO_STATE_INVALID',
      /expired or was already used/,
    );
    for (const browserSecret of [undefined, 'a-cookie-of-another-browser-aaaaaaaaaaaaaaaaa']) {
      await expectRefused(
        who,
        () =>
          sso.callback({
            providerId: 'acme',
            query: walked.query,
            browserSecret,
            ip: walked.ip,
            userAgent: undefined,
          }),
        'SSO_STATE_INVALID',
        /another browser/,
      );
    }
    // The attempt survived those: the browser that started it can still finish.
    expect((await finish(walked)).kind).toBe('session');
  });

  it('lets only one of two simultaneous callbacks with the same state through', async () => {
    const who = person();
    const walked = await walk('acme', who);
    const results = await Promise.allSettled([finish(walked), finish(walked)]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const lost = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect((await failureOf(Promise.reject(lost?.reason))).code).toBe('SSO_STATE_INVALID');
    expect(await countRows(db, 'identities', { column: 'subject', value: who.sub })).toBe(1);
  });

  it('refuses an attempt older than ten minutes', async () => {
    const who = person();
    const walked = await walk('acme', who);
    const state = new URLSearchParams(walked.query).get('state') ?? '';
    await db
      .update(ssoAttempts)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(ssoAttempts.state, state));
    await expectRefused(who, () => finish(walked), 'SSO_STATE_INVALID', /expired/);
  });

  it('refuses a replayed authorization code (the provider rejects it)', async () => {
    const first = await walk('acme', person());
    expect((await finish(first)).kind).toBe('session');
    // A new attempt in the same browser, finished with the old code.
    const other = person();
    const second = await walk('acme', other);
    const forged = new URLSearchParams(second.query);
    forged.set('code', new URLSearchParams(first.query).get('code') ?? '');
    await expectRefused(
      other,
      () => finish(second, { query: forged.toString() }),
      'SSO_CODE_REJECTED',
      /did not accept/,
    );
  });

  it('refuses when the provider answers another error, never showing its words', async () => {
    const who = person();
    const walked = await walk('acme', who);
    const query = new URLSearchParams(walked.query);
    query.delete('code');
    query.set('error', 'temporarily_unavailable');
    query.set('error_description', '<script>alert(1)</script>');
    const failure = await expectRefused(
      who,
      () => finish(walked, { query: query.toString() }),
      'SSO_PROVIDER_ERROR',
      /could not complete the sign-in/,
    );
    expect(failure.message).not.toContain('script');
  });

  it('refuses a callback without a code', async () => {
    const who = person();
    const walked = await walk('acme', who);
    const query = new URLSearchParams(walked.query);
    query.delete('code');
    expect((await failureOf(finish(walked, { query: query.toString() }))).code).toMatch(/^SSO_/);
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
    [
      'an unsigned token (alg: none)',
      // The real provider issues a real token; it is replaced at the token endpoint with the
      // same claims under {"alg":"none"} and no signature.
      async (body: Record<string, unknown>) => ({
        ...body,
        id_token: unsignedJwt(decodeJwt(String(body.id_token))),
      }),
      'SSO_TOKEN_INVALID',
      /signing algorithm refused/,
    ],
  ])('refuses %s', async (_name, tamper, code, message) => {
    const who = person();
    idp.tokenEndpoint = tamper;
    await expectRefused(who, () => signInAt('acme', who), code, message);
  });

  it('refuses a tampered token (claims changed after signing)', async () => {
    const who = person();
    const victim = person();
    idp.tokenEndpoint = async (body) => {
      const [header, , signature] = String(body.id_token).split('.');
      const claims = { ...decodeJwt(String(body.id_token)), sub: victim.sub };
      const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
      return { ...body, id_token: `${header}.${payload}.${signature}` };
    };
    await expectRefused(who, () => signInAt('acme', who), 'SSO_TOKEN_INVALID', /bad signature/);
    expect(await countRows(db, 'identities', { column: 'subject', value: victim.sub })).toBe(0);
  });

  it('ends when the token endpoint is down', async () => {
    const who = person();
    idp.tokenEndpoint = 'down';
    await expectRefused(
      who,
      () => signInAt('acme', who),
      'SSO_PROVIDER_UNAVAILABLE',
      /cannot be reached/,
    );
  });
});

describe('who may sign in', () => {
  it('not a person whose e-mail domain the provider is not allowed for', async () => {
    const who = person({ email: `mallory-${randomBytes(3).toString('hex')}@elsewhere.test` });
    await expectRefused(
      who,
      () => signInAt('acme', who),
      'SSO_DOMAIN_NOT_ALLOWED',
      /elsewhere\.test cannot sign in with Acme SSO/,
    );
  });

  it('not a person with an unverified e-mail, when the provider requires verified ones', async () => {
    const who = person({ email_verified: false });
    await expectRefused(
      who,
      () => signInAt('acme', who),
      'SSO_EMAIL_MISSING',
      /verified e-mail address/,
    );
  });

  it('not a person without an e-mail address', async () => {
    const who: TestAccount = { sub: `no-mail-${randomBytes(3).toString('hex')}`, name: 'No Mail' };
    await expectRefused(who, () => signInAt('acme', who), 'SSO_EMAIL_MISSING', /an e-mail address/);
  });

  it('not an e-mail address with a control character, and nothing is stored', async () => {
    const who = person({ email: `nul\u0000-${randomBytes(3).toString('hex')}@acme.test` });
    const counts = async () => ({
      users: await countRows(db, 'users'),
      identities: await countRows(db, 'identities'),
      sessions: await countRows(db, 'sessions'),
    });
    const before = await counts();
    expect(await failureOf(signInAt('acme', who))).toEqual({
      code: 'SSO_EMAIL_MISSING',
      message: expect.stringMatching(/an e-mail address/),
    });
    expect(await counts()).toEqual(before);
  });

  it('not into an organization that does not exist: the provider is misconfigured', async () => {
    const who = person();
    await expectRefused(
      who,
      () => signInAt('lost', who),
      'SSO_MISCONFIGURED',
      /not set up completely/,
    );
  });

  it('not a disabled person, audited naming them', async () => {
    const who = person();
    await sessionAt('acme', who);
    const user = await userByEmail(who.email);
    await db.update(users).set({ status: 'disabled' }).where(eq(users.email, who.email));
    const sessionsBefore = await countRows(db, 'sessions');
    expect(await failureOf(signInAt('acme', who))).toEqual({
      code: 'SSO_ACCOUNT_DISABLED',
      message: 'Your account is disabled. Ask your administrator to enable it.',
    });
    expect(await countRows(db, 'sessions')).toBe(sessionsBefore);
    expect(await auditOf('sign-in.failed', who.email)).toMatchObject([
      {
        actorId: null,
        targetType: 'person',
        targetId: user?.id,
        details: { method: 'sso', provider: 'acme', reason: 'SSO_ACCOUNT_DISABLED' },
      },
    ]);
  });
});

describe('an existing password account with the same e-mail', () => {
  const account = async (organizationId = org.id) =>
    createUser(db, organizationId, { email: `ada-${randomBytes(3).toString('hex')}@acme.test` });

  it('is never linked by a provider that is not trusted for linking, and the refusal is audited', async () => {
    const existing = await account();
    const who = person({ email: existing.email });
    const sessionsBefore = await countRows(db, 'sessions');
    expect(await failureOf(signInAt('acme', who))).toEqual({
      code: 'SSO_ACCOUNT_EXISTS',
      message: expect.stringMatching(/Sign in with your e-mail and password/),
    });
    expect(await countRows(db, 'identities', { column: 'subject', value: who.sub })).toBe(0);
    expect(await countRows(db, 'users', { column: 'email', value: existing.email })).toBe(1);
    expect(await countRows(db, 'sessions')).toBe(sessionsBefore);
    expect(await auditOf('sign-in.failed', existing.email)).toMatchObject([
      { targetId: existing.id, details: { reason: 'SSO_ACCOUNT_EXISTS', provider: 'acme' } },
    ]);
  });

  it('is never linked on an unverified e-mail, even by a trusted provider', async () => {
    const existing = await account();
    const who = person({ email: existing.email, email_verified: false });
    expect((await failureOf(signInAt('acme-loose', who))).code).toBe('SSO_ACCOUNT_EXISTS');
    expect(await countRows(db, 'identities', { column: 'subject', value: who.sub })).toBe(0);
  });

  it('is never linked across organizations, and the refusal names no one of the other', async () => {
    const other = await createOrganization(db, { name: 'Other' });
    const existing = await account(other.id);
    const who = person({ email: existing.email });
    expect((await failureOf(signInAt('acme-link', who))).code).toBe('SSO_ACCOUNT_EXISTS');
    expect(await countRows(db, 'identities', { column: 'subject', value: who.sub })).toBe(0);
    expect(await auditOf('sign-in.failed', existing.email)).toMatchObject([
      { organizationId: org.id, targetId: null },
    ]);
  });

  it('is never linked to a second subject of the same issuer', async () => {
    const existing = await account();
    await sessionAt('acme-link', person({ email: existing.email }));
    const another = person({ email: existing.email });
    expect((await failureOf(signInAt('acme-link', another))).code).toBe('SSO_ACCOUNT_EXISTS');
    expect(await countRows(db, 'identities', { column: 'user_id', value: existing.id })).toBe(1);
  });

  it('is linked by a provider trusted for the domain, with a verified e-mail', async () => {
    const existing = await account();
    const who = person({ email: existing.email.toUpperCase(), email_verified: true });
    const { me } = await sessionAt('acme-link', who);
    expect(me.userId).toBe(existing.id);
    const linked = await db.select().from(identities).where(eq(identities.userId, existing.id));
    expect(linked).toMatchObject([{ subject: who.sub, providerId: 'acme-link' }]);
    expect(await countRows(db, 'users', { column: 'email', value: existing.email })).toBe(1);
    expect(await auditOf('sign-in.succeeded', existing.email)).toMatchObject([
      { details: { method: 'sso', provider: 'acme-link', linked: true } },
    ]);
    // The password still works: linking adds a way in, it takes none away.
    const token = await services.auth.login({
      email: existing.email,
      password: PASSWORD,
      ip: nextIp(),
      userAgent: undefined,
    });
    expect(await services.auth.authenticate(token)).toMatchObject({ userId: existing.id });
  });
});

describe('an invited person', () => {
  async function invited() {
    const user = await createUser(db, org.id, {
      email: `ivo-${randomBytes(3).toString('hex')}@acme.test`,
      status: 'invited',
      password: null,
    });
    await services.invitations.issue(db, {
      organizationId: org.id,
      userId: user.id,
      createdBy: null,
    });
    return user;
  }

  it('accepts their invitation by signing in through a provider trusted for the domain', async () => {
    const user = await invited();
    const { me } = await sessionAt('acme-link', person({ email: user.email }));
    expect(me.userId).toBe(user.id);
    expect(await userByEmail(user.email)).toMatchObject({
      status: 'active',
      lastSignInAt: expect.any(Date),
    });
    const [invitation] = await db.select().from(invitations).where(eq(invitations.userId, user.id));
    expect(invitation?.usedAt).toBeInstanceOf(Date);
    expect(await auditOf('person.invitation-accepted', user.email)).toMatchObject([
      {
        targetId: user.id,
        before: { status: 'invited' },
        after: { status: 'active' },
        details: { via: 'single sign-on', provider: 'acme-link' },
      },
    ]);
  });

  it('is refused by a provider that may not link, and stays invited', async () => {
    const user = await invited();
    expect((await failureOf(signInAt('acme', person({ email: user.email })))).code).toBe(
      'SSO_ACCOUNT_EXISTS',
    );
    expect((await userByEmail(user.email))?.status).toBe('invited');
  });
});

describe('the organization’s single sign-on domains: whom it may create', () => {
  afterEach(() => setDomains([]));

  it('creates a person whose domain is listed', async () => {
    await setDomains(['acme.test', 'acme-labs.test']);
    const who = person();
    expect((await signInAt('acme', who)).kind).toBe('session');
    expect(await userByEmail(who.email)).toBeDefined();
  });

  it('refuses to create a person of a domain that is not listed, audited, creating nothing', async () => {
    await setDomains(['acme-labs.test']);
    const who = person();
    await expectRefused(
      who,
      () => signInAt('acme', who),
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
    await sessionAt('acme', who);
    await setDomains(['acme-labs.test']);
    expect((await signInAt('acme', who)).kind).toBe('session');
  });

  it('with no domain listed, leaves the provider’s allowed domains to decide', async () => {
    await setDomains([]);
    expect((await signInAt('acme', person())).kind).toBe('session');
  });
});

describe('password sign-in turned off', () => {
  it('leaves single sign-on working for the organization', async () => {
    await db
      .update(organizations)
      .set({ passwordSignIn: false })
      .where(eq(organizations.id, org.id));
    try {
      const sessionsBefore = await countRows(db, 'sessions');
      await sessionAt('acme', person());
      expect(await countRows(db, 'sessions')).toBe(sessionsBefore + 1);
      const withPassword = await createUser(db, org.id);
      const login = services.auth.login({
        email: withPassword.email,
        password: PASSWORD,
        ip: nextIp(),
        userAgent: undefined,
      });
      expect((await refusal(login)).statusCode).toBe(403);
    } finally {
      await db
        .update(organizations)
        .set({ passwordSignIn: true })
        .where(eq(organizations.id, org.id));
    }
  });
});

describe('a person with a second factor (decision 0048)', () => {
  const liveSessions = async (userId: string) =>
    (
      await db
        .select({ id: sessions.id })
        .from(sessions)
        .where(and(eq(sessions.userId, userId), sql`${sessions.revokedAt} IS NULL`))
    ).length;

  it('gets no session from the provider alone: a ticket for this browser, stored as hashes', async () => {
    const who = await personWithFactor();
    const before = await countRows(db, 'sessions');
    const ticket = await ticketAt('acme-link', who.account);
    expect(ticket).toMatchObject({
      kind: 'second-factor',
      ticket: expect.stringMatching(/^[\w-]{43}$/),
      browserSecret: expect.stringMatching(/^[\w-]{43}$/),
      returnTo: '/',
    });
    expect(await countRows(db, 'sessions')).toBe(before);
    const [stored] = await db
      .select()
      .from(ssoSecondFactorTickets)
      .where(eq(ssoSecondFactorTickets.userId, who.user.id));
    expect(stored).toMatchObject({
      ticketHash: sha256(ticket.ticket),
      browserHash: sha256(ticket.browserSecret),
      providerId: 'acme-link',
      attempts: 0,
      usedAt: null,
    });
  });

  it('opens the session with a current code, once: the ticket and the code never work again', async () => {
    const who = await personWithFactor();
    const ticket = await ticketAt('acme-link', who.account);
    const code = codeAt(who.secret, stepNow());
    const token = await completeWith(ticket, { totp: code });
    expect(await services.auth.authenticate(token)).toMatchObject({ userId: who.user.id });
    // The session keeps its provider and ID token, for signing out there.
    const [row] = await db
      .select({ providerId: sessionSso.providerId })
      .from(sessionSso)
      .innerJoin(sessions, eq(sessions.id, sessionSso.sessionId))
      .where(eq(sessions.userId, who.user.id));
    expect(row?.providerId).toBe('acme-link');
    expect(await auditOf('sign-in.succeeded', who.user.email)).toMatchObject([
      { details: { method: 'sso', provider: 'acme-link', secondFactor: true } },
    ]);

    const count = await liveSessions(who.user.id);
    expect(
      await refusal(completeWith(ticket, { totp: codeAt(who.secret, stepNow(1)) })),
    ).toMatchObject({ statusCode: 401, code: 'SIGN_IN_EXPIRED' });
    // The code accepted here cannot sign in with the password either (no replay).
    const replay = services.auth.login({
      email: who.user.email,
      password: PASSWORD,
      totp: code,
      ip: nextIp(),
      userAgent: undefined,
    });
    expect((await refusal(replay)).code).toBe('SECOND_FACTOR_INVALID');
    expect(await liveSessions(who.user.id)).toBe(count);
  });

  it('accepts a recovery code instead, once', async () => {
    const who = await personWithFactor();
    const [recoveryCode] = who.recoveryCodes;
    const first = await ticketAt('acme-link', who.account);
    expect(await completeWith(first, { recoveryCode })).toMatch(/^[\w-]{43}$/);
    const second = await ticketAt('acme-link', who.account);
    expect(await refusal(completeWith(second, { recoveryCode }))).toEqual({
      statusCode: 401,
      code: 'SECOND_FACTOR_INVALID',
      message: 'That code is not right, or was already used. Try the next one.',
    });
  });

  it('refuses a wrong code (401, audited, counted) and ends the ticket after five tries', async () => {
    const who = await personWithFactor();
    const ticket = await ticketAt('acme-link', who.account);
    const before = await liveSessions(who.user.id);
    for (let i = 0; i < 5; i += 1) {
      expect((await refusal(completeWith(ticket, { totp: wrongCodeFor(who.secret) }))).code).toBe(
        'SECOND_FACTOR_INVALID',
      );
    }
    const failures = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'sign-in.failed'), eq(auditLog.targetId, who.user.id)));
    expect(failures).toHaveLength(5);
    expect(failures[0]?.details).toMatchObject({
      method: 'sso',
      reason: 'wrong second-factor code after single sign-on',
    });
    const late = completeWith(ticket, { totp: codeAt(who.secret, stepNow()) });
    expect(await refusal(late)).toEqual({
      statusCode: 401,
      code: 'SIGN_IN_EXPIRED',
      message: expect.stringMatching(/^This sign-in took too long/),
    });
    expect(await liveSessions(who.user.id)).toBe(before);
  });

  it('falls under the throttle of sign-in: wrong codes count for the account', async () => {
    const who = await personWithFactor();
    const ticket = await ticketAt('acme-link', who.account);
    await refusal(completeWith(ticket, { totp: wrongCodeFor(who.secret) }));
    const counted = (await db.execute(
      sql`SELECT failures FROM login_throttle WHERE key = ${`account:${who.user.email.toLowerCase()}`}`,
    )) as unknown as { rows: { failures: number }[] };
    expect(counted.rows[0]?.failures).toBe(1);
  });

  it('works only in the browser that signed in, and not after it expires', async () => {
    const who = await personWithFactor();
    const ticket = await ticketAt('acme-link', who.account);
    const code = codeAt(who.secret, stepNow());
    for (const other of [undefined, 'another-browser-secret-aaaaaaaaaaaaaaaaaaaaaaa']) {
      const elsewhere = { ticket: ticket.ticket, browserSecret: other };
      expect((await refusal(completeWith(elsewhere, { totp: code }))).code).toBe('SIGN_IN_EXPIRED');
    }
    await db
      .update(ssoSecondFactorTickets)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(ssoSecondFactorTickets.userId, who.user.id));
    expect((await refusal(completeWith(ticket, { totp: code }))).code).toBe('SIGN_IN_EXPIRED');
  });

  it('is refused once disabled, even with a right code', async () => {
    const who = await personWithFactor();
    const ticket = await ticketAt('acme-link', who.account);
    await db.update(users).set({ status: 'disabled' }).where(eq(users.id, who.user.id));
    const before = await liveSessions(who.user.id);
    expect(
      (await refusal(completeWith(ticket, { totp: codeAt(who.secret, stepNow()) }))).code,
    ).toBe('SIGN_IN_EXPIRED');
    expect(await liveSessions(who.user.id)).toBe(before);
  });

  it('asks for a code before looking at the ticket: 400, no try counted', async () => {
    const who = await personWithFactor();
    const ticket = await ticketAt('acme-link', who.account);
    expect(await refusal(completeWith(ticket, { totp: ' ' }))).toEqual({
      statusCode: 400,
      code: 'VALIDATION_ERROR',
      message: 'Enter the 6-digit code from your authenticator app, or a recovery code.',
    });
    const [stored] = await db
      .select()
      .from(ssoSecondFactorTickets)
      .where(eq(ssoSecondFactorTickets.userId, who.user.id));
    expect(stored?.attempts).toBe(0);
  });

  it.each([[['pwd', 'otp']], [['mfa']], [['pwd', 'hwk']], [['hwk', 'fpt']]])(
    'trusts the provider when its amr %j says multi-factor',
    async (amr) => {
      const who = await personWithFactor();
      const { me } = await sessionAt('acme-link', { ...who.account, amr });
      expect(me.userId).toBe(who.user.id);
      expect(await auditOf('sign-in.succeeded', who.user.email)).toMatchObject([
        { details: { providerMultiFactor: true } },
      ]);
    },
  );

  it.each([[['pwd']], [['otp']], [['hwk']], [['pwd', 'kba']], [['user', 'rba']]])(
    'asks for the code when the amr %j is one factor',
    async (amr) => {
      const who = await personWithFactor();
      expect((await signInAt('acme-link', { ...who.account, amr })).kind).toBe('second-factor');
    },
  );

  it('trusts an acr the provider is configured with, and no other', async () => {
    const who = await personWithFactor();
    expect((await signInAt('acme-link', { ...who.account, acr: 'urn:acme:mfa' })).kind).toBe(
      'session',
    );
    expect((await signInAt('acme-link', { ...who.account, acr: 'urn:acme:password' })).kind).toBe(
      'second-factor',
    );
  });
});

describe('re-authentication by single sign-on (decision 0048)', () => {
  /** A person of the provider, signed in by it, whose session is 10 minutes old. */
  async function staleSsoPerson(providerId = 'acme', who: TestAccount = person()) {
    const { token, me } = await sessionAt(providerId, who);
    await db
      .update(sessions)
      .set({ reauthenticatedAt: sql`now() - interval '10 minutes'` })
      .where(eq(sessions.id, me.sessionId ?? ''));
    return { who, token, me };
  }
  const recent = async (token: string) =>
    (await services.auth.authenticate(token))?.recentlyAuthenticated;

  /** Starts a re-authentication and walks it through the provider as `who`. */
  async function reauthenticateAs(me: AuthContext, who: TestAccount, providerId = 'acme') {
    const ip = nextIp();
    const started = await sso.startReauthentication(me, providerId, '/settings', ip);
    return finish(await roundTrip(providerId, started, who, ip));
  }

  it('asks the provider for a fresh sign-in and stamps the session that asked, opening none', async () => {
    const { who, token, me } = await staleSsoPerson();
    expect(await recent(token)).toBe(false);
    const started = await sso.startReauthentication(me, 'acme', '/settings', nextIp());
    const location = new URL(started.location);
    expect(location.origin).toBe(idp.issuer);
    expect(location.searchParams.get('prompt')).toBe('login');
    expect(location.searchParams.get('max_age')).toBe('300');
    const [attempt] = await db
      .select()
      .from(ssoAttempts)
      .where(eq(ssoAttempts.state, location.searchParams.get('state') ?? ''));
    expect(attempt).toMatchObject({ sessionId: me.sessionId, returnTo: '/settings' });

    const before = await countRows(db, 'sessions');
    const back = await finish(await roundTrip('acme', started, who, nextIp()));
    expect(back).toEqual({ kind: 'reauthenticated', returnTo: '/settings' });
    expect(await countRows(db, 'sessions')).toBe(before);
    expect(await recent(token)).toBe(true);
    const [entry] = await db
      .select()
      .from(auditLog)
      .where(
        and(eq(auditLog.action, 'session.reauthenticated'), eq(auditLog.targetId, me.sessionId!)),
      );
    expect(entry?.details).toEqual({ method: 'sso', provider: 'acme' });
  });

  it('refuses another person at the provider, and leaves the session as it was', async () => {
    const { token, me } = await staleSsoPerson();
    expect(await failureOf(reauthenticateAs(me, person()))).toEqual({
      code: 'SSO_REAUTHENTICATION_FAILED',
      message: `You signed in at Acme SSO as another person. Sign in there as ${me.email}.`,
    });
    expect(await recent(token)).toBe(false);
  });

  it('refuses a sign-in the provider remembered from long ago (auth_time)', async () => {
    const { who, token, me } = await staleSsoPerson();
    idp.tokenEndpoint = async (body) => {
      const claims = decodeJwt(String(body.id_token));
      return {
        ...body,
        id_token: await idp.sign({ ...claims, auth_time: Number(claims.iat) - 3600 }),
      };
    };
    expect(await failureOf(reauthenticateAs(me, who))).toEqual({
      code: 'SSO_REAUTHENTICATION_FAILED',
      message: expect.stringMatching(/^Acme SSO did not confirm a fresh sign-in/),
    });
    expect(await recent(token)).toBe(false);
  });

  it('asks a person with a second factor for more than one factor at the provider', async () => {
    const factor = await personWithFactor();
    const multi = { ...factor.account, amr: ['pwd', 'otp'] };
    const { token, me } = await staleSsoPerson('acme-link', multi);
    expect(
      await failureOf(reauthenticateAs(me, { ...factor.account, amr: ['pwd'] }, 'acme-link')),
    ).toEqual({
      code: 'SSO_REAUTHENTICATION_FAILED',
      message: 'Your account has a second factor: confirm with your password and code instead.',
    });
    expect(await recent(token)).toBe(false);
    expect((await reauthenticateAs(me, multi, 'acme-link')).kind).toBe('reauthenticated');
    expect(await recent(token)).toBe(true);
  });

  it('fails when the session ended in the meantime', async () => {
    const { who, me } = await staleSsoPerson();
    const ip = nextIp();
    const started = await sso.startReauthentication(me, 'acme', '/settings', ip);
    await services.auth.logout(me, {});
    expect((await failureOf(finish(await roundTrip('acme', started, who, ip)))).code).toBe(
      'SSO_STATE_INVALID',
    );
  });

  it('only at a provider the person signs in with, and never for an access token', async () => {
    const { me } = await staleSsoPerson();
    const before = await countRows(db, 'sso_attempts');
    expect(await refusal(sso.startReauthentication(me, 'acme-link', '/', nextIp()))).toEqual({
      statusCode: 404,
      code: 'NOT_FOUND',
      message: 'You do not sign in with this provider.',
    });
    const byToken = { ...me, sessionId: null };
    expect(await refusal(sso.startReauthentication(byToken, 'acme', '/', nextIp()))).toEqual({
      statusCode: 403,
      code: 'FORBIDDEN',
      message: 'An access token cannot confirm who you are. Sign in to do this.',
    });
    expect(await countRows(db, 'sso_attempts')).toBe(before);
  });

  it('answers 503 when the provider cannot be reached', async () => {
    const { me } = await staleSsoPerson();
    await db.insert(identities).values({
      id: newId(),
      userId: me.userId,
      providerId: 'down',
      issuer: 'http://down.test',
      subject: me.userId,
    });
    expect(await refusal(sso.startReauthentication(me, 'down', '/', nextIp()))).toEqual({
      statusCode: 503,
      code: 'INTERNAL_ERROR',
      message: expect.stringMatching(/^Down SSO cannot be reached right now/),
    });
  });

  it('lists the configured providers a person signs in with, and no other', async () => {
    const { me } = await staleSsoPerson();
    await db.insert(identities).values({
      id: newId(),
      userId: me.userId,
      providerId: 'removed-since',
      issuer: 'http://removed.test',
      subject: me.userId,
    });
    expect(await sso.providersOf(me.userId)).toEqual([{ id: 'acme', name: 'Acme SSO' }]);
  });
});

describe('signing out', () => {
  it("ends the session and gives the provider's end-session address", async () => {
    const { token, me } = await sessionAt('acme', person());
    const { logoutUrl } = await sso.logout(me, {});
    const url = new URL(logoutUrl ?? '');
    expect(url.origin).toBe(idp.issuer);
    expect(url.pathname).toBe('/session/end');
    expect(url.searchParams.get('post_logout_redirect_uri')).toBe(`${PUBLIC_URL}/`);
    expect(url.searchParams.get('id_token_hint')).toMatch(/^ey/);
    expect(await services.auth.authenticate(token)).toBeNull();
  });

  it('gives no address for a provider without logout, nor for a password session', async () => {
    const viaSso = await sessionAt('acme-link', person());
    const user = await createUser(db, org.id);
    const { token } = await services.auth.startSession(db, user.id, nextIp(), undefined);
    const withPassword = { token, me: (await services.auth.authenticate(token))! };
    for (const { token: ended, me } of [viaSso, withPassword]) {
      expect(await sso.logout(me, {})).toEqual({ logoutUrl: null });
      expect(await services.auth.authenticate(ended)).toBeNull();
    }
  });

  it('ends nothing for an access token', async () => {
    const user = await createUser(db, org.id);
    const me = await signedIn(user);
    const made = await services.accessTokens.create(me, {}, { name: 'script' });
    const byToken = await services.auth.authenticate(made.token);
    expect(await sso.logout(byToken!, {})).toEqual({ logoutUrl: null });
    expect(await services.auth.authenticate(made.token)).not.toBeNull();
  });
});
