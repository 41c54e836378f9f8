import type { CompleteSetupBody, SessionResponse } from '@signpost/contract';
import { ApiError, setupApi } from '../../../lib/api-client';
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

/**
 * The field a refusal of the server is about, read from its message: a schema error names
 * the property (`body.password …`), the server's own sentences name the field in words.
 */
export function fieldOfMessage(message: string): SetupField | null {
  if (/setupCode|setup code/i.test(message)) return 'setupCode';
  if (/organizationName|organization name|name of the organization/i.test(message)) {
    return 'organizationName';
  }
  if (/password/i.test(message)) return 'password';
  if (/e-?mail/i.test(message)) return 'email';
  if (/body\.name\b|\bname\b/i.test(message)) return 'name';
  return null;
}
