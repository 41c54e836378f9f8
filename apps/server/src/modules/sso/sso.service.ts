import {
  isBlank,
  LIMITS,
  REAUTHENTICATION_MINUTES,
  textProblem,
  withoutBidiControls,
  type LoginMethod,
} from '@signpost/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { SsoGroupsService } from '../sso-groups/sso-groups.service.ts';
import { createHash, randomBytes } from 'node:crypto';
import * as client from 'openid-client';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { AppError, badRequest, forbidden, notFound } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { AuthService } from '../auth/auth.service.ts';
import type { SecondFactorService } from '../second-factor/second-factor.service.ts';
import { OidcClients, type SsoProvider } from './oidc-client.ts';
import { safeReturnTo } from './return-to.ts';
import { provesMultiFactor } from './multi-factor.ts';
import { classifyOidcError, SsoFailure, ssoFailures } from './sso-errors.ts';
import type { ThrottleService } from '../throttle/throttle.service.ts';
import type { SsoRepository } from './sso.repository.ts';
import { type AuditOrigin } from '../../lib/request-context.ts';

/** How long a person has to finish signing in at the provider. */
export const ATTEMPT_MINUTES = 10;
/** Sign-ins one address may start per minute: each one stores an attempt. */
const STARTS_PER_MINUTE = 30;
/** How long a single sign-on may wait for the person's second factor. */
export const TICKET_MINUTES = 5;
/** Codes one ticket may be tried with; the throttle of sign-in limits the rest. */
const TICKET_ATTEMPTS = 5;
/** Clock difference allowed between the provider and Signpost for `auth_time`. */
const CLOCK_SKEW_SECONDS = 60;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export interface CallbackInput {
  providerId: string;
  /** The query string of the callback, as received. */
  query: string;
  /** The value of the attempt cookie; undefined when the browser sent none. */
  browserSecret: string | undefined;
  ip: string;
  userAgent: string | undefined;
}

/** What a callback ends with: a session, a wait for the second factor, or a stamp. */
export type CallbackResult =
  | { kind: 'session'; token: string; returnTo: string }
  | { kind: 'second-factor'; ticket: string; browserSecret: string; returnTo: string }
  | { kind: 'reauthenticated'; returnTo: string };

export interface SecondFactorInput {
  ticket: string;
  totp?: string | undefined;
  recoveryCode?: string | undefined;
  /** The value of the ticket's cookie; undefined when the browser sent none. */
  browserSecret: string | undefined;
  ip: string;
  userAgent: string | undefined;
}

const signInExpired = () =>
  new AppError(
    401,
    'SIGN_IN_EXPIRED',
    'This sign-in took too long, was already finished, or was started in another browser. Sign in again.',
  );

interface Person {
  subject: string;
  email: string;
  emailVerified: boolean;
  name: string;
  /** Every claim the provider gave (the ID token's, and userinfo's when it was asked). */
  claims: Record<string, unknown>;
}

function domainOf(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1).toLowerCase();
}

/**
 * The person's name from the provider's claims. A claim counts only if it could have been
 * typed into Signpost: one line without control characters, showing something (decision
 * 0049); else the next claim, and at last the e-mail's local part. Bidirectional controls are
 * taken out first, as from every text of a request (decision 0081).
 */
function displayName(claims: Record<string, unknown>, email: string): string {
  const text = (value: unknown) => {
    if (typeof value !== 'string') return '';
    const plain = withoutBidiControls(value);
    return textProblem(plain) === null && !isBlank(plain) ? plain.trim() : '';
  };
  const full = [text(claims.given_name), text(claims.family_name)].filter(Boolean).join(' ');
  const name =
    text(claims.name) || full || text(claims.preferred_username) || email.split('@')[0] || email;
  // Cut by characters, never inside a surrogate pair.
  return Array.from(name).slice(0, LIMITS.name).join('');
}

export interface SsoDeps {
  db: Database;
  config: Config;
  log: FastifyBaseLogger;
  sso: SsoRepository;
  /** Teams and roles from the sign-in's groups (decision 0084). */
  ssoGroups: Pick<SsoGroupsService, 'applyAtSignIn'>;
  auth: Pick<
    AuthService,
    | 'startSession'
    | 'signedIn'
    | 'markReauthenticated'
    | 'signInThrottle'
    | 'signInFailed'
    | 'ssoSessionOf'
    | 'logout'
  >;
  secondFactor: Pick<SecondFactorService, 'check'>;
  throttle: ThrottleService;
  audit: AuditService;
}

export function createSsoService({
  db,
  config,
  log,
  ssoGroups,
  sso: repository,
  auth,
  secondFactor,
  throttle,
  audit,
}: SsoDeps) {
  const providers = new Map<string, SsoProvider>(config.oidcProviders.map((p) => [p.id, p]));
  const clients = new OidcClients();
  const redirectUri = (id: string) => `${config.publicUrl}/api/auth/sso/${id}/callback`;

  function provider(id: string): SsoProvider {
    const found = providers.get(id);
    if (!found) throw ssoFailures.unknownProvider();
    return found;
  }

  /** The person the ID token (and, for missing fields, userinfo) describes. */
  async function person(
    p: SsoProvider,
    oidc: client.Configuration,
    tokens: client.TokenEndpointResponse & client.TokenEndpointResponseHelpers,
  ): Promise<Person> {
    const claims = tokens.claims();
    if (!claims) throw ssoFailures.token(p.name, 'no ID token');
    // OpenID Connect Core 3.1.3.7: refuse audiences other than this client.
    const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
    if (audiences.length !== 1 || audiences[0] !== p.clientId) {
      throw ssoFailures.token(p.name, 'wrong audience', `aud ${JSON.stringify(claims.aud)}`);
    }
    let merged: Record<string, unknown> = { ...claims };
    if (typeof claims.email !== 'string' || claims.email_verified === undefined) {
      try {
        const info = await client.fetchUserInfo(oidc, tokens.access_token, claims.sub);
        // The ID token's own claims win over userinfo.
        merged = { ...info, ...claims };
        if (typeof claims.email !== 'string') {
          merged.email = info.email;
          merged.email_verified = info.email_verified;
        } else if (claims.email_verified === undefined && info.email === claims.email) {
          merged.email_verified = info.email_verified;
        }
      } catch (error) {
        throw classifyOidcError(error, p.name);
      }
    }
    const email = typeof merged.email === 'string' ? withoutBidiControls(merged.email).trim() : '';
    if (
      !/^[^\s@]+@[^\s@]+$/.test(email) ||
      email.length > LIMITS.email ||
      textProblem(email) !== null
    ) {
      throw ssoFailures.emailMissing(p.name, 'an e-mail address');
    }
    const emailVerified = merged.email_verified === true || merged.email_verified === 'true';
    if (p.requireVerifiedEmail && !emailVerified) {
      throw ssoFailures.emailMissing(p.name, 'a verified e-mail address');
    }
    const domain = domainOf(email);
    if (!p.allowedDomains.includes('*') && !p.allowedDomains.includes(domain)) {
      throw ssoFailures.domain(p.name, domain);
    }
    return {
      subject: claims.sub,
      email,
      emailVerified,
      name: displayName(merged, email),
      claims: merged,
    };
  }

  /**
   * Finds the person of (issuer, subject), links or creates them, and opens a session, all in
   * one transaction: a failure leaves no account, identity or session behind.
   */
  async function signIn(
    p: SsoProvider,
    issuer: string,
    who: Person,
    idToken: string,
    multiFactor: boolean,
    ip: string,
    userAgent: string | undefined,
  ): Promise<{ token: string } | { ticket: string; browserSecret: string }> {
    const organizationId = await repository.findOrganization(db, p.organization);
    if (!organizationId) {
      throw ssoFailures.misconfigured(p.name, `organization "${p.organization}" not found`);
    }
    // The provider vouched for this person: a refusal from here on is audited.
    const refuse = (failure: SsoFailure, person: { id: string; email: string } | null) =>
      Object.assign(failure, {
        refusal: { organizationId, person: person && { id: person.id, label: person.email } },
      });
    return db.transaction(async (tx) => {
      let person: { id: string; name: string; email: string };
      let created = false;
      let linked = false;
      let accepted = false;
      const known = await repository.findIdentity(tx, issuer, who.subject);
      if (known) {
        if (known.status !== 'active') {
          throw refuse(ssoFailures.disabled(), { id: known.userId, email: known.email });
        }
        await repository.touchIdentity(tx, known.identityId, who.email);
        person = { id: known.userId, name: known.name, email: known.email };
      } else {
        const existing = await repository.findUserByEmail(tx, who.email);
        if (existing) {
          // decision 0021: never linked silently; only a provider trusted for the
          // domain, with a verified address, into the same organization, once per issuer.
          const linkable =
            p.linkExistingAccounts &&
            who.emailVerified &&
            p.allowedDomains.includes(domainOf(who.email)) &&
            existing.organizationId === organizationId &&
            !(await repository.hasIdentityFromIssuer(tx, existing.id, issuer));
          const mine = existing.organizationId === organizationId ? existing : null;
          if (!linkable) throw refuse(ssoFailures.accountExists(p.name), mine);
          // An invited person the provider vouches for accepts their invitation by signing
          // in (decision 0042); a disabled one stays out.
          if (existing.status === 'invited') {
            accepted = await repository.acceptInvitation(tx, existing.id);
          }
          if (existing.status !== 'active' && !accepted) {
            throw refuse(ssoFailures.disabled(), mine);
          }
          person = existing;
          linked = true;
        } else {
          // decision 0045: once the organization lists domains, only those get accounts.
          const domains = await repository.ssoDomains(tx, organizationId);
          const domain = domainOf(who.email);
          if (domains.length > 0 && !domains.includes(domain)) {
            throw refuse(ssoFailures.noAccount(domain), null);
          }
          const id = await repository.createPerson(tx, organizationId, who.name, who.email);
          person = { id, name: who.name, email: who.email };
          created = true;
        }
        await repository.insertIdentity(tx, {
          userId: person.id,
          providerId: p.id,
          issuer,
          subject: who.subject,
          email: who.email,
        });
      }
      const origin: AuditOrigin = { ip, userAgent: userAgent?.slice(0, 500) ?? null };
      const actor = { id: person.id, name: person.name, email: person.email };
      // The provider vouched for the person: their teams and role follow its groups claim,
      // before any session (a second factor still stands between them and the portal).
      await ssoGroups.applyAtSignIn(tx, {
        organizationId,
        provider: { id: p.id, name: p.name },
        person: actor,
        claims: who.claims,
        origin,
      });
      // decision 0048: a person with a Signpost second factor gets no session from the
      // provider alone, unless the provider says it checked more than one factor itself.
      // (A new or just-invited person has no factor yet.)
      if (!multiFactor && (await repository.hasSecondFactor(tx, person.id))) {
        const ticket = randomBytes(32).toString('base64url');
        const browserSecret = randomBytes(32).toString('base64url');
        await repository.insertTicket(tx, {
          id: newId(),
          ticketHash: sha256(ticket),
          browserHash: sha256(browserSecret),
          userId: person.id,
          providerId: p.id,
          idToken,
          expiresAt: new Date(Date.now() + TICKET_MINUTES * 60_000),
        });
        return { ticket, browserSecret };
      }
      const { token, sessionId } = await auth.startSession(tx, person.id, ip, userAgent, {
        providerId: p.id,
        idToken,
      });
      await auth.signedIn(tx, person.id);
      if (created) {
        await audit.record(tx, {
          organizationId,
          actor,
          action: 'person.created',
          target: { type: 'person', id: person.id, label: person.email },
          after: { name: person.name, email: person.email, role: 'member' },
          details: { via: 'single sign-on', provider: p.id },
          ...origin,
        });
      }
      if (accepted) {
        await audit.record(tx, {
          organizationId,
          actor,
          action: 'person.invitation-accepted',
          target: { type: 'person', id: person.id, label: person.email },
          before: { status: 'invited' },
          after: { status: 'active' },
          details: { via: 'single sign-on', provider: p.id },
          ...origin,
        });
      }
      await audit.record(tx, {
        organizationId,
        actor,
        action: 'sign-in.succeeded',
        target: { type: 'session', id: sessionId, label: person.email },
        details: {
          method: 'sso',
          provider: p.id,
          ...(linked ? { linked: true } : {}),
          ...(multiFactor ? { providerMultiFactor: true } : {}),
        },
        ...origin,
      });
      return { token };
    });
  }

  /**
   * A single sign-on that re-authenticates a session (decision 0048): the provider must
   * have signed the person in just now (`auth_time`), as the person of the session, and
   * with more than one factor when the person has a Signpost second factor.
   */
  async function reauthenticate(
    p: SsoProvider,
    issuer: string,
    who: Person,
    claims: Record<string, unknown>,
    sessionId: string,
    ip: string,
    userAgent: string | undefined,
  ) {
    const session = await repository.findSessionPerson(db, sessionId);
    if (!session) throw ssoFailures.state('the session to re-authenticate has ended');
    const authTime = claims.auth_time;
    const age = typeof authTime === 'number' ? Date.now() / 1000 - authTime : Infinity;
    if (!(age <= REAUTHENTICATION_MINUTES * 60 + CLOCK_SKEW_SECONDS)) {
      throw ssoFailures.reauthentication(
        `${p.name} did not confirm a fresh sign-in. Try again, and sign in at ${p.name} when asked.`,
        `auth_time ${String(authTime)}`,
      );
    }
    const identity = await repository.findIdentity(db, issuer, who.subject);
    if (!identity || identity.userId !== session.userId) {
      throw ssoFailures.reauthentication(
        `You signed in at ${p.name} as another person. Sign in there as ${session.email}.`,
        'another subject',
      );
    }
    if (
      !provesMultiFactor(claims, p.mfaAcrValues) &&
      (await repository.hasSecondFactor(db, session.userId))
    ) {
      throw ssoFailures.reauthentication(
        'Your account has a second factor: confirm with your password and code instead.',
        'no multi-factor amr/acr',
      );
    }
    await auth.markReauthenticated(
      { sessionId, ...session },
      { ip, userAgent: userAgent?.slice(0, 500) ?? null },
      { method: 'sso', provider: p.id },
    );
  }

  /** Audits a refusal of a person the provider vouched for; other failures are only logged. */
  async function recordRefusal(
    failure: SsoFailure,
    p: SsoProvider,
    who: Person,
    ip: string,
    userAgent: string | undefined,
  ) {
    if (!failure.refusal) return;
    await audit.record(db, {
      organizationId: failure.refusal.organizationId,
      actor: { id: null, name: who.name, email: who.email },
      action: 'sign-in.failed',
      target: failure.refusal.person && { type: 'person', ...failure.refusal.person },
      details: { method: 'sso', provider: p.id, reason: failure.code },
      ip,
      userAgent: userAgent?.slice(0, 500) ?? null,
    });
  }

  const service = {
    /** Adds a provider at run time (the demo provider). */
    addProvider(p: SsoProvider) {
      providers.set(p.id, p);
    },

    /** Every provider as it runs: the configured ones and those added at run time. */
    listProviders(): readonly SsoProvider[] {
      return [...providers.values()];
    },

    /**
     * The buttons of the login screen. Their address is on the public address, wherever the
     * login screen was opened: the attempt's cookie must be set where the provider returns
     * (decision 0054).
     */
    methods(): LoginMethod[] {
      return [...providers.values()].map((p) => ({
        type: 'sso-oidc-id-token' as const,
        name: p.name,
        loginUrl: `${config.publicUrl}/api/auth/sso/${p.id}/start`,
      }));
    },

    /** Whether a provider of this id is configured. */
    hasProvider: (id: string) => providers.has(id),

    /** Where each provider sends people back: what to register there, and to log at start. */
    callbacks: () =>
      [...providers.values()].map((p) => ({ provider: p.id, redirectUri: redirectUri(p.id) })),

    /** Starts a sign-in: the provider's address, and the cookie that binds it to this browser. */
    async start(
      providerId: string,
      returnTo: string | undefined,
      ip: string,
      reauthenticate?: { sessionId: string },
    ) {
      const p = provider(providerId);
      const key = `sso-start:${ip}`;
      // Every start counts; none is forgiven.
      const wait = await throttle.admitOrWait([
        { key, max: STARTS_PER_MINUTE, windowSeconds: 60, blockSeconds: 60 },
      ]);
      if (wait > 0) throw ssoFailures.rateLimited(wait);
      const oidc = await clients.configuration(p);
      const codeVerifier = client.randomPKCECodeVerifier();
      const state = client.randomState();
      const nonce = client.randomNonce();
      const browserSecret = randomBytes(32).toString('base64url');
      await repository.deleteOldAttempts(db);
      await repository.insertAttempt(db, {
        id: newId(),
        providerId: p.id,
        state,
        nonce,
        codeVerifier,
        browserHash: sha256(browserSecret),
        returnTo: safeReturnTo(returnTo),
        expiresAt: new Date(Date.now() + ATTEMPT_MINUTES * 60_000),
        sessionId: reauthenticate?.sessionId ?? null,
      });
      const location = client.buildAuthorizationUrl(oidc, {
        response_type: 'code',
        redirect_uri: redirectUri(p.id),
        scope: p.scopes.join(' '),
        code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
        state,
        nonce,
        // Re-authentication: the provider must ask the person again, not remember them.
        ...(reauthenticate
          ? { prompt: 'login', max_age: String(REAUTHENTICATION_MINUTES * 60) }
          : {}),
      });
      return { location: location.href, browserSecret };
    },

    /** Completes a sign-in; returns the session token and the same-origin path to go to. */
    async callback(input: CallbackInput): Promise<CallbackResult> {
      const p = provider(input.providerId);
      const params = new URLSearchParams(input.query);
      const state = params.get('state');
      const attempt =
        state && input.browserSecret
          ? await repository.consumeAttempt(db, p.id, state, sha256(input.browserSecret))
          : null;
      const error = params.get('error');
      if (error === 'access_denied') throw ssoFailures.denied(p.name);
      if (error) throw ssoFailures.providerError(p.name, `error=${error}`);
      if (!attempt) {
        throw ssoFailures.state(
          !state ? 'no state' : !input.browserSecret ? 'no attempt cookie' : 'unknown or used',
        );
      }
      const oidc = await clients.configuration(p);
      let tokens: client.TokenEndpointResponse & client.TokenEndpointResponseHelpers;
      try {
        tokens = await client.authorizationCodeGrant(
          oidc,
          new URL(`${redirectUri(p.id)}?${params.toString()}`),
          {
            pkceCodeVerifier: attempt.codeVerifier,
            expectedState: attempt.state,
            expectedNonce: attempt.nonce,
            idTokenExpected: true,
          },
        );
      } catch (caught) {
        throw classifyOidcError(caught, p.name);
      }
      const who = await person(p, oidc, tokens);
      const issuer = oidc.serverMetadata().issuer;
      const claims: Record<string, unknown> = { ...tokens.claims() };
      if (attempt.sessionId) {
        await reauthenticate(p, issuer, who, claims, attempt.sessionId, input.ip, input.userAgent);
        return { kind: 'reauthenticated', returnTo: attempt.returnTo };
      }
      const multiFactor = provesMultiFactor(claims, p.mfaAcrValues);
      const attemptSignIn = () =>
        signIn(p, issuer, who, tokens.id_token ?? '', multiFactor, input.ip, input.userAgent);
      let result: Awaited<ReturnType<typeof attemptSignIn>>;
      try {
        try {
          result = await attemptSignIn();
        } catch (caught) {
          if (caught instanceof SsoFailure || !isUniqueViolation(caught)) throw caught;
          // The same person signing in twice at once: the other request created them first.
          result = await attemptSignIn();
        }
      } catch (caught) {
        if (caught instanceof SsoFailure) {
          await recordRefusal(caught, p, who, input.ip, input.userAgent);
        }
        throw caught;
      }
      return 'token' in result
        ? { kind: 'session', token: result.token, returnTo: attempt.returnTo }
        : { kind: 'second-factor', ...result, returnTo: attempt.returnTo };
    },

    /**
     * Finishes a single sign-on that waits for the second factor: the ticket of the address
     * fragment, from the browser that holds its cookie, with a current code or a recovery
     * code. Throttled and audited like the code of a password sign-in; returns the session
     * token. A ticket works for a few minutes, a few tries, and opens one session.
     */
    async completeSecondFactor(input: SecondFactorInput): Promise<string> {
      if (!input.totp?.trim() && !input.recoveryCode?.trim()) {
        throw badRequest('Enter the 6-digit code from your authenticator app, or a recovery code.');
      }
      if (!input.browserSecret) throw signInExpired();
      const found = await repository.tryTicket(
        db,
        sha256(input.ticket),
        sha256(input.browserSecret),
        TICKET_ATTEMPTS,
      );
      if (!found || found.person.status !== 'active') throw signInExpired();
      const { ticket, person: who } = found;
      const throttled = auth.signInThrottle(who.email, input.ip);
      await throttled.admit();
      const check = await secondFactor.check(who.id, input);
      if (check === 'refused' || check === 'required') {
        await auth.signInFailed(
          who,
          { email: who.email, ip: input.ip, userAgent: input.userAgent },
          'wrong second-factor code after single sign-on',
          'sso',
        );
        throw new AppError(
          401,
          'SECOND_FACTOR_INVALID',
          'That code is not right, or was already used. Try the next one.',
        );
      }
      await throttled.settle();
      return db.transaction(async (tx) => {
        if (!(await repository.useTicket(tx, ticket.id))) throw signInExpired();
        const { token, sessionId } = await auth.startSession(
          tx,
          who.id,
          input.ip,
          input.userAgent,
          { providerId: ticket.providerId, idToken: ticket.idToken },
        );
        await auth.signedIn(tx, who.id);
        await audit.record(tx, {
          organizationId: who.organizationId,
          actor: { id: who.id, name: who.name, email: who.email },
          action: 'sign-in.succeeded',
          target: { type: 'session', id: sessionId, label: who.email },
          details: {
            method: 'sso',
            provider: ticket.providerId,
            secondFactor: check === 'accepted',
          },
          ip: input.ip,
          userAgent: input.userAgent?.slice(0, 500) ?? null,
        });
        return token;
      });
    },

    /**
     * Starts a single sign-on that re-authenticates the caller's session at one of the
     * providers they sign in with (decision 0048).
     */
    async startReauthentication(
      me: { sessionId: string | null; userId: string },
      providerId: string,
      returnTo: string | undefined,
      ip: string,
    ) {
      if (!me.sessionId) {
        throw forbidden('An access token cannot confirm who you are. Sign in to do this.');
      }
      const mine = await repository.providersOf(db, me.userId);
      if (!providers.has(providerId) || !mine.includes(providerId)) {
        throw notFound('You do not sign in with this provider.');
      }
      try {
        return await service.start(providerId, returnTo, ip, { sessionId: me.sessionId });
      } catch (caught) {
        if (!(caught instanceof SsoFailure)) throw caught;
        log.warn(
          { provider: providerId, code: caught.code, detail: caught.detail },
          'single sign-on failed',
        );
        throw caught.code === 'SSO_RATE_LIMITED'
          ? new AppError(429, 'RATE_LIMITED', caught.message)
          : new AppError(503, 'INTERNAL_ERROR', caught.message);
      }
    },

    /** The configured providers this person signs in with (for re-authentication). */
    async providersOf(userId: string): Promise<{ id: string; name: string }[]> {
      const ids = await repository.providersOf(db, userId);
      return ids.flatMap((id) => {
        const p = providers.get(id);
        return p ? [{ id: p.id, name: p.name }] : [];
      });
    },

    /**
     * The provider's end-session address for a session opened by single sign-on, when that
     * provider is configured for logout and publishes one; null otherwise.
     */
    async logoutUrl(sessionId: string): Promise<string | null> {
      const sso = await auth.ssoSessionOf(sessionId);
      const p = sso ? providers.get(sso.providerId) : undefined;
      if (!sso || !p?.logout) return null;
      try {
        const oidc = await clients.configuration(p);
        if (!oidc.serverMetadata().end_session_endpoint) return null;
        return client.buildEndSessionUrl(oidc, {
          id_token_hint: sso.idToken,
          post_logout_redirect_uri: `${config.publicUrl}/`,
        }).href;
      } catch (error) {
        log.warn({ provider: p.id, err: error }, 'provider logout address unavailable');
        return null;
      }
    },

    /**
     * Signs the caller out (their session ends), with the provider's end-session address
     * when the session came from single sign-on (`logoutUrl`). An access token is not ended
     * by signing out.
     */
    async logout(me: AuthContext, origin: AuditOrigin): Promise<{ logoutUrl: string | null }> {
      if (!me.sessionId) return { logoutUrl: null };
      const logoutUrl = await service.logoutUrl(me.sessionId);
      await auth.logout(me, origin);
      return { logoutUrl };
    },
  };
  return service;
}
export type SsoService = ReturnType<typeof createSsoService>;
