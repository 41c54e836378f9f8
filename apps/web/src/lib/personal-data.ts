import { tokenKey } from './storage';
import {
  isPersonalKey,
  PAGE_TO_ADD_KEY,
  PENDING_SEARCH_KEY,
  PENDING_UNDO_KEY,
  sessionOfKey,
} from './storage-keys';

/**
 * What the portal kept of a person goes when their session ends in this browser — Logout, a
 * session the server says is gone (401, the live stream), a sign-out in another tab — or when
 * another account signs in here (decision 0080): the last-used links and recent searches, the
 * consent to usage events, the pending undo with the name of what it was, the menu kept for
 * offline use and the icons the service worker kept with it. On a shared computer the next
 * person finds nothing of the last one.
 */
export interface Departure {
  /** The token of the session that goes on here (another account signed in), or null. */
  staying: string | null;
  /**
   * The person signed out here themselves: what waits in this tab for the next sign-in (a
   * page to add, address-bar terms) goes too. A session ended by the server keeps them for
   * the sign-in that follows.
   */
  signedOut: boolean;
}

type Cleaner = (departure: Departure) => unknown;
const cleaners = new Set<Cleaner>();

/**
 * Runs `cleaner` at every departure: for what a module keeps in memory or in a store it opens
 * itself (the offline menu). Storage keys need no cleaner: they are all in `storage-keys.ts`.
 */
export function onDeparture(cleaner: Cleaner): () => void {
  cleaners.add(cleaner);
  return () => {
    cleaners.delete(cleaner);
  };
}

function keys(storage: Storage): string[] {
  const found: string[] = [];
  for (let i = 0; i < storage.length; i += 1) {
    const key = storage.key(i);
    if (key !== null) found.push(key);
  }
  return found;
}

/**
 * Removes the person's keys of local storage but those of the session `staying` (none when
 * it is null). A key of no session in particular (the consent) goes too, unless
 * `keepUnowned`. Never throws: a browser with storage disabled has nothing to remove.
 */
export function removePersonalKeys(staying: string | null, keepUnowned = false) {
  try {
    const own = staying === null ? null : tokenKey(staying);
    for (const key of keys(window.localStorage)) {
      if (!isPersonalKey(key)) continue;
      const session = sessionOfKey(key);
      if (session === null ? keepUnowned : own !== null && session === own) continue;
      window.localStorage.removeItem(key);
    }
  } catch {
    // Storage disabled.
  }
}

/**
 * At start: what sessions other than `current` left in this browser goes (a sign-out that
 * could not finish, a browser closed first, a version of the portal that kept it). The
 * consent stays with a session, which may have given it.
 */
export function removeLeftovers(current: string | null) {
  removePersonalKeys(current, current !== null);
}

/** Forgets what the portal kept of the person whose session ends here. */
export function forgetPerson(departure: Departure) {
  removePersonalKeys(departure.staying);
  try {
    window.sessionStorage.removeItem(PENDING_UNDO_KEY);
    if (departure.signedOut) {
      window.sessionStorage.removeItem(PAGE_TO_ADD_KEY);
      window.sessionStorage.removeItem(PENDING_SEARCH_KEY);
    }
  } catch {
    // Storage disabled.
  }
  for (const cleaner of cleaners) {
    try {
      const done = cleaner(departure);
      if (done instanceof Promise) done.catch(() => undefined);
    } catch {
      // One cleaner failing must not keep the others from running.
    }
  }
}
