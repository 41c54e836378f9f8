// What the portal kept of a person goes when their session ends in this browser, and when
// another account signs in here (decision 0080): on a shared computer the next person finds
// nothing of the last one — no names or addresses of links, no searches, no consent, no
// offline menu or icons.
import { IDBFactory } from 'fake-indexeddb';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeLink, makeMenu } from '../test/menu-fixture';
import { mockFetch } from '../test/fetch-mock';
import { consumerApi } from './api-client';
import { logout } from './auth';
import { keepMenuPrivate, setKeptMenuLoader } from './offline/keep';
import { forgetKeptMenu, keepMenu, openKeptMenu } from './offline/kept-menu';
import { clearSession, getSession, initSession, setSessionToken } from './session-store';
import { tokenKey, writePerTokenList } from './storage';
import {
  PAGE_TO_ADD_KEY,
  PENDING_SEARCH_KEY,
  TOKEN_STORAGE_KEY,
  TRACKING_CONSENT_KEY,
} from './storage-keys';
import { hasTrackingConsent, setTrackingConsent } from './tracking';
import { getPendingUndo, offerUndo } from './undo/pending-undo';

let deletedCaches: string[] = [];
let stopKeeping: () => void = () => {};

beforeAll(() => {
  vi.stubGlobal('indexedDB', new IDBFactory());
  setKeptMenuLoader(() => import('./offline/kept-menu'));
});
afterAll(async () => {
  await forgetKeptMenu();
  vi.unstubAllGlobals();
});
beforeEach(() => {
  deletedCaches = [];
  vi.stubGlobal('caches', { delete: async (name: string) => deletedCaches.push(name) > 0 });
  stopKeeping = keepMenuPrivate();
});
afterEach(() => {
  stopKeeping();
  clearSession();
  window.sessionStorage.clear();
  setTrackingConsent(false);
});

const everything = (storage: Storage) =>
  Object.fromEntries(
    Array.from({ length: storage.length }, (_, i) => storage.key(i)!).map((key) => [
      key,
      storage.getItem(key),
    ]),
  );

/** A person signed in with `token` who used the portal: every kind of thing it keeps. */
async function personUsedThePortal(token: string) {
  setSessionToken(token);
  writePerTokenList('last-used', token, [
    { id: 'l1', name: 'Payroll', url: 'https://payroll.acme.example/', icon: null },
  ]);
  writePerTokenList('recent-searches', token, ['salary review']);
  setTrackingConsent(true);
  offerUndo({ id: 'u1', kind: 'link', label: 'Board minutes' });
  await keepMenu(token, makeMenu({ myItems: [makeLink({ name: 'Payroll' })] }), null, Date.now());
  expect(await openKeptMenu(token)).not.toBeNull();
  // What waits in the tab for a sign-in: a page to add, address-bar terms.
  window.sessionStorage.setItem(PAGE_TO_ADD_KEY, JSON.stringify({ url: 'https://x.example/' }));
  window.sessionStorage.setItem(PENDING_SEARCH_KEY, 'holiday');
}

describe('what the portal kept of a person', () => {
  it('is all gone from this browser after Logout', async () => {
    await personUsedThePortal('token-a');
    expect(Object.keys(everything(window.localStorage))).toHaveLength(5);
    mockFetch([
      { method: 'POST', path: '/api/auth/logout', status: 200, body: { logoutUrl: null } },
    ]);

    await logout();

    expect(getSession()).toEqual({ token: null, authenticated: false });
    // The offline store goes after the session: its owner's mark last.
    await vi.waitFor(() => expect(everything(window.localStorage)).toEqual({}));
    expect(everything(window.sessionStorage)).toEqual({});
    expect(await openKeptMenu('token-a')).toBeNull();
    expect(deletedCaches).toContain('signpost-icons');
    expect(hasTrackingConsent()).toBe(false);
    expect(getPendingUndo()).toBeNull();
  });

  it('goes when the server says the session is gone; only what waits for the sign-in stays', async () => {
    await personUsedThePortal('token-a');
    vi.spyOn(console, 'error').mockImplementation(() => {});
    mockFetch([{ path: '/api/consumer/menu', status: 401, body: { code: 'UNAUTHORIZED' } }]);

    await expect(consumerApi.request('/menu')).rejects.toThrow('Unauthorized');

    expect(getSession()).toEqual({ token: null, authenticated: false });
    await vi.waitFor(() => expect(everything(window.localStorage)).toEqual({}));
    expect(everything(window.sessionStorage)).toEqual({
      [PAGE_TO_ADD_KEY]: JSON.stringify({ url: 'https://x.example/' }),
      [PENDING_SEARCH_KEY]: 'holiday',
    });
    expect(await openKeptMenu('token-a')).toBeNull();
    expect(hasTrackingConsent()).toBe(false);
    expect(getPendingUndo()).toBeNull();
  });

  it('goes when another account signs in here; the new session keeps its own', async () => {
    await personUsedThePortal('token-a');
    setSessionToken('token-b');
    writePerTokenList('recent-searches', 'token-b', ['mine']);
    await vi.waitFor(async () => expect(await openKeptMenu('token-a')).toBeNull());
    expect(everything(window.localStorage)).toEqual({
      [TOKEN_STORAGE_KEY]: 'token-b',
      [`signpost:recent-searches:${tokenKey('token-b')}`]: '["mine"]',
    });
    expect(hasTrackingConsent()).toBe(false);
    expect(getPendingUndo()).toBeNull();
  });

  it('goes when another tab of this browser signs out', async () => {
    await personUsedThePortal('token-a');
    // The other tab's Logout: the token and the lists go from the shared storage.
    window.localStorage.clear();
    window.dispatchEvent(
      new StorageEvent('storage', { key: null, storageArea: window.localStorage }),
    );
    expect(getSession()).toEqual({ token: null, authenticated: false });
    expect(hasTrackingConsent()).toBe(false);
    expect(getPendingUndo()).toBeNull();
    await vi.waitFor(async () => expect(await openKeptMenu('token-a')).toBeNull());
  });

  it('left by earlier sessions goes at start; the session’s own stays', () => {
    const own = tokenKey('current');
    const old = tokenKey('earlier');
    window.localStorage.setItem(TOKEN_STORAGE_KEY, 'current');
    window.localStorage.setItem(`signpost:last-used:${own}`, '[]');
    window.localStorage.setItem(`signpost:last-used:${old}`, '[{"name":"Payroll"}]');
    window.localStorage.setItem(`signpost:recent-searches:${old}`, '["salary"]');
    window.localStorage.setItem(TRACKING_CONSENT_KEY, 'granted');
    window.localStorage.setItem('unrelated', 'kept');

    initSession(null);

    expect(everything(window.localStorage)).toEqual({
      [TOKEN_STORAGE_KEY]: 'current',
      [`signpost:last-used:${own}`]: '[]',
      [TRACKING_CONSENT_KEY]: 'granted',
      unrelated: 'kept',
    });

    // With nobody signed in, nothing of anybody stays.
    window.localStorage.removeItem(TOKEN_STORAGE_KEY);
    initSession(null);
    expect(everything(window.localStorage)).toEqual({ unrelated: 'kept' });
  });
});
