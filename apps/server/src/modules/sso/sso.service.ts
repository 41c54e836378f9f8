import { LIMITS, type LoginMethod } from '@signpost/contract';
import type { FastifyBaseLogger } from 'fastify';
import { createHash, randomBytes } from 'node:crypto';
import * as client from 'openid-client';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { newId } from '../../lib/ids.ts';
import { createAuditService, type AuditOrigin } from '../audit/audit.service.ts';
import type { AuthService } from '../auth/auth.service.ts';
import { OidcClients, type SsoProvider } from './oidc-client.ts';
import { safeReturnTo } from './return-to.ts';
import { classifyOidcError, SsoFailure, ssoFailures } from './sso-errors.ts';
import { createThrottleService } from '../throttle/throttle.service.ts';
import { createSsoRepository } from './sso.repository.ts';

/** How long a person has to finish signing in at the provider. */
export const ATTEMPT_MINUTES = 10;
/** Sign-ins one address may start per minute: each one stores an attempt. */
const STARTS_PER_MINUTE = 30;

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

interface Person {
  subject: string;
  email: string;
  emailVerified: boolean;
  name: string;
}

function domainOf(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1).toLowerCase();
}

function displayName(claims: Record<string, unknown>, email: string): string {
  const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
  const full = [text(claims.given_name), text(claims.family_name)].filter(Boolean).join(' ');
  const name =
    text(claims.name) || full || text(claims.preferred_username) || email.split('@')[0] || email;
  return name.slice(0, LIMITS.name);
}

function isUniqueViolation(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth += 1) {
    if ((current as { code?: string }).code === '23505') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

export function createSsoService(
  db: Database,
  config: Config,
  auth: AuthService,
  log: FastifyBaseLogger,
) {
  const providers = new Map<string, SsoProvider>(config.oidcProviders.map((p) => [p.id, p]));
  const clients = new OidcClients();
  const repository = createSsoRepository(db);
  const throttle = createThrottleService(db);
  const audit = createAuditService(db);
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
    const email = typeof merged.email === 'string' ? merged.email.trim() : '';
    if (!/^[^\s@]+@[^\s@]+$/.test(email) || email.length > LIMITS.email) {
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
    return { subject: claims.sub, email, emailVerified, name: displayName(merged, email) };
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
    ip: string,
    userAgent: string | undefined,
  ) {
    const organizationId = await repository.findOrganization(p.organization);
    if (!organizationId) {
      throw ssoFailures.misconfigured(p.name, `organization "${p.organization}" not found`);
    }
    // The provider vouched for this person: a refusal from here on is audited.
    const refuse = (failure: SsoFailure, person: { id: string; email: string } | null) =>
      Object.assign(failure, {
        refusal: { organizationId, person: person && { id: person.id, label: person.email } },
      });
    return db.transaction(async (tx) => {
      const inTx = createSsoRepository(tx);
      let person: { id: string; name: string; email: string };
      let created = false;
      let linked = false;
      let accepted = false;
      const known = await inTx.findIdentity(issuer, who.subject);
      if (known) {
        if (known.status !== 'active') {
          throw refuse(ssoFailures.disabled(), { id: known.userId, email: known.email });
        }
        await inTx.touchIdentity(known.identityId, who.email);
        person = { id: known.userId, name: known.name, email: known.email };
      } else {
        const existing = await inTx.findUserByEmail(who.email);
        if (existing) {
          // docs/decisions/0021: never linked silently; only a provider trusted for the
          // domain, with a verified address, into the same organization, once per issuer.
          const linkable =
            p.linkExistingAccounts &&
            who.emailVerified &&
            p.allowedDomains.includes(domainOf(who.email)) &&
            existing.organizationId === organizationId &&
            !(await inTx.hasIdentityFromIssuer(existing.id, issuer));
          const mine = existing.organizationId === organizationId ? existing : null;
          if (!linkable) throw refuse(ssoFailures.accountExists(p.name), mine);
          // An invited person the provider vouches for accepts their invitation by signing
          // in (decision 0042); a disabled one stays out.
          if (existing.status === 'invited') {
            accepted = await inTx.acceptInvitation(existing.id);
          }
          if (existing.status !== 'active' && !accepted) {
            throw refuse(ssoFailures.disabled(), mine);
          }
          person = existing;
          linked = true;
        } else {
          // docs/decisions/0045: once the organization lists domains, only those get accounts.
          const domains = await inTx.ssoDomains(organizationId);
          const domain = domainOf(who.email);
          if (domains.length > 0 && !domains.includes(domain)) {
            throw refuse(ssoFailures.noAccount(domain), null);
          }
          const id = await inTx.createPerson(organizationId, who.name, who.email);
          person = { id, name: who.name, email: who.email };
          created = true;
        }
        await inTx.insertIdentity({
          userId: person.id,
          providerId: p.id,
          issuer,
          subject: who.subject,
          email: who.email,
        });
      }
      const { token, sessionId } = await auth.startSession(person.id, ip, userAgent, tx, {
        providerId: p.id,
        idToken,
      });
      await auth.signedIn(person.id, tx);
      const origin: AuditOrigin = { ip, userAgent: userAgent?.slice(0, 500) ?? null };
      const actor = { id: person.id, name: person.name, email: person.email };
      if (created) {
        await audit.record(
          {
            organizationId,
            actor,
            action: 'person.created',
            target: { type: 'person', id: person.id, label: person.email },
            after: { name: person.name, email: person.email, role: 'member' },
            details: { via: 'single sign-on', provider: p.id },
            ...origin,
          },
          tx,
        );
      }
      if (accepted) {
        await audit.record(
          {
            organizationId,
            actor,
            action: 'person.invitation-accepted',
            target: { type: 'person', id: person.id, label: person.email },
            before: { status: 'invited' },
            after: { status: 'active' },
            details: { via: 'single sign-on', provider: p.id },
            ...origin,
          },
          tx,
        );
      }
      await audit.record(
        {
          organizationId,
          actor,
          action: 'sign-in.succeeded',
          target: { type: 'session', id: sessionId, label: person.email },
          details: { method: 'sso', provider: p.id, ...(linked ? { linked: true } : {}) },
          ...origin,
        },
        tx,
      );
      return token;
    });
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
    await audit.record({
      organizationId: failure.refusal.organizationId,
      actor: { id: null, name: who.name, email: who.email },
      action: 'sign-in.failed',
      target: failure.refusal.person && { type: 'person', ...failure.refusal.person },
      details: { method: 'sso', provider: p.id, reason: failure.code },
      ip,
      userAgent: userAgent?.slice(0, 500) ?? null,
    });
  }

  return {
    /** Adds a provider at run time (the demo provider). */
    addProvider(p: SsoProvider) {
      providers.set(p.id, p);
    },

    methods(): LoginMethod[] {
      return [...providers.values()].map((p) => ({
        type: 'sso-oidc-id-token' as const,
        name: p.name,
        loginUrl: `/api/auth/sso/${p.id}/start`,
      }));
    },

    /** Starts a sign-in: the provider's address, and the cookie that binds it to this browser. */
    async start(providerId: string, returnTo: string | undefined, ip: string) {
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
      await repository.deleteOldAttempts();
      await repository.insertAttempt({
        id: newId(),
        providerId: p.id,
        state,
        nonce,
        codeVerifier,
        browserHash: sha256(browserSecret),
        returnTo: safeReturnTo(returnTo),
        expiresAt: new Date(Date.now() + ATTEMPT_MINUTES * 60_000),
      });
      const location = client.buildAuthorizationUrl(oidc, {
        response_type: 'code',
        redirect_uri: redirectUri(p.id),
        scope: p.scopes.join(' '),
        code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
        state,
        nonce,
      });
      return { location: location.href, browserSecret };
    },

    /** Completes a sign-in; returns the session token and the same-origin path to go to. */
    async callback(input: CallbackInput): Promise<{ token: string; returnTo: string }> {
      const p = provider(input.providerId);
      const params = new URLSearchParams(input.query);
      const state = params.get('state');
      const attempt =
        state && input.browserSecret
          ? await repository.consumeAttempt(p.id, state, sha256(input.browserSecret))
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
      const attemptSignIn = () =>
        signIn(p, issuer, who, tokens.id_token ?? '', input.ip, input.userAgent);
      let token: string;
      try {
        try {
          token = await attemptSignIn();
        } catch (caught) {
          if (caught instanceof SsoFailure || !isUniqueViolation(caught)) throw caught;
          // The same person signing in twice at once: the other request created them first.
          token = await attemptSignIn();
        }
      } catch (caught) {
        if (caught instanceof SsoFailure) {
          await recordRefusal(caught, p, who, input.ip, input.userAgent);
        }
        throw caught;
      }
      return { token, returnTo: attempt.returnTo };
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
  };
}
export type SsoService = ReturnType<typeof createSsoService>;
