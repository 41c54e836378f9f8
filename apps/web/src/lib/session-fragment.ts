import { SESSION_FRAGMENT_MARKER, SESSION_FRAGMENT_TOKEN_PARAM } from './constants';

/** The token of a `#session?token=…` fragment, or null. */
export function parseSessionFragment(hash: string): string | null {
  const fragment = hash.startsWith('#') ? hash.slice(1) : hash;
  if (!fragment.startsWith(SESSION_FRAGMENT_MARKER)) return null;
  const rest = fragment.slice(SESSION_FRAGMENT_MARKER.length);
  if (!rest.startsWith('?') && !rest.startsWith('/?')) return null;
  const params = new URLSearchParams(rest.slice(rest.indexOf('?') + 1));
  const token = params.get(SESSION_FRAGMENT_TOKEN_PARAM);
  return token && token.trim() !== '' ? token.trim() : null;
}

/**
 * Takes a session token out of the address: the fragment is removed at once with
 * history.replaceState (no new history entry, the token never stays visible) and the
 * token is returned. Never logs it.
 */
export function takeSessionFragment(location: Location = window.location): string | null {
  const token = parseSessionFragment(location.hash);
  if (location.hash.slice(1).startsWith(SESSION_FRAGMENT_MARKER)) {
    window.history.replaceState(window.history.state, '', location.pathname + location.search);
  }
  return token;
}
