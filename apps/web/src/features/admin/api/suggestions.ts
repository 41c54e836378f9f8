import type {
  AcceptSuggestionBody,
  AdminSuggestion,
  AdminSuggestionsResponse,
  SuggestionStatus,
} from '@signpost/contract';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { adminApi } from '../../../lib/api-client';
import { useSession } from '../../../lib/use-session';

const all = (token: string | null) => ['admin', 'suggestions', token] as const;

/** Suggestions to the spaces the person runs, newest first, by status. */
export function useAdminSuggestions(status: SuggestionStatus) {
  const { token } = useSession();
  return useInfiniteQuery({
    queryKey: [...all(token), status],
    initialPageParam: undefined as string | undefined,
    queryFn: async ({ pageParam }) =>
      (
        await adminApi.request<AdminSuggestionsResponse>('/suggestions', {
          query: { status, limit: 25, after: pageParam },
        })
      ).data,
    getNextPageParam: (last) => last.next ?? undefined,
  });
}

/** Accept (optionally edited) or decline; the lists and the menu reload. */
export function useDecideSuggestion() {
  const client = useQueryClient();
  const { token } = useSession();
  const onSettled = () => {
    void client.invalidateQueries({ queryKey: all(token) });
    void client.invalidateQueries({ queryKey: ['menu'] });
  };
  return {
    accept: useMutation({
      mutationFn: async ({ id, body }: { id: string; body: AcceptSuggestionBody }) =>
        (
          await adminApi.request<AdminSuggestion>(`/suggestions/${id}/accept`, {
            method: 'POST',
            body,
          })
        ).data,
      onSettled,
    }),
    decline: useMutation({
      mutationFn: async ({ id, reason }: { id: string; reason: string }) =>
        (
          await adminApi.request<AdminSuggestion>(`/suggestions/${id}/decline`, {
            method: 'POST',
            body: reason ? { reason } : {},
          })
        ).data,
      onSettled,
    }),
  };
}
