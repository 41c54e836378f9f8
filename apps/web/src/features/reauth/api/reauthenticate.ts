import type {
  ReauthenticateBody,
  ReauthenticateSsoResponse,
  ReauthenticationMethodsResponse,
} from '@signpost/contract';
import { authApi } from '../../../lib/api-client';

/** How the signed-in person can confirm who they are. */
export async function getReauthenticationMethods() {
  return (await authApi.request<ReauthenticationMethodsResponse>('/reauthenticate')).data;
}

/** The password (and code): 204 stamps the session; a wrong one rejects with 400. */
export async function reauthenticateWithPassword(body: ReauthenticateBody) {
  await authApi.request<null>('/reauthenticate', { method: 'POST', body });
}

/** Starts a fresh single sign-on; resolves the provider address to send the browser to. */
export async function startSsoReauthentication(provider: string, returnTo: string) {
  const response = await authApi.request<ReauthenticateSsoResponse>('/reauthenticate/sso', {
    method: 'POST',
    body: { provider, returnTo },
  });
  return response.data.location;
}
