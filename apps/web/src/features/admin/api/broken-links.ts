import type { BrokenLinksResponse, UpdateLinkBody } from '@signpost/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { adminApi } from '../../../lib/api-client';
import { deleteLinkNamingUndo, updateLinkNamingUndo } from '../../../lib/menu/menu-writes';
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

/**
 * What mends a broken link from the list: its address changed (the portal's own call, with
 * its validation), the link deleted (undoable, as any deletion), or the finding marked wrong.
 * The list is not read again after them: each row keeps what was done to it, to say so. A
 * deletion and an edit answer the id of the undo they offered (null: none), so that the row
 * says what it is again once that undo is applied.
 */
export function useMendBrokenLink() {
  const client = useQueryClient();
  const { token } = useSession();
  // Read again the next time the list is shown, not now: the rows say what was done.
  const onSuccess = () =>
    client.invalidateQueries({ queryKey: brokenLinksQueryKey(token), refetchType: 'none' });
  return {
    update: useMutation({
      mutationFn: ({
        linkId,
        name,
        body,
      }: {
        linkId: string;
        name: string;
        body: UpdateLinkBody;
      }) => updateLinkNamingUndo(linkId, body, name),
      onSuccess,
    }),
    remove: useMutation({
      mutationFn: ({ linkId, name }: { linkId: string; name: string }) =>
        deleteLinkNamingUndo(linkId, name),
      onSuccess,
    }),
    dismiss: useMutation({
      mutationFn: async (linkId: string) => {
        await adminApi.request<null>(`/links/${encodeURIComponent(linkId)}/broken/dismissal`, {
          method: 'POST',
        });
      },
      onSuccess,
    }),
  };
}
