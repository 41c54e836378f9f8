import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ErrorResponse,
  REAUTHENTICATED_FRAGMENT,
  ReauthenticateSsoBody,
  ReauthenticateSsoResponse,
  SESSION_FRAGMENT,
  SESSION_HANDOVER_PARAM,
  SessionResponse,
  SSO_ERROR_FRAGMENT,
  SSO_SECOND_FACTOR_FRAGMENT,
  SsoSecondFactorBody,
  SsoStartQuery,
} from '@signpost/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { handoverCookie, newHandover } from './handover.ts';
import { safeReturnTo } from './return-to.ts';
import { ATTEMPT_MINUTES, TICKET_MINUTES, type SsoService } from './sso.service.ts';
import { classifyOidcError, SsoFailure } from './sso-errors.ts';
import { signInResult } from '../../plugins/metrics.ts';
import { caller } from '../../lib/request-context.ts';

const COOKIE = 'signpost_sso';
/** The browser secret of a sign-in waiting for the second factor (decision 0048). */
const TICKET_COOKIE = 'signpost_sso_2fa';
const COOKIE_PATH = '/api/auth/sso/';

const ProviderParams = Type.Object(
  { provider: Type.String({ maxLength: 40, description: 'The provider id of the configuration' }) },
  { additionalProperties: false },
);
// Whatever the provider adds (iss, session_state, …) is accepted; only these are read.
const CallbackQuery = Type.Object(
  {
    code: Type.Optional(Type.String({ maxLength: 4096 })),
    state: Type.Optional(Type.String({ maxLength: 512 })),
    error: Type.Optional(Type.String({ maxLength: 256 })),
  },
  { additionalProperties: Type.String({ maxLength: 4096 }) },
);
const Redirect = Type.Null({ description: 'A redirect (Location header), never a body' });

function readCookie(request: FastifyRequest, cookieName = COOKIE): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === cookieName) return value.join('=') || undefined;
  }
  return undefined;
}

/** Single sign-on, under /api/auth/sso. Every answer is a redirect for the browser. */
export const ssoRoutes: FastifyPluginAsyncTypebox<{ sso: SsoService }> = async (
  app,
  { sso: service },
) => {
  const secure = app.config.publicUrl.startsWith('https:');
  const cookie = (value: string, maxAge: number, name = COOKIE) =>
    `${name}=${value}; Path=${COOKIE_PATH}; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;

  const publicOrigin = new URL(app.config.publicUrl).origin;
  /**
   * Whether a request came on the public address, by its scheme and host as Fastify reads
   * them (X-Forwarded-* only from TRUST_PROXY's proxies). The answer only decides whether to
   * send the browser to the public address: the target never comes from the request.
   */
  function onPublicAddress(request: FastifyRequest) {
    try {
      return new URL(`${request.protocol}://${request.host}`).origin === publicOrigin;
    } catch {
      return false;
    }
  }
  let warnedAboutHost = false;

  // Said once at start: single sign-on works only from this address (decision 0054).
  app.addHook('onReady', async () => {
    const callbacks = service.callbacks();
    if (callbacks.length === 0) return;
    app.log.info(
      { publicUrl: app.config.publicUrl, callbacks },
      `single sign-on returns to ${app.config.publicUrl} (PUBLIC_URL): ` +
        `register ${callbacks.map((c) => c.redirectUri).join(', ')} at the provider`,
    );
  });

  /** Back to the login screen, which shows the message; never a stack trace. */
  function fail(
    request: FastifyRequest,
    reply: FastifyReply,
    error: unknown,
    provider: string,
    step: 'start' | 'callback' = 'start',
  ) {
    const failure = error instanceof SsoFailure ? error : classifyOidcError(error, provider);
    // A sign-in refused on the way back from the provider (one that never left is not one).
    if (step === 'callback') app.metrics.signIn('sso', failure.code.toLowerCase());
    const level = failure.code === 'SSO_FAILED' ? 'error' : 'warn';
    request.log[level](
      {
        provider,
        code: failure.code,
        detail: failure.detail,
        err: failure.code === 'SSO_FAILED' ? error : undefined,
      },
      'single sign-on failed',
    );
    const params = new URLSearchParams({ code: failure.code, message: failure.message });
    return reply
      .header('Cache-Control', 'no-store')
      .header('Set-Cookie', cookie('', 0))
      .redirect(`/#${SSO_ERROR_FRAGMENT}?${params.toString()}`, 302);
  }

  app.get(
    '/sso/:provider/start',
    {
      schema: {
        tags: ['auth'],
        summary: "Single sign-on: go to the provider (the sign-in button's loginUrl)",
        description:
          'Starts the authorization code flow with PKCE (S256), state and nonce, bound to ' +
          'this browser by a short-lived HttpOnly cookie. On failure the browser goes to ' +
          '`/#sso-error?code=<SSO_…>&message=<text>`. Requested on another address than ' +
          'PUBLIC_URL, it first answers 303 to the same start on PUBLIC_URL, where the ' +
          'provider returns.',
        params: ProviderParams,
        querystring: SsoStartQuery,
        response: { 302: Redirect, 303: Redirect },
      },
    },
    async (request, reply) => {
      const { provider } = request.params;
      // The provider returns to the public address; the attempt's cookie must be set there
      // too, or the person comes back without it. A start on another address of this
      // server (127.0.0.1 for localhost) goes to the same start on the public address
      // first. Once only: behind a proxy that rewrites Host, the second start stays.
      if (service.hasProvider(provider) && !onPublicAddress(request)) {
        if (request.query.moved !== '1') {
          const target = new URL(
            `/api/auth/sso/${encodeURIComponent(provider)}/start`,
            app.config.publicUrl,
          );
          const returnTo = safeReturnTo(request.query.returnTo);
          if (returnTo !== '/') target.searchParams.set('returnTo', returnTo);
          target.searchParams.set('moved', '1');
          return reply.header('Cache-Control', 'no-store').redirect(target.href, 303);
        }
        if (!warnedAboutHost) {
          warnedAboutHost = true;
          request.log.warn(
            { publicUrl: app.config.publicUrl, host: request.host, protocol: request.protocol },
            'a single sign-on start sent to PUBLIC_URL arrived on another address: check ' +
              'that the proxy passes Host and X-Forwarded-Proto and that TRUST_PROXY names it',
          );
        }
      }
      try {
        const { location, browserSecret } = await service.start(
          request.params.provider,
          request.query.returnTo,
          request.ip,
        );
        return reply
          .header('Cache-Control', 'no-store')
          .header('Set-Cookie', cookie(browserSecret, ATTEMPT_MINUTES * 60))
          .redirect(location, 302);
      } catch (error) {
        return fail(request, reply, error, request.params.provider);
      }
    },
  );

  app.get(
    '/sso/:provider/callback',
    {
      schema: {
        tags: ['auth'],
        summary: 'Single sign-on: where the provider sends the browser back',
        description:
          'Checks state (once, this browser only), exchanges the code with the PKCE verifier, ' +
          'validates the ID token (signature, RS256 only, issuer and audience exactly, expiry, ' +
          'nonce), finds or creates the person, opens a session and redirects to ' +
          '`<returnTo>#session?token=…&handover=…`, with the hand-over value also in the ' +
          'short-lived cookie `signpost_handover` (`__Host-signpost_handover` over https) that ' +
          'the web app compares; on failure to `/#sso-error?code=…&message=…`.',
        params: ProviderParams,
        querystring: CallbackQuery,
        response: { 302: Redirect },
      },
    },
    async (request, reply) => {
      try {
        const result = await service.callback({
          providerId: request.params.provider,
          query: request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '',
          browserSecret: readCookie(request),
          ip: request.ip,
          userAgent: request.headers['user-agent'],
        });
        reply.header('Cache-Control', 'no-store');
        if (result.kind !== 'reauthenticated') {
          app.metrics.signIn(
            'sso',
            result.kind === 'second-factor' ? 'second_factor_required' : 'success',
          );
        }
        if (result.kind === 'second-factor') {
          // No session yet: the login screen asks for the code, and sends it with the
          // ticket; only this browser (its cookie) can use the ticket.
          return reply
            .header('Set-Cookie', [
              cookie('', 0),
              cookie(result.browserSecret, TICKET_MINUTES * 60, TICKET_COOKIE),
            ])
            .redirect(
              `${result.returnTo}#${SSO_SECOND_FACTOR_FRAGMENT}?ticket=${encodeURIComponent(result.ticket)}`,
              302,
            );
        }
        if (result.kind === 'reauthenticated') {
          return reply
            .header('Set-Cookie', cookie('', 0))
            .redirect(`${result.returnTo}#${REAUTHENTICATED_FRAGMENT}`, 302);
        }
        const value = newHandover();
        return reply
          .header('Set-Cookie', [cookie('', 0), handoverCookie(value, secure)])
          .redirect(
            `${result.returnTo}#${SESSION_FRAGMENT}?token=${encodeURIComponent(result.token)}` +
              `&${SESSION_HANDOVER_PARAM}=${value}`,
            302,
          );
      } catch (error) {
        return fail(request, reply, error, request.params.provider, 'callback');
      }
    },
  );

  app.post(
    '/sso/second-factor',
    {
      schema: {
        tags: ['auth'],
        summary: 'Single sign-on: the second factor of a person who has one',
        description:
          'When the person signing in has a Signpost second factor and the provider did not ' +
          'say it checked more than one factor (`amr`, or an `acr` configured as ' +
          'multi-factor), the callback opens no session: it redirects to ' +
          '`<returnTo>#sso-second-factor?ticket=…` and sets a short-lived cookie. This call, ' +
          'from the same browser, with the ticket and a current code (or a recovery code) ' +
          'answers the session token. A wrong code answers 401 SECOND_FACTOR_INVALID and ' +
          'counts as a failed sign-in; an expired, used or foreign ticket answers 401 ' +
          'SIGN_IN_EXPIRED.',
        body: SsoSecondFactorBody,
        response: {
          201: SessionResponse,
          400: ErrorResponse,
          401: ErrorResponse,
          429: ErrorResponse,
        },
      },
    },
    async (request, reply) => {
      let token: string;
      try {
        token = await service.completeSecondFactor({
          ...request.body,
          browserSecret: readCookie(request, TICKET_COOKIE),
          ip: request.ip,
          userAgent: request.headers['user-agent'],
        });
      } catch (error) {
        app.metrics.signIn('sso-second-factor', signInResult(error));
        throw error;
      }
      app.metrics.signIn('sso-second-factor', 'success');
      return reply
        .status(201)
        .header('Cache-Control', 'no-store')
        .header('Set-Cookie', cookie('', 0, TICKET_COOKIE))
        .send({ token });
    },
  );

  app.post(
    '/reauthenticate/sso',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['auth'],
        summary: 'Confirm who you are with a fresh single sign-on (before a sensitive change)',
        description:
          'Answers the provider address to send the browser to (with `prompt=login` and ' +
          '`max_age`), and sets the sign-in cookie. On return the provider must have signed ' +
          'the same person in just now (`auth_time`); the session then counts as recently ' +
          'authenticated and the browser goes to `<returnTo>#reauthenticated`.',
        security: [{ bearer: [] }],
        body: ReauthenticateSsoBody,
        response: {
          200: ReauthenticateSsoResponse,
          401: ErrorResponse,
          403: ErrorResponse,
          404: ErrorResponse,
          429: ErrorResponse,
        },
      },
    },
    async (request, reply) => {
      const { location, browserSecret } = await service.startReauthentication(
        caller(request),
        request.body.provider,
        request.body.returnTo,
        request.ip,
      );
      return reply
        .header('Cache-Control', 'no-store')
        .header('Set-Cookie', cookie(browserSecret, ATTEMPT_MINUTES * 60))
        .send({ location });
    },
  );
};
