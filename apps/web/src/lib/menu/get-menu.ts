import type { Menu } from '@signpost/contract';
import { queryOptions, useQuery, type QueryFunctionContext } from '@tanstack/react-query';
import { consumerApi, reportApiError } from '../api-client';
import { MENU_REFRESH_LIVE_MS, MENU_REFRESH_MS, STATUS_NOT_MODIFIED } from '../constants';
import { useSession } from '../use-session';
import { processMenu } from './process-menu';
import type { ProcessedMenu } from './menu-types';
import { menuStreamOpen } from './stream-state';

/** The processed menu with the ETag it was read at. */
export type FetchedMenu = ProcessedMenu & { etag: string | null };

export const menuQueryKey = (token: string | null) => ['menu', token] as const;

/**
 * Reads the menu. The menu already in the query cache for this token is sent as its ETag; an
 * unchanged menu is answered with 304 and that menu is kept as it is (no processing again).
 */
export async function getMenu({
  client,
  queryKey,
}: QueryFunctionContext<ReturnType<typeof menuQueryKey>>): Promise<FetchedMenu> {
  const previous = client.getQueryData<FetchedMenu>(queryKey);
  try {
    const response = await consumerApi.request<Menu>('/menu', {
      headers: previous?.etag ? { 'If-None-Match': previous.etag } : {},
    });
    if (response.status === STATUS_NOT_MODIFIED && previous) return previous;
    return { ...processMenu(response.data), etag: response.headers.get('ETag') };
  } catch (error) {
    reportApiError('GET /menu', error);
    throw error;
  }
}

export function menuQueryOptions(token: string | null) {
  return queryOptions({
    queryKey: menuQueryKey(token),
    queryFn: getMenu,
    enabled: Boolean(token),
    staleTime: MENU_REFRESH_MS,
    // While the live-update stream is open it says when the menu changed: asking on one's
    // own is then only a safety net (decision 0062).
    refetchInterval: () => (menuStreamOpen() ? MENU_REFRESH_LIVE_MS : MENU_REFRESH_MS),
    retry: false,
  });
}

/** The processed menu of the signed-in person. */
export function useMenu() {
  const { token } = useSession();
  return useQuery(menuQueryOptions(token));
}
