import type {
  CreateSessionBody,
  CurrentSessionResponse,
  LogoutResponse,
  SessionResponse,
} from '@signpost/contract';
import { ApiError, authApi, errorMessage } from './api-client';
import { STATUS_SESSION_CREATED } from './constants';
import { clearSession, getSession, setSessionToken } from './session-store';
import { track } from './tracking';

export type LoginResult =
  | { error: false }
  | {
      error: true;
      msg: string;
      /** The answer's status; null when the server could not be reached. */
      status: number | null;
      /** The answer's stable `code`, or null. */
      code: string | null;
    };

/**
 * Login by token (`GET /api/auth/sessions/current`): on success the token becomes the
 * session's; on failure the result carries an error flag and the response's `msg`.
 */
export async function loginByToken(token: string): Promise<LoginResult> {
  try {
    await authApi.request<CurrentSessionResponse>('/sessions/current', { token });
    setSessionToken(token);
    track({ name: 'login', status: 'success' });
    return { error: false };
  } catch (error) {
    const data = error instanceof ApiError ? error.data : null;
    const msg =
      (data && typeof data === 'object' && typeof (data as { msg?: unknown }).msg === 'string'
        ? (data as { msg: string }).msg
        : errorMessage(data)) ?? String((error as Error).message ?? error);
    const status = error instanceof ApiError ? error.status : null;
    track({ name: 'login', status: 'error', data: { status } });
    return { error: true, msg, status, code: errorCode(error) };
  }
}

/** The second step of a password sign-in: a code of the app, or a recovery code. */
export type SecondFactor = { totp: string } | { recoveryCode: string };

/** The error codes of a password sign-in that ask for, or refuse, the second factor. */
export const SECOND_FACTOR_REQUIRED = 'SECOND_FACTOR_REQUIRED';
export const SECOND_FACTOR_INVALID = 'SECOND_FACTOR_INVALID';
/** The code of a sign-in by token whose access token is past its expiry (decision 0054). */
export const ACCESS_TOKEN_EXPIRED = 'ACCESS_TOKEN_EXPIRED';

/** The `code` of an error answer, or null. */
export function errorCode(error: unknown): string | null {
  const data = error instanceof ApiError ? error.data : null;
  return data && typeof data === 'object' && typeof (data as { code?: unknown }).code === 'string'
    ? (data as { code: string }).code
    : null;
}

/**
 * E-mail and password sign-in: POST a session, and on 201 complete the login with the
 * token. Rejects with the server's answer when the POST fails; with a second factor on,
 * that is a 401 `SECOND_FACTOR_REQUIRED`, and the same call again with `factor` signs in.
 */
export async function loginWithPassword(email: string, password: string, factor?: SecondFactor) {
  let token: string;
  const body: CreateSessionBody = { type: 'email-password', email, password, ...factor };
  try {
    const response = await authApi.request<SessionResponse>('/sessions/', {
      method: 'POST',
      body,
      token: null,
    });
    if (response.status !== STATUS_SESSION_CREATED)
      throw new ApiError(response.status, response.data);
    token = response.data.token;
  } catch (error) {
    // Asking for the second factor is a step of the sign-in, not a failure.
    if (errorCode(error) !== SECOND_FACTOR_REQUIRED) {
      track({ name: 'login', status: 'error', data: { status: (error as ApiError).status } });
    }
    throw error;
  }
  return loginByToken(token);
}

/**
 * Finishes a single sign-on that waits for the second factor (decision 0048): the ticket of
 * the address with the code, from this browser (its cookie goes along). Rejects with the
 * server's answer: 401 `SECOND_FACTOR_INVALID` for a wrong code, `SIGN_IN_EXPIRED` for a
 * ticket that can no longer be used.
 */
export async function completeSsoSecondFactor(ticket: string, factor: SecondFactor) {
  let token: string;
  try {
    const response = await authApi.request<SessionResponse>('/sso/second-factor', {
      method: 'POST',
      body: { ticket, ...factor },
      token: null,
    });
    token = response.data.token;
  } catch (error) {
    track({ name: 'login', status: 'error', data: { status: (error as ApiError).status } });
    throw error;
  }
  return loginByToken(token);
}

/**
 * Logout (`POST /logout`): the server ends the session, then the token and everything the
 * portal kept of the person in this browser are removed (decision 0080).
 * A session opened by single sign-on may answer the provider's sign-out address: the
 * browser goes there, and the provider brings it back to the portal's login screen. The
 * address carries the provider's ID token as a hint, so it is never logged or tracked.
 */
export async function logout() {
  const token = getSession().token;
  let logoutUrl: string | null = null;
  try {
    if (token) {
      const response = await authApi.request<LogoutResponse>('/logout', { method: 'POST', token });
      logoutUrl = response.data?.logoutUrl ?? null;
    }
    track({ name: 'logout', status: 'success' });
  } catch (error) {
    track({ name: 'logout', status: 'error', data: { status: (error as ApiError).status } });
  } finally {
    clearSession({ signedOut: true });
  }
  if (logoutUrl && isWebAddress(logoutUrl)) window.location.assign(logoutUrl);
}

function isWebAddress(url: string) {
  try {
    const { protocol } = new URL(url, window.location.origin);
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}
