import type { FastifyRequest } from 'fastify';
import type { AuthContext } from '../../lib/auth-context.ts';
import { assertRecentlyAuthenticated } from '../../lib/reauthentication.ts';
import { caller } from '../../lib/request-context.ts';

/**
 * The caller of a sensitive route (decision 0048): a session that signed in or
 * re-authenticated within the last few minutes, else 403 REAUTHENTICATION_REQUIRED (and
 * 403 FORBIDDEN for an access token). The web app answers the 403 with its
 * re-authentication dialog, then repeats the call.
 */
export function requireRecentAuthentication(request: FastifyRequest, doing: string): AuthContext {
  return assertRecentlyAuthenticated(caller(request), doing);
}
