import type { OrganizationSettings, UpdateOrganizationBody } from '@signpost/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { adminApi } from '../../../lib/api-client';
import { useSession } from '../../../lib/use-session';

const settingsKey = (token: string | null) => ['admin', 'organization', token] as const;

/** The organization's settings. */
export function useOrganizationSettings() {
  const { token } = useSession();
  return useQuery({
    queryKey: settingsKey(token),
    queryFn: async () => (await adminApi.request<OrganizationSettings>('/organization')).data,
  });
}

/** Saves changed settings; the answer is the settings as stored, and the menu reloads. */
export function useSaveOrganizationSettings() {
  const client = useQueryClient();
  const { token } = useSession();
  return useMutation({
    mutationFn: async (body: UpdateOrganizationBody) =>
      (await adminApi.request<OrganizationSettings>('/organization', { method: 'PATCH', body }))
        .data,
    onSuccess: (settings) => {
      client.setQueryData(settingsKey(token), settings);
      // The footer's addresses and the intro texts are part of the menu.
      void client.invalidateQueries({ queryKey: ['menu'] });
    },
  });
}
