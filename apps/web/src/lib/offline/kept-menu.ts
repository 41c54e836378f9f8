import { ICONS_CACHE } from './sw-rules';
import type { Menu } from '@signpost/contract';
import { processMenu } from '../menu/process-menu';
import type { ProcessedMenu } from '../menu/menu-types';
import { getSession } from '../session-store';
import { tokenKey } from '../storage';
import { setKeptOwner } from './kept-owner';

/**
 * The last menu the portal read, kept in this browser for when the network is gone
 * (decision 0065). One menu at a time, of one session: the record names its owner (the short
 * hash of the session's token), a read for another session finds nothing and removes it, and
 * it goes at sign-out (`keep.ts`). It lives in IndexedDB: a large organization's menu is
 * half a megabyte, which local storage would write on the main thread at every change.
 */
const DATABASE = 'signpost-offline';
const STORE = 'kept';
const MENU = 'menu';
const CONFIRMED = 'confirmed';
/** The record's shape; a kept menu of another shape is not read. */
const FORMAT = 1;

interface MenuRecord {
  format: number;
  owner: string;
  menu: Menu;
  etag: string | null;
  readAt: number;
}

interface ConfirmedRecord {
  owner: string;
  at: number;
}

/** A kept menu as the portal shows it without the network. */
export interface KeptMenu {
  menu: ProcessedMenu;
  etag: string | null;
  /** When the server last said this was the menu (ms since 1970). */
  readAt: number;
}

let database: Promise<IDBDatabase> | null = null;

function open(): Promise<IDBDatabase> {
  database ??= new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(DATABASE, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => {
      const db = request.result;
      // Another tab of a newer version wants the database: let it have it.
      db.onversionchange = () => {
        db.close();
        database = null;
      };
      resolve(db);
    };
    request.onerror = () => reject(request.error ?? new Error('IndexedDB refused'));
  }).catch((error: unknown) => {
    database = null;
    throw error;
  });
  return database;
}

/** Runs `work` in one transaction of the store; resolves with its last request's result once committed. */
async function transaction<T>(
  mode: IDBTransactionMode,
  work: (store: IDBObjectStore) => IDBRequest<T> | undefined,
): Promise<T | undefined> {
  const db = await open();
  return new Promise<T | undefined>((resolve, reject) => {
    const tx = db.transaction(STORE, mode);
    const request = work(tx.objectStore(STORE));
    tx.oncomplete = () => resolve(request?.result);
    tx.onerror = () => reject(tx.error ?? new Error('IndexedDB transaction failed'));
    tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'));
  });
}

/**
 * Keeps the menu read for the session of `token`, replacing whatever was kept. Nothing is
 * kept when that session is no longer this browser's (signed out, or another sign-in, while
 * the menu waited to be kept).
 */
export async function keepMenu(token: string, menu: Menu, etag: string | null, readAt: number) {
  if (getSession().token !== token) return;
  const owner = tokenKey(token);
  // Named before it is written: a sign-out from now on finds it and removes it, in a
  // transaction that runs after this one.
  setKeptOwner(owner);
  const record: MenuRecord = { format: FORMAT, owner, menu, etag, readAt };
  await transaction('readwrite', (store) => {
    store.delete(CONFIRMED);
    return store.put(record, MENU);
  });
}

/** Notes that the kept menu of `token`'s session was still the server's at `at`. */
export async function confirmKeptMenu(token: string, at: number) {
  if (getSession().token !== token) return;
  const record: ConfirmedRecord = { owner: tokenKey(token), at };
  await transaction('readwrite', (store) => store.put(record, CONFIRMED));
}

/**
 * The menu kept for the session of `token`, read-only; null when none is kept for it. A menu
 * kept for another session is removed on the way.
 */
export async function openKeptMenu(token: string): Promise<KeptMenu | null> {
  const [kept, confirmed] = await Promise.all([
    transaction<MenuRecord | undefined>('readonly', (store) => store.get(MENU)),
    transaction<ConfirmedRecord | undefined>('readonly', (store) => store.get(CONFIRMED)),
  ]);
  if (!kept) return null;
  const owner = tokenKey(token);
  if (kept.owner !== owner || kept.format !== FORMAT) {
    await forgetKeptMenu();
    return null;
  }
  const readAt = confirmed?.owner === owner ? Math.max(kept.readAt, confirmed.at) : kept.readAt;
  return { menu: processMenu(readOnly(kept.menu)), etag: kept.etag, readAt };
}

/** Removes the kept menu, and the icons the service worker kept with it. */
export async function forgetKeptMenu() {
  await transaction('readwrite', (store) => store.clear());
  setKeptOwner(null);
  if (typeof caches !== 'undefined') await caches.delete(ICONS_CACHE).catch(() => false);
}

type Flags = Record<string, boolean>;
const none = (flags: Flags): Flags =>
  Object.fromEntries(Object.keys(flags).map((name) => [name, false]));

/**
 * The menu with every permission off: what the person may do is the server's word (decision
 * 0008), and without the server nothing can be done, so the portal shows no write control —
 * no Add item, no drag and drop, no item action but Info.
 */
export function readOnly(menu: Menu): Menu {
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) =>
        (key === 'can' || key === 'linkCan') && inner && typeof inner === 'object'
          ? [key, none(inner as Flags)]
          : [key, walk(inner)],
      ),
    );
  };
  return walk(menu) as Menu;
}
