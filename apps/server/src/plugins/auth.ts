import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { unauthorized } from '../lib/errors.ts';
import { createAuthService, type AuthService } from '../modules/auth/auth.service.ts';
import { createSsoService, type SsoService } from '../modules/sso/sso.service.ts';

// The scheme is case-insensitive (RFC 9110 §11.1) and may be followed by several spaces; the
// token is a token68.
const BEARER = /^Bearer +([A-Za-z0-9._~+/=-]{16,512}) *$/i;

/** Decorates the app with the auth and single sign-on services and `app.authenticate`. */
export const authPlugin = fp(async (app: FastifyInstance) => {
  app.decorate('auth', createAuthService(app.database.db, app.config));
  app.decorate('sso', createSsoService(app.database.db, app.config, app.auth, app.log));
  app.decorateRequest('authContext', null);

  /** For routes that need a signed-in person: 401 otherwise. */
  app.decorate('authenticate', async (request: FastifyRequest) => {
    const header = request.headers.authorization;
    // No token at all is an invitation to sign in; a token that does not work says so, so
    // that a person who pasted one learns it is the token (decision 0054).
    if (header === undefined) throw unauthorized('Sign in to continue.');
    const token = BEARER.exec(header)?.[1];
    if (!token) throw unauthorized('This token is not valid.');
    const { menuScopes, peopleVersion } = request.routeOptions.config;
    const context = await app.auth.authenticate(token, menuScopes, peopleVersion);
    if (!context) throw await app.auth.refusal(token);
    request.authContext = context;
  });
});

declare module 'fastify' {
  interface FastifyInstance {
    auth: AuthService;
    sso: SsoService;
    authenticate: (request: FastifyRequest) => Promise<void>;
  }
  interface FastifyContextConfig {
    /** The route answers with the menu's ETag: read the person's scope versions too. */
    menuScopes?: boolean;
    /** The route searches the organization's people: read their version too. */
    peopleVersion?: boolean;
  }
}
