import type { SsoGroupsResponse, UpdateSsoGroupsBody } from '@signpost/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { adminApi } from '../../../lib/api-client';
import { useSession } from '../../../lib/use-session';

export const ssoGroupsKey = (token: string | null) => ['admin', 'sso-groups', token] as const;

/**
 * Each single sign-on provider of the organization, with the claim that lists a person's
 * groups and which group gives which team or the administrator role (decision 0084).
 */
export function useSsoGroups() {
  const { token } = useSession();
  return useQuery({
    queryKey: ssoGroupsKey(token),
    queryFn: async () => (await adminApi.request<SsoGroupsResponse>('/sso-groups')).data,
  });
}

/**
 * Replaces one provider's claim and mappings; the answer is every provider as stored. A group
 * may give the administrator role, so a session that signed in too long ago is asked to
 * confirm who it is first (403 REAUTHENTICATION_REQUIRED, answered by the re-authentication
 * dialog inside the call), then the call is made again.
 */
export function useSaveSsoGroups() {
  const client = useQueryClient();
  const { token } = useSession();
  return useMutation({
    mutationFn: async ({ providerId, body }: { providerId: string; body: UpdateSsoGroupsBody }) =>
      (
        await adminApi.request<SsoGroupsResponse>(`/sso-groups/${encodeURIComponent(providerId)}`, {
          method: 'PUT',
          body,
        })
      ).data,
    onSuccess: (stored) => client.setQueryData(ssoGroupsKey(token), stored),
  });
}
