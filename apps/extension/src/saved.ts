import type { ExtensionApi } from './browser-api';
import type { Session } from './portal-client';

/**
 * What the extension keeps, in the extension's own storage (`storage.local`, which no web
 * page and no other extension reads): the portal's address, the access token, and the
 * collection used last. Nothing from the menu is kept: it is read again when the popup opens.
 */
export interface Saved {
  origin: string | null;
  token: string | null;
  lastCollection: string | null;
  /**
   * A token pasted but not checked yet: the browser was asking for the portal's host when
   * the popup closed (Firefox shows that question only once the popup is gone). The next
   * popup finishes the sign-in with it, or forgets it.
   */
  pendingToken: string | null;
}

const KEYS = ['origin', 'token', 'lastCollection', 'pendingToken'] as const;

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);

export async function readSaved(api: ExtensionApi): Promise<Saved> {
  const items = await api.storage.local.get([...KEYS]);
  return {
    origin: text(items.origin),
    token: text(items.token),
    lastCollection: text(items.lastCollection),
    pendingToken: text(items.pendingToken),
  };
}

export function sessionOf(saved: Saved): Session | null {
  return saved.origin && saved.token ? { origin: saved.origin, token: saved.token } : null;
}

export async function saveSession(api: ExtensionApi, session: Session) {
  await api.storage.local.set({ origin: session.origin, token: session.token });
  await api.storage.local.remove(['pendingToken']);
}

/** A sign-in begun: the address, and the token until it is checked. */
export async function savePending(api: ExtensionApi, session: Session) {
  await api.storage.local.set({ origin: session.origin, pendingToken: session.token });
}

export async function forgetPending(api: ExtensionApi) {
  await api.storage.local.remove(['pendingToken']);
}

/** Signing out forgets the token; the portal's address stays, to sign in again. */
export async function forgetToken(api: ExtensionApi) {
  await api.storage.local.remove(['token', 'lastCollection', 'pendingToken']);
}

export async function saveLastCollection(api: ExtensionApi, id: string) {
  await api.storage.local.set({ lastCollection: id });
}
