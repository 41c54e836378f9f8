import type { SetupStatusResponse } from '@signpost/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { setupApi } from '../../../lib/api-client';

export const setupStatusQueryOptions = queryOptions({
  queryKey: ['setup-status'],
  queryFn: async (): Promise<SetupStatusResponse> =>
    (await setupApi.request<SetupStatusResponse>('/', { token: null })).data,
  staleTime: Infinity,
  retry: false,
});

/**
 * Whether this installation still needs its first run. Asked only on the login screen;
 * a failed answer counts as "no", so the login screen stays.
 */
export function useSetupStatus() {
  return useQuery(setupStatusQueryOptions);
}
