import { useSyncExternalStore } from 'react';
import { getSession, subscribeSession, type SessionState } from './session-store';

/** The session state (token, authenticated), re-rendering on change. */
export function useSession(): SessionState {
  return useSyncExternalStore(subscribeSession, getSession, getSession);
}
