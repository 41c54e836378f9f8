// The menu kept for offline use (decision 0065): one session's, read-only when opened, gone
// at sign-out and when another person signs in, never written after its session ended.
import { IDBFactory } from 'fake-indexeddb';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeLink, makeMenu } from '../../test/menu-fixture';
import { RUNS } from '../../test/can-fixture';
import { isLink } from '../menu/menu-types';
import { clearSession, setSessionToken } from '../session-store';
import { tokenKey } from '../storage';
import { keepMenuPrivate, setKeptMenuLoader } from './keep';
import { forgetKeptMenu, keepMenu, openKeptMenu, readOnly } from './kept-menu';
import { keptOwner } from './kept-owner';

beforeAll(() => {
  vi.stubGlobal('indexedDB', new IDBFactory());
  setKeptMenuLoader(() => import('./kept-menu'));
});
afterAll(async () => {
  await forgetKeptMenu();
  vi.unstubAllGlobals();
});
beforeEach(() => forgetKeptMenu());
afterEach(() => clearSession());

const menu = () =>
  makeMenu({ teamEditor: true, teamCan: RUNS, myItems: [makeLink({ name: 'Wiki' })] });

/** Every `can` and `linkCan` object of a value, wherever it is nested. */
function flagsOf(value: unknown): Record<string, boolean>[] {
  if (Array.isArray(value)) return value.flatMap(flagsOf);
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) =>
    key === 'can' || key === 'linkCan'
      ? [inner as Record<string, boolean>, ...flagsOf(inner)]
      : flagsOf(inner),
  );
}

/** Waits until the kept menu is gone (the store works after the session changed). */
async function gone(token: string) {
  await vi.waitFor(async () => expect(await openKeptMenu(token)).toBeNull());
}

describe('the kept menu', () => {
  it('gives the session that kept it its menu back, read-only, with when it was read', async () => {
    setSessionToken('token-a');
    await keepMenu('token-a', menu(), '"v1"', 1_700_000_000_000);
    const kept = await openKeptMenu('token-a');
    expect(kept?.etag).toBe('"v1"');
    expect(kept?.readAt).toBe(1_700_000_000_000);
    expect(kept?.menu.profile.name).toBe('Ada Lovelace');
    // Search works over it.
    expect(kept?.menu.searchIndex.map((entry) => entry.item.name)).toContain('Wiki');
    // Nothing can be written: no Add item, every permission off.
    const items = kept!.menu.spaces.flatMap((space) => space.collections.flatMap((c) => c.items));
    expect(items.some((item) => item.type === 'addlink')).toBe(false);
    expect(items.filter(isLink).length).toBeGreaterThan(0);
    expect(kept!.menu.spaces.every((space) => !space.can.addCollection)).toBe(true);
    expect(kept!.menu.can).toEqual({ administer: false, organization: false });
    expect(keptOwner()).toBe(tokenKey('token-a'));
  });

  it('turns every permission off and changes nothing else', () => {
    const original = menu();
    const copy = readOnly(original);
    const flags = flagsOf(copy);
    expect(flags.length).toBeGreaterThan(5);
    expect(flags.every((can) => Object.values(can).every((flag) => flag === false))).toBe(true);
    expect(flagsOf(original).some((can) => Object.values(can).some(Boolean))).toBe(true);
    const names = (m: typeof original) =>
      JSON.stringify(m, (key, value) => (key === 'can' || key === 'linkCan' ? undefined : value));
    expect(names(copy)).toBe(names(original));
  });

  it('gives another session nothing, and removes what it found', async () => {
    setSessionToken('token-a');
    await keepMenu('token-a', menu(), null, Date.now());
    expect(await openKeptMenu('token-b')).toBeNull();
    expect(await openKeptMenu('token-a')).toBeNull();
    expect(keptOwner()).toBeNull();
  });

  it('keeps nothing for a session that ended before the menu could be kept', async () => {
    setSessionToken('token-a');
    clearSession();
    await keepMenu('token-a', menu(), null, Date.now());
    setSessionToken('token-a');
    expect(await openKeptMenu('token-a')).toBeNull();
  });

  it('goes at sign-out', async () => {
    setSessionToken('token-a');
    const stop = keepMenuPrivate();
    try {
      await keepMenu('token-a', menu(), null, Date.now());
      expect(await openKeptMenu('token-a')).not.toBeNull();
      clearSession();
      await gone('token-a');
      expect(keptOwner()).toBeNull();
    } finally {
      stop();
    }
  });

  it('takes the icons the service worker kept with it', async () => {
    const deleted: string[] = [];
    vi.stubGlobal('caches', { delete: async (name: string) => deleted.push(name) > 0 });
    try {
      await keepMenu('token-a', menu(), null, Date.now());
      await forgetKeptMenu();
      expect(deleted).toEqual(['signpost-icons']);
    } finally {
      vi.stubGlobal('caches', undefined);
    }
  });

  it('goes when another person signs in', async () => {
    setSessionToken('token-a');
    const stop = keepMenuPrivate();
    try {
      await keepMenu('token-a', menu(), null, Date.now());
      setSessionToken('token-b');
      await gone('token-a');
      expect(await openKeptMenu('token-b')).toBeNull();
    } finally {
      stop();
    }
  });

  it('goes at the next start when the browser closed before it could go', async () => {
    setSessionToken('token-a');
    await keepMenu('token-a', menu(), null, Date.now());
    // Signed out with no one listening (the tab closed), then started again.
    clearSession();
    expect(keptOwner()).toBe(tokenKey('token-a'));
    const stop = keepMenuPrivate();
    stop();
    await gone('token-a');
  });
});
