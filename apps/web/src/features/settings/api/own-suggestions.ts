import type { OwnSuggestionsResponse } from '@signpost/contract';
import { useInfiniteQuery } from '@tanstack/react-query';
import { consumerApi } from '../../../lib/api-client';
import { useSession } from '../../../lib/use-session';

/** The person's own suggestions, newest first, with what became of them. */
export function useOwnSuggestions() {
  const { token } = useSession();
  return useInfiniteQuery({
    queryKey: ['settings', 'suggestions', token],
    initialPageParam: undefined as string | undefined,
    queryFn: async ({ pageParam }) =>
      (
        await consumerApi.request<OwnSuggestionsResponse>('/suggestions', {
          query: { limit: 20, after: pageParam },
        })
      ).data,
    getNextPageParam: (last) => last.next ?? undefined,
  });
}
