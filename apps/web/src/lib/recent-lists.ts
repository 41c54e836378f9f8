import { useCallback, useSyncExternalStore } from 'react';
import { RECENT_LIST_TRIM_ABOVE } from './constants';
import type { LinkLike } from './menu/menu-types';
import { onDeparture } from './personal-data';
import { readPerTokenList, writePerTokenList, type PerTokenList } from './storage';
import { useSession } from './use-session';

/**
 * Spec §4: most recent first, no duplicates; when more than RECENT_LIST_TRIM_ABOVE entries
 * exist the oldest is removed, so the list holds at most RECENT_LIST_MAX_ENTRIES.
 */
export function pushRecent<T>(list: readonly T[], entry: T, sameAs: (a: T, b: T) => boolean) {
  const rest = list.filter((existing) => !sameAs(existing, entry));
  const trimmed =
    rest.length > RECENT_LIST_TRIM_ABOVE ? rest.slice(0, RECENT_LIST_TRIM_ABOVE) : rest;
  return [entry, ...trimmed];
}

/** A used link as remembered in the last-used list. */
export interface LastUsedLink {
  id: string;
  name: string;
  url: string;
  icon: string | null;
}

/**
 * A link as the last-used list remembers it. A favorite is remembered as its original link
 * (decision 0053): opening GitHub from My Space and from the search is one entry.
 */
export function lastUsedOf(link: LinkLike): LastUsedLink {
  const id = link.type === 'link-favorite' ? link.linkId : link.id;
  return { id, name: link.name, url: link.url, icon: link.icon };
}

const listeners = new Set<() => void>();
const snapshots = new Map<string, unknown[]>();

// The lists read of a session that ended here go with it (decision 0080); in storage they are
// removed by `forgetPerson` itself.
onDeparture(({ staying }) => {
  for (const key of snapshots.keys()) {
    if (staying === null || key.slice(key.indexOf(':') + 1) !== staying) snapshots.delete(key);
  }
  for (const listener of listeners) listener();
});

function snapshot<T>(list: PerTokenList, token: string | null): T[] {
  if (!token) return [];
  const key = `${list}:${token}`;
  if (!snapshots.has(key)) snapshots.set(key, readPerTokenList<T>(list, token));
  return snapshots.get(key) as T[];
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

function update<T>(list: PerTokenList, token: string, next: T[]) {
  snapshots.set(`${list}:${token}`, next);
  writePerTokenList(list, token, next);
  for (const listener of listeners) listener();
}

const EMPTY: never[] = [];

function usePerTokenList<T>(list: PerTokenList, sameAs: (a: T, b: T) => boolean) {
  const { token } = useSession();
  const entries = useSyncExternalStore(subscribe, () =>
    token ? snapshot<T>(list, token) : (EMPTY as T[]),
  );
  const push = useCallback(
    (entry: T) => {
      if (!token) return;
      update(list, token, pushRecent(snapshot<T>(list, token), entry, sameAs));
    },
    [list, sameAs, token],
  );
  return [entries, push] as const;
}

const sameLink = (a: LastUsedLink, b: LastUsedLink) => a.id === b.id;
const sameSearch = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** The last-used links of the signed-in token. */
export function useLastUsed() {
  return usePerTokenList<LastUsedLink>('last-used', sameLink);
}

/** The recent searches of the signed-in token. */
export function useRecentSearches() {
  return usePerTokenList<string>('recent-searches', sameSearch);
}
