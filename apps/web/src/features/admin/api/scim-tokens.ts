import type {
  CreatedScimTokenResponse,
  CreateScimTokenBody,
  ScimTokensResponse,
} from '@signpost/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { adminApi } from '../../../lib/api-client';
import { useSession } from '../../../lib/use-session';

const scimTokensKey = (token: string | null) => ['admin', 'scim-tokens', token] as const;

/** The organization's live SCIM tokens, newest first (never the tokens themselves). */
export function useScimTokens() {
  const { token } = useSession();
  return useQuery({
    queryKey: scimTokensKey(token),
    queryFn: async () => (await adminApi.request<ScimTokensResponse>('/scim-tokens')).data,
  });
}

/**
 * Makes a token; the answer carries it this once, and the list reloads. A session that
 * signed in too long ago is asked to confirm who it is first (403 REAUTHENTICATION_REQUIRED,
 * answered by the re-authentication dialog), then the call is made again.
 */
export function useCreateScimToken() {
  const client = useQueryClient();
  const { token } = useSession();
  return useMutation({
    mutationFn: async (body: CreateScimTokenBody) =>
      (
        await adminApi.request<CreatedScimTokenResponse>('/scim-tokens', {
          method: 'POST',
          body,
        })
      ).data,
    onSuccess: () => client.invalidateQueries({ queryKey: scimTokensKey(token) }),
  });
}

/** Revokes a token: the identity system that holds it gets 401 from then on. */
export function useRevokeScimToken() {
  const client = useQueryClient();
  const { token } = useSession();
  return useMutation({
    mutationFn: async (id: string) => {
      await adminApi.request<null>(`/scim-tokens/${encodeURIComponent(id)}`, {
        method: 'DELETE',
      });
    },
    onSettled: () => client.invalidateQueries({ queryKey: scimTokensKey(token) }),
  });
}
