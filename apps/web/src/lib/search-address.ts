import { PENDING_SEARCH_KEY } from './storage-keys';

/**
 * The portal opened from the browser's address bar: `/?q=terms`, the template of the
 * OpenSearch description the server serves (`/opensearch.xml`, decision 0065). The terms
 * are taken out of the address at start and kept for this tab until the portal opens its
 * search with them — after the sign-in when there is one, single sign-on's round trip to the
 * provider included (session storage lives as long as the tab).
 */
const PENDING_KEY = PENDING_SEARCH_KEY;
/** Longer terms are cut: no link name is this long. */
const MAX_LENGTH = 200;

/** Takes `q` out of the address (history.replaceState) and keeps its terms for the portal. */
export function takeSearchAddress(location: Location = window.location) {
  const params = new URLSearchParams(location.search);
  const terms = params.get('q');
  if (terms === null) return;
  params.delete('q');
  const rest = params.toString();
  window.history.replaceState(
    window.history.state,
    '',
    `${location.pathname}${rest ? `?${rest}` : ''}${location.hash}`,
  );
  const query = terms.trim().slice(0, MAX_LENGTH);
  try {
    if (query) window.sessionStorage.setItem(PENDING_KEY, query);
  } catch {
    // Storage disabled: the search does not open by itself.
  }
}

/** The terms the portal was opened with, once; null when there are none. */
export function takePendingSearch(): string | null {
  try {
    const query = window.sessionStorage.getItem(PENDING_KEY);
    window.sessionStorage.removeItem(PENDING_KEY);
    return query;
  } catch {
    return null;
  }
}
