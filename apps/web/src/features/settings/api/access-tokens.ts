import type {
  AccessTokensResponse,
  CreateAccessTokenBody,
  CreatedAccessTokenResponse,
} from '@signpost/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { authApi } from '../../../lib/api-client';
import { useSession } from '../../../lib/use-session';
import { settingsKeys } from './settings-keys';

export async function getAccessTokens(): Promise<AccessTokensResponse> {
  return (await authApi.request<AccessTokensResponse>('/tokens')).data;
}

export async function createAccessToken(body: CreateAccessTokenBody) {
  return (await authApi.request<CreatedAccessTokenResponse>('/tokens', { method: 'POST', body }))
    .data;
}

export async function revokeAccessToken(id: string) {
  await authApi.request<null>(`/tokens/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

/** The person's live access tokens (never the tokens themselves). */
export function useAccessTokens() {
  const { token } = useSession();
  return useQuery({ queryKey: settingsKeys.tokens(token), queryFn: getAccessTokens });
}

/** Creates a token; the list reloads, the answer carries the token this once. */
export function useCreateAccessToken() {
  const client = useQueryClient();
  const { token } = useSession();
  return useMutation({
    mutationFn: createAccessToken,
    onSuccess: () => client.invalidateQueries({ queryKey: settingsKeys.tokens(token) }),
  });
}

export function useRevokeAccessToken() {
  const client = useQueryClient();
  const { token } = useSession();
  return useMutation({
    mutationFn: revokeAccessToken,
    onSuccess: () => client.invalidateQueries({ queryKey: settingsKeys.tokens(token) }),
  });
}
