import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { AuthContext } from '../lib/auth-context.ts';
import { unauthorized } from '../lib/errors.ts';
import { createAuthService, type AuthService } from '../modules/auth/auth.service.ts';
import { createSsoService, type SsoService } from '../modules/sso/sso.service.ts';

const BEARER = /^Bearer ([A-Za-z0-9._~+/=-]{16,512})$/;

/** Decorates the app with the auth and single sign-on services and `app.authenticate`. */
export const authPlugin = fp(async (app: FastifyInstance) => {
  app.decorate('auth', createAuthService(app.database.db, app.config));
  app.decorate('sso', createSsoService(app.database.db, app.config, app.auth, app.log));
  app.decorateRequest('authContext', null);

  /** For routes that need a signed-in person: 401 otherwise. */
  app.decorate('authenticate', async (request: FastifyRequest) => {
    const match = BEARER.exec(request.headers.authorization ?? '');
    const context = match?.[1] ? await app.auth.authenticate(match[1]) : null;
    if (!context) {
      throw unauthorized(match ? 'Your session has ended. Sign in again.' : 'Sign in to continue.');
    }
    request.authContext = context;
  });
});

/** The caller of a route behind `authenticate`. */
export function caller(request: FastifyRequest): AuthContext {
  if (!request.authContext) throw unauthorized();
  return request.authContext;
}

declare module 'fastify' {
  interface FastifyInstance {
    auth: AuthService;
    sso: SsoService;
    authenticate: (request: FastifyRequest) => Promise<void>;
  }
  interface FastifyRequest {
    authContext: AuthContext | null;
  }
}
