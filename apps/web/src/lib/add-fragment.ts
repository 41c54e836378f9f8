import { onDeparture } from './personal-data';
import { PAGE_TO_ADD_KEY } from './storage-keys';

/**
 * A page sent to the portal to be added (decision 0066): `#add?url=…&title=…`, as the
 * bookmarklet of the settings opens it. The portal shows it in the add panel of My Space,
 * filled in; nothing is added until the person presses Add, and the address is checked there
 * like any address a person types.
 */
export const ADD_FRAGMENT = 'add';

export interface PageToAdd {
  /** The address as sent, trimmed; the server decides whether it may be a link. */
  url: string;
  /** The page's title as a link name: on one line, at most the longest name. */
  name: string;
}

/**
 * The longest name a link may have: the contract's `LIMITS.name`, written out because this
 * module is part of the first screen, and importing the value would bring the contract's
 * schema builder with it (about 10 KB). A test holds the two equal.
 */
export const NAME_LIMIT = 200;

/** Where the page waits, in this tab, through a sign-in (single sign-on leaves the page). */
const STORAGE_KEY = PAGE_TO_ADD_KEY;
/** A page not added within this time is forgotten: the sign-in was given up. */
export const PAGE_TO_ADD_KEEP_MS = 30 * 60_000;

/**
 * A title as a link's name: line breaks, tabs and other control characters (which a name
 * may not hold) become spaces, and a title longer than a name may be is cut, with an
 * ellipsis, between two characters.
 */
export function nameFromTitle(title: string): string {
  // eslint-disable-next-line no-control-regex
  const line = title.replace(/[\s\u0000-\u001f\u007f-\u009f]+/g, ' ').trim();
  const characters = Array.from(line);
  if (characters.length <= NAME_LIMIT) return line;
  return `${characters
    .slice(0, NAME_LIMIT - 1)
    .join('')
    .trimEnd()}…`;
}

/** The page of an `#add?url=…&title=…` fragment; null without an address. */
export function parseAddFragment(hash: string): PageToAdd | null {
  const fragment = hash.startsWith('#') ? hash.slice(1) : hash;
  if (!fragment.startsWith(`${ADD_FRAGMENT}?`)) return null;
  const params = new URLSearchParams(fragment.slice(ADD_FRAGMENT.length + 1));
  const url = (params.get('url') ?? '').trim();
  return url === '' ? null : { url, name: nameFromTitle(params.get('title') ?? '') };
}

/** Where the page waits when the tab's storage cannot hold it. */
let kept: PageToAdd | null = null;

// At Logout, a page still waiting goes too (decision 0080); one that waits through a session
// the server ended stays for the sign-in that follows.
onDeparture(({ signedOut }) => {
  if (signedOut) kept = null;
});

function keep(page: PageToAdd) {
  try {
    window.sessionStorage.setItem(STORAGE_KEY, JSON.stringify({ ...page, at: Date.now() }));
  } catch {
    // Storage full or disabled: the page is offered only if the person is signed in now.
    kept = page;
  }
}

/**
 * Takes an `#add?…` fragment out of the address at once (no new history entry) and keeps its
 * page for the portal, through a sign-in if need be. Other fragments are left alone.
 */
export function takeAddFragment(location: Location = window.location): void {
  if (!location.hash.slice(1).startsWith(`${ADD_FRAGMENT}?`)) return;
  const page = parseAddFragment(location.hash);
  window.history.replaceState(window.history.state, '', location.pathname + location.search);
  if (page) keep(page);
}

/** The page waiting to be added, once: taking it forgets it. */
export function takePageToAdd(): PageToAdd | null {
  let page = kept;
  kept = null;
  try {
    const raw = window.sessionStorage.getItem(STORAGE_KEY);
    window.sessionStorage.removeItem(STORAGE_KEY);
    if (raw) {
      const stored = JSON.parse(raw) as Partial<PageToAdd> & { at?: number };
      const fresh = typeof stored.at === 'number' && Date.now() - stored.at < PAGE_TO_ADD_KEEP_MS;
      if (fresh && typeof stored.url === 'string' && typeof stored.name === 'string') {
        page = { url: stored.url, name: stored.name };
      }
    }
  } catch {
    // Unreadable: nothing waits.
  }
  return page;
}
