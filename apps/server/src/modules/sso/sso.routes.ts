import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { SESSION_FRAGMENT, SSO_ERROR_FRAGMENT, SsoStartQuery } from '@signpost/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { ATTEMPT_MINUTES } from './sso.service.ts';
import { classifyOidcError, SsoFailure } from './sso-errors.ts';

const COOKIE = 'signpost_sso';
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

function readCookie(request: FastifyRequest): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === COOKIE) return value.join('=') || undefined;
  }
  return undefined;
}

/** Single sign-on, under /api/auth/sso. Every answer is a redirect for the browser. */
export const ssoRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const secure = app.config.publicUrl.startsWith('https:');
  const cookie = (value: string, maxAge: number) =>
    `${COOKIE}=${value}; Path=${COOKIE_PATH}; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;

  /** Back to the login screen, which shows the message; never a stack trace. */
  function fail(request: FastifyRequest, reply: FastifyReply, error: unknown, provider: string) {
    const failure = error instanceof SsoFailure ? error : classifyOidcError(error, provider);
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
          '`/#sso-error?code=<SSO_…>&message=<text>`.',
        params: ProviderParams,
        querystring: SsoStartQuery,
        response: { 302: Redirect },
      },
    },
    async (request, reply) => {
      try {
        const { location, browserSecret } = await app.sso.start(
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
          '`<returnTo>#session?token=…`; on failure to `/#sso-error?code=…&message=…`.',
        params: ProviderParams,
        querystring: CallbackQuery,
        response: { 302: Redirect },
      },
    },
    async (request, reply) => {
      try {
        const { token, returnTo } = await app.sso.callback({
          providerId: request.params.provider,
          query: request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '',
          browserSecret: readCookie(request),
          ip: request.ip,
          userAgent: request.headers['user-agent'],
        });
        return reply
          .header('Cache-Control', 'no-store')
          .header('Set-Cookie', cookie('', 0))
          .redirect(`${returnTo}#${SESSION_FRAGMENT}?token=${encodeURIComponent(token)}`, 302);
      } catch (error) {
        return fail(request, reply, error, request.params.provider);
      }
    },
  );
};
