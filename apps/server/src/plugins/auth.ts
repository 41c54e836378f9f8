import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { AuthContext } from '../lib/auth-context.ts';
import { unauthorized, type AppError } from '../lib/errors.ts';

// The scheme is case-insensitive (RFC 9110 §11.1) and may be followed by several spaces; the
// token is a token68.
const BEARER = /^Bearer +([A-Za-z0-9._~+/=-]{16,512}) *$/i;

/** What turns a bearer token into a caller: the auth module's service. */
export interface Authenticator {
  authenticate(
    token: string,
    menuScopes?: boolean,
    peopleVersion?: boolean,
  ): Promise<AuthContext | null>;
  /** Why a token that did not authenticate was refused (decision 0054). */
  refusal(token: string): Promise<AppError>;
}

/** Decorates the app with `app.authenticate`, for routes that need a signed-in person. */
export const authPlugin = fp(async (app: FastifyInstance, { auth }: { auth: Authenticator }) => {
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
    const context = await auth.authenticate(token, menuScopes, peopleVersion);
    if (!context) throw await auth.refusal(token);
    request.authContext = context;
  });
});

declare module 'fastify' {
  interface FastifyInstance {
    authenticate: (request: FastifyRequest) => Promise<void>;
  }
  interface FastifyContextConfig {
    /** The route answers with the menu's ETag: read the person's scope versions too. */
    menuScopes?: boolean;
    /** The route searches the organization's people: read their version too. */
    peopleVersion?: boolean;
  }
}
