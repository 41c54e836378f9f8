import { forgetPerson, removeLeftovers } from './personal-data';
import { getStoredToken, setStoredToken } from './storage';
import { TOKEN_STORAGE_KEY } from './storage-keys';

/** Session state of spec §3: authenticated is null until determined. */
export interface SessionState {
  token: string | null;
  authenticated: boolean | null;
}

let state: SessionState = { token: null, authenticated: null };
const listeners = new Set<() => void>();

function emit(next: SessionState) {
  state = next;
  for (const listener of listeners) listener();
}

export function getSession(): SessionState {
  return state;
}

export function subscribeSession(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/**
 * Signs in with a token: saved to storage and used for every request from now on. Another
 * account signed in before it leaves nothing behind (decision 0080).
 */
export function setSessionToken(token: string) {
  const previous = state.token;
  setStoredToken(token);
  if (previous !== null && previous !== token) forgetPerson({ staying: token, signedOut: false });
  emit({ token, authenticated: true });
}

/**
 * Signs out locally: token and Authorization header gone, authenticated false, and what the
 * portal kept of the person removed from this browser (decision 0080). `signedOut`: the
 * person pressed Logout (what waits for a sign-in goes too); otherwise the server ended the
 * session. The stored token is removed only when it is this session's: another tab may have
 * signed someone in meanwhile.
 */
export function clearSession(options: { signedOut?: boolean } = {}) {
  const previous = state.token;
  const stored = getStoredToken();
  if (stored === null || previous === null || stored === previous) setStoredToken(null);
  forgetPerson({ staying: null, signedOut: options.signedOut ?? false });
  emit({ token: null, authenticated: false });
}

/**
 * Another tab of this browser changed the stored token: this tab follows, as a reload would,
 * and forgets in memory what it held of the person who left. Signed out there, signed out
 * here.
 */
function followOtherTabs(event: StorageEvent) {
  if (event.key !== TOKEN_STORAGE_KEY && event.key !== null) return;
  const stored = getStoredToken();
  if (stored === state.token || state.authenticated === null) return;
  forgetPerson({ staying: stored, signedOut: false });
  emit(stored ? { token: stored, authenticated: true } : { token: null, authenticated: false });
}

if (typeof window !== 'undefined') window.addEventListener('storage', followOtherTabs);

/**
 * Determines the state at start from a token found earlier (a single sign-on's hand-over, or
 * storage), and removes what earlier sessions left in this browser (a sign-out that could not
 * finish, a browser closed first, a version that kept it).
 */
export function initSession(handedOverToken: string | null) {
  if (handedOverToken) {
    const stored = getStoredToken();
    setStoredToken(handedOverToken);
    removeLeftovers(handedOverToken);
    if (stored !== null && stored !== handedOverToken) {
      forgetPerson({ staying: handedOverToken, signedOut: false });
    }
    emit({ token: handedOverToken, authenticated: true });
    return;
  }
  const stored = getStoredToken();
  removeLeftovers(stored);
  emit(stored ? { token: stored, authenticated: true } : { token: null, authenticated: false });
}
