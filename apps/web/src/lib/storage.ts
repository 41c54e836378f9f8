import {
  LAST_USED_PREFIX,
  RECENT_SEARCHES_PREFIX,
  TOKEN_STORAGE_KEY,
  TRACKING_CONSENT_KEY,
} from './storage-keys';

/**
 * Reads and writes of local storage (every key is in `storage-keys.ts`). They never throw: a
 * browser with storage disabled simply forgets.
 */
function read(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string | null) {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // Storage full or disabled: nothing to do.
  }
}

export function getStoredToken(): string | null {
  return read(TOKEN_STORAGE_KEY);
}

export function setStoredToken(token: string | null) {
  write(TOKEN_STORAGE_KEY, token);
}

/**
 * Per-token keys use a short hash of the token, so the token itself is not repeated in
 * other storage keys.
 */
export function tokenKey(token: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < token.length; i += 1) {
    hash ^= token.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(36);
}

export type PerTokenList = 'last-used' | 'recent-searches';

const PREFIX: Record<PerTokenList, string> = {
  'last-used': LAST_USED_PREFIX,
  'recent-searches': RECENT_SEARCHES_PREFIX,
};

export function readPerTokenList<T>(list: PerTokenList, token: string): T[] {
  const raw = read(`${PREFIX[list]}${tokenKey(token)}`);
  if (!raw) return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) ? (parsed as T[]) : [];
  } catch {
    return [];
  }
}

export function writePerTokenList<T>(list: PerTokenList, token: string, entries: T[]) {
  write(`${PREFIX[list]}${tokenKey(token)}`, JSON.stringify(entries));
}

export function getStoredConsent(): boolean {
  return read(TRACKING_CONSENT_KEY) === 'granted';
}

export function setStoredConsent(granted: boolean) {
  write(TRACKING_CONSENT_KEY, granted ? 'granted' : 'denied');
}
