import { getStoredToken, setStoredToken } from './storage';

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

/** Signs in with a token: saved to storage and used for every request from now on. */
export function setSessionToken(token: string) {
  setStoredToken(token);
  emit({ token, authenticated: true });
}

/** Signs out locally: token and Authorization header gone, authenticated false. */
export function clearSession() {
  setStoredToken(null);
  emit({ token: null, authenticated: false });
}

/** Determines the state at start from a token found earlier (fragment or storage). */
export function initSession(fragmentToken: string | null) {
  if (fragmentToken) {
    setSessionToken(fragmentToken);
    return;
  }
  const stored = getStoredToken();
  emit(stored ? { token: stored, authenticated: true } : { token: null, authenticated: false });
}
