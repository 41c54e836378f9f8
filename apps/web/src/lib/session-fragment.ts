import {
  REAUTHENTICATED_FRAGMENT,
  SESSION_HANDOVER_PARAM,
  SSO_ERROR_CODES,
  SSO_ERROR_FRAGMENT,
  SSO_SECOND_FACTOR_FRAGMENT,
  type SsoErrorCode,
} from '@signpost/contract';
import {
  SESSION_FRAGMENT_MARKER,
  SESSION_FRAGMENT_TOKEN_PARAM,
  SSO_ERROR_MESSAGE_MAX_LENGTH,
} from './constants';

/** The parameters of a `#<marker>?…` (or `#<marker>/?…`) fragment, or null. */
function fragmentParams(hash: string, marker: string): URLSearchParams | null {
  const fragment = hash.startsWith('#') ? hash.slice(1) : hash;
  if (!fragment.startsWith(marker)) return null;
  const rest = fragment.slice(marker.length);
  if (!rest.startsWith('?') && !rest.startsWith('/?')) return null;
  return new URLSearchParams(rest.slice(rest.indexOf('?') + 1));
}

/** The token of a `#session?token=…` fragment, or null. */
export function parseSessionFragment(hash: string): string | null {
  const token = fragmentParams(hash, SESSION_FRAGMENT_MARKER)?.get(SESSION_FRAGMENT_TOKEN_PARAM);
  return token && token.trim() !== '' ? token.trim() : null;
}

/** A session token found in the address, and the hand-over value beside it, if any. */
export interface SessionFragment {
  token: string;
  /**
   * The value a single sign-on of this browser put beside the token, also in a cookie only
   * this browser got (decision 0080); null in a link made by hand, or by anyone else.
   */
  handover: string | null;
}

/** The token and hand-over value of a `#session?token=…&handover=…` fragment, or null. */
export function parseSessionHandover(hash: string): SessionFragment | null {
  const params = fragmentParams(hash, SESSION_FRAGMENT_MARKER);
  const token = parseSessionFragment(hash);
  if (!params || !token) return null;
  const handover = params.get(SESSION_HANDOVER_PARAM)?.trim() ?? '';
  return { token, handover: /^[\w-]{16,128}$/.test(handover) ? handover : null };
}

/** Why a single sign-on ended on the login screen. */
export interface SsoError {
  /** One of the contract's codes; null when the address named another. */
  code: SsoErrorCode | null;
  /** The server's text for the person; null when there was none to show. */
  message: string | null;
}

/** The error of a `#sso-error?code=…&message=…` fragment, or null. */
export function parseSsoErrorFragment(hash: string): SsoError | null {
  const params = fragmentParams(hash, SSO_ERROR_FRAGMENT);
  if (!params) return null;
  const rawCode = params.get('code');
  const code = (SSO_ERROR_CODES as readonly string[]).includes(rawCode ?? '')
    ? (rawCode as SsoErrorCode)
    : null;
  // Anyone can craft such an address: the message shows only with a code the server uses,
  // as plain text and bounded, so a link cannot write a long story on the login screen.
  const text = params.get('message')?.trim() ?? '';
  const message = code && text !== '' && text.length <= SSO_ERROR_MESSAGE_MAX_LENGTH ? text : null;
  return { code, message };
}

/** The ticket of a `#sso-second-factor?ticket=…` fragment, or null. */
export function parseSsoSecondFactorFragment(hash: string): string | null {
  const ticket = fragmentParams(hash, SSO_SECOND_FACTOR_FRAGMENT)?.get('ticket')?.trim() ?? '';
  // A ticket is 43 base64url characters; anything else is no ticket of this server.
  return /^[\w-]{16,128}$/.test(ticket) ? ticket : null;
}

let pendingSsoError: SsoError | null = null;
let pendingSsoTicket: string | null = null;
let reauthenticated = false;

/**
 * A single sign-on of a person with a second factor, waiting for the code (decision 0048):
 * the ticket found in the address at start, until the login screen uses or drops it.
 */
export function getPendingSsoTicket(): string | null {
  return pendingSsoTicket;
}

export function clearPendingSsoTicket() {
  pendingSsoTicket = null;
}

/** True once after a single sign-on that re-authenticated the session brought the browser back. */
export function takeReauthenticated(): boolean {
  const value = reauthenticated;
  reauthenticated = false;
  return value;
}

/** The single sign-on failure found in the address at start, until the login screen shows it. */
export function getPendingSsoError(): SsoError | null {
  return pendingSsoError;
}

/** Forgets the start's single sign-on failure once shown (or when signing in anew). */
export function clearPendingSsoError() {
  pendingSsoError = null;
}

function removeFragment(location: Location) {
  window.history.replaceState(window.history.state, '', location.pathname + location.search);
}

/**
 * Takes a session token, a single sign-on failure or second-factor ticket, or the mark of a
 * re-authentication out of the address: the fragment is removed at once with
 * history.replaceState (no new history entry, nothing stays visible, no later script or
 * report can read it) and the token is returned with its hand-over value; the others are
 * kept for the screens that show them. Never logs, tracks or stores any of them.
 */
export function takeSessionFragment(location: Location = window.location): SessionFragment | null {
  const fragment = location.hash.slice(1);
  if (fragment.startsWith(SSO_SECOND_FACTOR_FRAGMENT)) {
    const ticket = parseSsoSecondFactorFragment(location.hash);
    removeFragment(location);
    if (ticket) pendingSsoTicket = ticket;
    return null;
  }
  if (fragment === REAUTHENTICATED_FRAGMENT) {
    removeFragment(location);
    reauthenticated = true;
    return null;
  }
  if (fragment.startsWith(SSO_ERROR_FRAGMENT)) {
    const error = parseSsoErrorFragment(location.hash);
    removeFragment(location);
    if (error) pendingSsoError = error;
    return null;
  }
  const found = parseSessionHandover(location.hash);
  if (fragment.startsWith(SESSION_FRAGMENT_MARKER)) removeFragment(location);
  return found;
}
