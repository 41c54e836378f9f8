/**
 * Every key the web app writes in this browser's storage, in one place, so that what a
 * person leaves behind can be found and removed at once (`personal-data.ts`, decision 0080).
 * A new key is added here, with whose it is.
 */

// Local storage: kept across visits, shared by the tabs of this origin.

/** The session token (spec §3, `TOKEN_STORAGE_KEY` of `constants.ts`). */
export { TOKEN_STORAGE_KEY } from './constants';
/**
 * The last-used links and the recent searches, one list per session (spec §3): the key ends
 * with a short hash of the session's token (`tokenKey`). A person's: names and addresses of
 * their links, and what they searched for.
 */
export const LAST_USED_PREFIX = 'signpost:last-used:';
export const RECENT_SEARCHES_PREFIX = 'signpost:recent-searches:';
/** Whether usage events may be sent: the choice of the person who was signed in. */
export const TRACKING_CONSENT_KEY = 'signpost:tracking-consent';
/**
 * Whose menu the offline store keeps (the short hash of a token, decision 0065). Removed by
 * the store itself once the menu is gone (`forgetKeptMenu`), so that a menu whose removal
 * could not finish is still found, and removed, at the next start.
 */
export const KEPT_MENU_OWNER_KEY = 'signpost:kept-menu';

// Session storage: this tab only, as long as it is open.

/** The deletion or change that can be undone, with the name of what it was (decision 0052). */
export const PENDING_UNDO_KEY = 'signpost:undo';
/**
 * What waits in this tab for the next sign-in: a page sent to be added (`#add?…`, decision
 * 0066) and the terms of an address-bar search (`/?q=…`, decision 0065). Taken by the portal
 * as soon as it shows, so they wait only while nobody is signed in.
 */
export const PAGE_TO_ADD_KEY = 'signpost:page-to-add';
export const PENDING_SEARCH_KEY = 'signpost:pending-search';

/**
 * The local-storage keys that hold something of the person signed in, but the token and the
 * kept menu's owner (which go with their session and their store).
 */
export function isPersonalKey(key: string): boolean {
  return (
    key.startsWith(LAST_USED_PREFIX) ||
    key.startsWith(RECENT_SEARCHES_PREFIX) ||
    key === TRACKING_CONSENT_KEY
  );
}

/** The hash of the session a per-session key belongs to; null for any other key. */
export function sessionOfKey(key: string): string | null {
  for (const prefix of [LAST_USED_PREFIX, RECENT_SEARCHES_PREFIX]) {
    if (key.startsWith(prefix)) return key.slice(prefix.length);
  }
  return null;
}
