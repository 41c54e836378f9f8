import type { CompleteSetupBody, SessionResponse } from '@signpost/contract';
import { ApiError, errorField, setupApi } from '../../../lib/api-client';
import { loginByToken } from '../../../lib/auth';
import { STATUS_SESSION_CREATED } from '../../../lib/constants';

/**
 * The first run: creates the organization and its administrator, then signs them in with
 * the token the server answers (like a password sign-in). Rejects with the server's answer.
 */
export async function completeSetup(body: CompleteSetupBody) {
  const response = await setupApi.request<SessionResponse>('/', {
    method: 'POST',
    body,
    token: null,
  });
  if (response.status !== STATUS_SESSION_CREATED) {
    throw new ApiError(response.status, response.data);
  }
  return loginByToken(response.data.token);
}

export type SetupField = keyof CompleteSetupBody;

const SETUP_FIELDS: readonly SetupField[] = [
  'organizationName',
  'name',
  'email',
  'password',
  'setupCode',
];

/**
 * The field a refusal of the server is about: the one its answer names (`field`, decision
 * 0078), else the one its sentence names in words ("The setup code is not right").
 */
export function fieldOfRefusal(data: unknown, message: string): SetupField | null {
  const named = errorField(data);
  if (named && (SETUP_FIELDS as readonly string[]).includes(named)) return named as SetupField;
  return fieldOfMessage(message);
}

/** The field a sentence of the server names in words, if any. */
export function fieldOfMessage(message: string): SetupField | null {
  if (/setup code/i.test(message)) return 'setupCode';
  if (/organization(?:'s|’s)? name|name of the organization/i.test(message)) {
    return 'organizationName';
  }
  if (/password/i.test(message)) return 'password';
  if (/e-?mail/i.test(message)) return 'email';
  if (/\bname\b/i.test(message)) return 'name';
  return null;
}
