import type { AttentionLink, AttentionResponse } from '@signpost/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { consumerApi } from '../../../lib/api-client';
import { useOnline } from '../../../lib/offline/use-online';
import { useSession } from '../../../lib/use-session';

/** The attention list is read again this often while the portal is open (decision 0069). */
export const ATTENTION_REFRESH_MS = 10 * 60 * 1000;

export const attentionQueryKey = (token: string | null) =>
  ['link-health', 'attention', token] as const;

const NO_ITEMS: AttentionLink[] = [];

/**
 * The links that need the signed-in person (decision 0069): the broken and moved ones they
 * may change, and those of the shares they are a member of (`canChange` false). Read when
 * the portal shows, again when the menu changes (`menuVersion`: its ETag), on window focus
 * and every ten minutes; never signed out, offline, or while the portal shows a kept copy.
 * A failed read shows no marks rather than an error: the list is a help, not the portal.
 */
export function useAttention(menuVersion: string | null, enabled: boolean) {
  const { token } = useSession();
  const online = useOnline();
  const client = useQueryClient();
  const queryKey = attentionQueryKey(token);
  const query = useQuery({
    queryKey,
    queryFn: async ({ signal }) =>
      (await consumerApi.request<AttentionResponse>('/links/attention', { signal })).data,
    enabled: Boolean(token) && enabled && online,
    refetchInterval: ATTENTION_REFRESH_MS,
    refetchOnWindowFocus: true,
    // A focus soon after a read asks nothing.
    staleTime: 30_000,
    retry: false,
  });
  // The menu changed (a write, or someone else's change): what needs attention may have too.
  // One key for every read, so an unchanged answer keeps its objects and nothing re-renders.
  const seen = useRef(menuVersion);
  useEffect(() => {
    const previous = seen.current;
    if (previous === menuVersion) return;
    seen.current = menuVersion;
    // The first menu read starts the first read of the list: it is not asked twice.
    if (previous !== null && enabled && online)
      void client.invalidateQueries({ queryKey: attentionQueryKey(token) });
  }, [client, menuVersion, enabled, online, token]);
  return query.data?.items ?? NO_ITEMS;
}

/** Removes a link from the list at once (it was fixed; the server already left it out). */
export function useForgetAttention() {
  const client = useQueryClient();
  const { token } = useSession();
  return (linkId: string) =>
    client.setQueryData<AttentionResponse>(attentionQueryKey(token), (current) =>
      current ? { items: current.items.filter((item) => item.linkId !== linkId) } : current,
    );
}
