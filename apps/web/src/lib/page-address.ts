import { useSyncExternalStore } from 'react';

/**
 * The page's address, read and changed through the History API (decision 0077). The portal
 * lives at `/`; the console at `/console/…`. No router: two kinds of page, one listener.
 */
const CHANGED = 'signpost:address';

function subscribe(listener: () => void) {
  window.addEventListener('popstate', listener);
  window.addEventListener(CHANGED, listener);
  return () => {
    window.removeEventListener('popstate', listener);
    window.removeEventListener(CHANGED, listener);
  };
}

const pathname = () => window.location.pathname;

/** The address's path, kept current as the page moves (back and forward included). */
export function usePathname(): string {
  return useSyncExternalStore(subscribe, pathname, pathname);
}

/** What this page keeps in each history entry of its own. */
export interface PageState {
  /** How many console entries were pushed since the portal's: closing goes back that far. */
  consoleDepth?: number;
  /** The console was opened from the portal in this tab (not by a reload or a bookmark). */
  fromPortal?: boolean;
  /** A collection to open once the page shows: where a link lives, from the console. */
  openCollection?: string;
}

export function pageState(): PageState {
  const state: unknown = window.history.state;
  return state && typeof state === 'object' ? (state as PageState) : {};
}

/** Goes to `path`: a new history entry, or in place of the current one with `replace`. */
export function navigate(path: string, { replace = false, state = {} as PageState } = {}) {
  if (replace) window.history.replaceState(state, '', path);
  else window.history.pushState(state, '', path);
  window.dispatchEvent(new Event(CHANGED));
}

/** Goes back `steps` entries, as the browser's back button would. */
export function goBack(steps: number) {
  window.history.go(-steps);
}

/** The collection this entry was opened to show, once: it is taken out of the entry. */
export function takeCollectionToOpen(): string | null {
  const { openCollection, ...rest } = pageState();
  if (typeof openCollection !== 'string') return null;
  window.history.replaceState(rest, '', window.location.href);
  return openCollection;
}
