import type { Menu } from '@signpost/contract';
import { queryOptions, useQuery, type QueryFunctionContext } from '@tanstack/react-query';
import { consumerApi, NetworkError, reportApiError } from '../api-client';
import { MENU_REFRESH_LIVE_MS, MENU_REFRESH_MS, STATUS_NOT_MODIFIED } from '../constants';
import { confirmKeptMenu, keepMenu, openKeptMenu } from '../offline/keep';
import { useSession } from '../use-session';
import { processMenu } from './process-menu';
import type { ProcessedMenu } from './menu-types';
import { menuStreamOpen } from './stream-state';

/** The processed menu with the ETag it was read at. */
export type FetchedMenu = ProcessedMenu & {
  etag: string | null;
  /**
   * Shown without the network (decision 0065): the menu last read, kept in memory, or in
   * this browser when the portal opened offline.
   */
  offline?: boolean;
  /** The copy this browser kept, opened offline: every permission off, nothing to write. */
  readOnly?: boolean;
  /** When it was read (ms since 1970); for a kept copy, when the server last confirmed it. */
  readAt?: number;
};

export const menuQueryKey = (token: string | null) => ['menu', token] as const;

// When this tab last heard from the server that its menu was current, for the offline mark.
let lastRead = { token: null as string | null, at: 0 };

/** When the server last said the menu shown was current, for the offline mark; null if unknown. */
export function menuReadAt(menu: FetchedMenu, token: string | null): number | null {
  const confirmed = !menu.readOnly && lastRead.token === token ? lastRead.at : 0;
  const at = Math.max(menu.readAt ?? 0, confirmed);
  return at > 0 ? at : null;
}

/**
 * Reads the menu. The menu already in the query cache for this token is sent as its ETag; an
 * unchanged menu is answered with 304 and that menu is kept as it is (no processing again).
 * Without an answer at all, the menu last read is shown, marked offline: the one in memory,
 * else the one this browser kept, read-only (decision 0065).
 */
export async function getMenu({
  client,
  queryKey,
}: QueryFunctionContext<ReturnType<typeof menuQueryKey>>): Promise<FetchedMenu> {
  const token = queryKey[1];
  const previous = client.getQueryData<FetchedMenu>(queryKey);
  // A kept copy has its permissions off: it is never reused for a 304.
  const current = previous && !previous.readOnly ? previous : undefined;
  try {
    const response = await consumerApi.request<Menu>('/menu', {
      headers: current?.etag ? { 'If-None-Match': current.etag } : {},
    });
    const at = Date.now();
    lastRead = { token, at };
    if (response.status === STATUS_NOT_MODIFIED && current) {
      if (token) confirmKeptMenu(token, at);
      return current.offline ? { ...current, offline: false } : current;
    }
    const etag = response.headers.get('ETag');
    if (token) keepMenu(token, response.data, etag, at);
    return { ...processMenu(response.data), etag, readAt: at };
  } catch (error) {
    if (error instanceof NetworkError && token) {
      if (previous) return previous.offline ? previous : { ...previous, offline: true };
      const kept = await openKeptMenu(token);
      if (kept) {
        const { menu, etag, readAt } = kept;
        return { ...menu, etag, readAt, offline: true, readOnly: true };
      }
    }
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
    // Back online, the menu is read at once, however recently the kept one was shown.
    refetchOnReconnect: 'always',
    // Offline, the query still runs: it answers with the menu kept (decision 0065).
    networkMode: 'always',
    retry: false,
  });
}

/** The processed menu of the signed-in person. */
export function useMenu() {
  const { token } = useSession();
  return useQuery(menuQueryOptions(token));
}
