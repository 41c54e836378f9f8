import { REAUTHENTICATION_MINUTES } from '@signpost/contract';
import type { AuthContext } from './auth-context.ts';
import { AppError, forbidden } from './errors.ts';

/** 403 REAUTHENTICATION_REQUIRED: the web app opens its re-authentication dialog. */
export const reauthenticationRequired = (doing: string) =>
  new AppError(
    403,
    'REAUTHENTICATION_REQUIRED',
    `To ${doing}, confirm it's you: enter your password, or sign in again with your provider. ` +
      `This is asked when you last did so more than ${REAUTHENTICATION_MINUTES} minutes ago.`,
  );

/**
 * For sensitive changes (decision 0048, ASVS 5.0 V7.5): the caller must be a sign-in
 * session whose sign-in or last re-authentication is at most REAUTHENTICATION_MINUTES old;
 * otherwise 403 REAUTHENTICATION_REQUIRED. A personal access token cannot re-authenticate:
 * 403 FORBIDDEN.
 *
 * @param doing what the caller is doing, for the message ("turn the second factor off")
 */
export function assertRecentlyAuthenticated(me: AuthContext, doing: string): AuthContext {
  if (!me.sessionId) throw forbidden(`Sign in to ${doing}; an access token cannot.`);
  if (!me.recentlyAuthenticated) throw reauthenticationRequired(doing);
  return me;
}
