import type { BrokenLinksResponse } from '@signpost/contract';
import { useQuery } from '@tanstack/react-query';
import { adminApi } from '../../../lib/api-client';
import { useSession } from '../../../lib/use-session';

export const brokenLinksQueryKey = (token: string | null) =>
  ['admin', 'broken-links', token] as const;

/**
 * The organization's broken team and organization links (decision 0069), longest broken
 * first: every one for an administrator, those of their teams for a team editor; anyone else
 * is answered 403.
 */
export function useBrokenLinks() {
  const { token } = useSession();
  return useQuery({
    queryKey: brokenLinksQueryKey(token),
    queryFn: async ({ signal }) =>
      (await adminApi.request<BrokenLinksResponse>('/links/broken', { signal })).data,
    // The console asks as it opens (a 403 takes the tab away); the tab uses that answer.
    staleTime: 60_000,
    retry: false,
  });
}
