import type { CurrentSessionResponse, SessionResponse } from '@signpost/contract';
import { ApiError, authApi, errorMessage } from './api-client';
import { STATUS_SESSION_CREATED } from './constants';
import { clearSession, getSession, setSessionToken } from './session-store';
import { track } from './tracking';

export type LoginResult = { error: false } | { error: true; msg: string };

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
    track({ name: 'login', status: 'error', data: { status: (error as ApiError).status } });
    return { error: true, msg };
  }
}

/**
 * E-mail and password sign-in: POST a session, and on 201 complete the login with the
 * token. Rejects with the server's message when the POST fails.
 */
export async function loginWithPassword(email: string, password: string) {
  let token: string;
  try {
    const response = await authApi.request<SessionResponse>('/sessions/', {
      method: 'POST',
      body: { type: 'email-password', email, password },
      token: null,
    });
    if (response.status !== STATUS_SESSION_CREATED)
      throw new ApiError(response.status, response.data);
    token = response.data.token;
  } catch (error) {
    track({ name: 'login', status: 'error', data: { status: (error as ApiError).status } });
    throw error;
  }
  return loginByToken(token);
}

/** Logout: the server revokes the session, then token and storage are cleared. */
export async function logout() {
  const token = getSession().token;
  try {
    if (token) await authApi.request<null>('/sessions/current', { method: 'DELETE', token });
    track({ name: 'logout', status: 'success' });
  } catch (error) {
    track({ name: 'logout', status: 'error', data: { status: (error as ApiError).status } });
  } finally {
    clearSession();
  }
}
