import type { Menu } from '@signpost/contract';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { consumerApi, reportApiError } from '../api-client';
import { STATUS_NOT_MODIFIED } from '../constants';
import { useSession } from '../use-session';
import { processMenu } from './process-menu';
import type { ProcessedMenu } from './menu-types';

// The last menu and its ETag per token: an unchanged menu is answered with 304 and reused.
const lastMenu = new Map<string, { etag: string; menu: ProcessedMenu }>();

export async function getMenu(token: string): Promise<ProcessedMenu> {
  const cached = lastMenu.get(token);
  try {
    const response = await consumerApi.request<Menu>('/menu', {
      headers: cached ? { 'If-None-Match': cached.etag } : {},
    });
    if (response.status === STATUS_NOT_MODIFIED && cached) return cached.menu;
    const menu = processMenu(response.data);
    const etag = response.headers.get('ETag');
    lastMenu.clear();
    if (etag) lastMenu.set(token, { etag, menu });
    return menu;
  } catch (error) {
    reportApiError('GET /menu', error);
    throw error;
  }
}

export function forgetMenuCache() {
  lastMenu.clear();
}

export const menuQueryKey = (token: string | null) => ['menu', token] as const;

export function menuQueryOptions(token: string | null) {
  return queryOptions({
    queryKey: menuQueryKey(token),
    queryFn: () => getMenu(token ?? ''),
    enabled: Boolean(token),
    staleTime: 30_000,
    retry: false,
  });
}

/** The processed menu of the signed-in person. */
export function useMenu() {
  const { token } = useSession();
  return useQuery(menuQueryOptions(token));
}

/**
 * Runs a write and reloads the menu after it succeeded (spec §4). Resolves to the write's
 * result, so panels can stay open on failure.
 */
export function useMenuWrite() {
  const queryClient = useQueryClient();
  const { token } = useSession();
  return useCallback(
    async (write: () => Promise<boolean>) => {
      const ok = await write();
      if (ok) await queryClient.invalidateQueries({ queryKey: menuQueryKey(token) });
      return ok;
    },
    [queryClient, token],
  );
}
