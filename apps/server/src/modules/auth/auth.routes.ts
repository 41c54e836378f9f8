import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ChangePasswordBody,
  CreateSessionBody,
  CurrentSessionResponse,
  ErrorResponse,
  IdParams,
  LoginMethodsResponse,
  LogoutResponse,
  NoContent,
  ReauthenticateBody,
  ReauthenticationMethodsResponse,
  REAUTHENTICATION_MINUTES,
  SessionResponse,
  SignInSessionsResponse,
} from '@signpost/contract';
import { accessTokensRoutes } from '../access-tokens/access-tokens.routes.ts';
import type { AccessTokensService } from '../access-tokens/access-tokens.service.ts';
import { secondFactorRoutes } from '../second-factor/second-factor.routes.ts';
import type { SecondFactorService } from '../second-factor/second-factor.service.ts';
import { ssoRoutes } from '../sso/sso.routes.ts';
import type { SsoService } from '../sso/sso.service.ts';
import { signInResult } from '../../plugins/metrics.ts';
import { caller, originOf } from '../../lib/request-context.ts';
import type { AuthService } from './auth.service.ts';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 429: ErrorResponse };
const signInErrors = { ...errors, 403: ErrorResponse };
const bearer = [{ bearer: [] }];

/** The services of the sign-in routes and of the routes nested under them. */
export interface AuthRoutesOptions {
  auth: AuthService;
  sso: SsoService;
  accessTokens: AccessTokensService;
  secondFactor: SecondFactorService;
}

export const authRoutes: FastifyPluginAsyncTypebox<AuthRoutesOptions> = async (
  app,
  { auth, sso, accessTokens, secondFactor },
) => {
  app.get(
    '/methods',
    {
      schema: {
        tags: ['auth'],
        summary: 'The ways to sign in',
        response: { 200: LoginMethodsResponse },
      },
    },
    async () => [
      { type: 'email-password' as const, name: 'E-mail and password' },
      ...sso.methods(),
    ],
  );

  app.post(
    '/sessions',
    {
      schema: {
        tags: ['auth'],
        summary: 'Sign in with e-mail and password (and the second factor when it is on)',
        description:
          'With a second factor on, the password alone answers 401 SECOND_FACTOR_REQUIRED; ' +
          'send the same body again with `totp` or `recoveryCode`. A wrong or used code ' +
          'answers 401 SECOND_FACTOR_INVALID and counts as a failed sign-in. When the ' +
          "person's organization allows single sign-on only, the right password answers 403 " +
          'PASSWORD_SIGN_IN_OFF (a wrong one answers 401 as always).',
        body: CreateSessionBody,
        response: { 201: SessionResponse, ...signInErrors },
      },
    },
    async (request, reply) => {
      let token: string;
      try {
        token = await auth.login({
          email: request.body.email,
          password: request.body.password,
          totp: request.body.totp,
          recoveryCode: request.body.recoveryCode,
          ip: request.ip,
          userAgent: request.headers['user-agent'],
        });
      } catch (error) {
        app.metrics.signIn('password', signInResult(error));
        throw error;
      }
      app.metrics.signIn('password', 'success');
      return reply.status(201).send({ token });
    },
  );

  app.get(
    '/sessions/current',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['auth'],
        summary: 'Sign in by token: the person behind the bearer token',
        description: 'Answers for a session token and for a personal access token alike.',
        security: bearer,
        response: { 200: CurrentSessionResponse, 401: ErrorResponse },
      },
    },
    async (request) => {
      const me = caller(request);
      return {
        user: { id: me.userId, name: me.name, email: me.email, role: me.role },
        organization: { id: me.organizationId, name: me.organizationName },
        session: {
          kind: me.sessionId ? ('session' as const) : ('access-token' as const),
          expiresAt: me.expiresAt?.toISOString() ?? null,
        },
      };
    },
  );

  app.delete(
    '/sessions/current',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['auth'],
        summary: 'Sign out: the token stops working everywhere',
        description:
          'A personal access token is not ended by signing out; revoke it with DELETE /api/auth/tokens/{id}.',
        security: bearer,
        response: { 204: NoContent, 401: ErrorResponse },
      },
    },
    async (request, reply) => {
      await auth.logout(caller(request), originOf(request));
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/logout',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['auth'],
        summary: 'Sign out, and learn where to end the single sign-on session too',
        description:
          'Ends the session like DELETE /sessions/current. When the session came from a ' +
          'provider configured with logout and the provider supports RP-initiated logout, ' +
          '`logoutUrl` is its end-session address: send the browser there; it returns to the ' +
          'portal. Otherwise `logoutUrl` is null.',
        security: bearer,
        response: { 200: LogoutResponse, 401: ErrorResponse },
      },
    },
    async (request) => sso.logout(caller(request), originOf(request)),
  );

  app.get(
    '/sessions',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['auth'],
        summary: "Where you're signed in: your live sessions",
        security: bearer,
        response: { 200: SignInSessionsResponse, 401: ErrorResponse },
      },
    },
    async (request) => auth.listSessions(caller(request)),
  );

  app.post(
    '/password',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['auth'],
        summary:
          'Change your password; optionally end every other session and revoke every access token',
        description:
          'Needs a sign-in session, not an access token. A wrong current password is 400. ' +
          '`revokeAccessTokens` left out follows `signOutOtherSessions`: signing out ' +
          'everywhere else revokes the access tokens too unless it is set to false.',
        security: bearer,
        body: ChangePasswordBody,
        response: {
          204: NoContent,
          400: ErrorResponse,
          401: ErrorResponse,
          403: ErrorResponse,
          409: ErrorResponse,
          429: ErrorResponse,
        },
      },
    },
    async (request, reply) => {
      await auth.changePassword(caller(request), request.body, originOf(request));
      return reply.status(204).send(null);
    },
  );

  app.delete(
    '/sessions/others',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['auth'],
        summary: 'End every session but this one',
        security: bearer,
        response: { 204: NoContent, 401: ErrorResponse },
      },
    },
    async (request, reply) => {
      await auth.endOtherSessions(caller(request), originOf(request));
      return reply.status(204).send(null);
    },
  );

  app.delete(
    '/sessions/:id',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['auth'],
        summary: 'End one of your sessions; its token gets 401 from then on',
        security: bearer,
        params: IdParams,
        response: { 204: NoContent, 400: ErrorResponse, 401: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (request, reply) => {
      await auth.endSession(caller(request), request.params.id, originOf(request));
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/reauthenticate',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['auth'],
        summary: 'How you can confirm who you are before a sensitive change',
        description:
          'Sensitive changes (the second factor, access tokens, and in the console e-mail ' +
          'addresses, roles and second-factor resets) answer 403 REAUTHENTICATION_REQUIRED ' +
          'unless the session signed in or re-authenticated in the last 5 minutes.',
        security: bearer,
        response: { 200: ReauthenticationMethodsResponse, 401: ErrorResponse },
      },
    },
    async (request) => {
      const me = caller(request);
      const [password, factor, providers] = await Promise.all([
        auth.canReauthenticateWithPassword(me),
        secondFactor.status(me.userId),
        sso.providersOf(me.userId),
      ]);
      return {
        password,
        secondFactor: factor.enabled,
        providers,
        recent: Boolean(me.sessionId && me.recentlyAuthenticated),
        windowMinutes: REAUTHENTICATION_MINUTES,
      };
    },
  );

  app.post(
    '/reauthenticate',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['auth'],
        summary: 'Confirm who you are with your password (and code), for sensitive changes',
        description:
          'With a second factor on, a code (`totp` or `recoveryCode`) is needed too: without ' +
          'one the right password answers 400 SECOND_FACTOR_REQUIRED. A wrong password or ' +
          'code is 400 (never 401, which the web app takes for a lost session), throttled per ' +
          'person like sign-in (429). 204: the session counts as recently authenticated for ' +
          '5 minutes. People without a password use POST /api/auth/reauthenticate/sso.',
        security: bearer,
        body: ReauthenticateBody,
        response: {
          204: NoContent,
          400: ErrorResponse,
          401: ErrorResponse,
          403: ErrorResponse,
          409: ErrorResponse,
          429: ErrorResponse,
        },
      },
    },
    async (request, reply) => {
      await auth.reauthenticate(caller(request), request.body, originOf(request));
      return reply.status(204).header('Cache-Control', 'no-store').send(null);
    },
  );

  await app.register(accessTokensRoutes, { accessTokens });
  await app.register(secondFactorRoutes, { secondFactor });
  await app.register(ssoRoutes, { sso });
};
