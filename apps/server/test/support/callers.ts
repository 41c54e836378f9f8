import type { AuthContext } from '../../src/lib/auth-context.ts';
import { newId } from '../../src/lib/ids.ts';
import type { TestUser } from '../factories.ts';

/**
 * A person as a service sees them once signed in (what the session lookup makes of a
 * session), for the service-level tests: a session, no menu versions read, not recently
 * re-authenticated.
 */
export const callerOf = (user: TestUser): AuthContext => ({
  sessionId: newId(),
  accessTokenId: null,
  userId: user.id,
  name: user.name,
  email: user.email,
  role: user.role,
  organizationId: user.organizationId,
  organizationName: 'Organization',
  menuScopes: null,
  peopleVersion: null,
  expiresAt: null,
});
