import type { Menu } from '@signpost/contract';
import { onDeparture } from '../personal-data';
import { getSession } from '../session-store';
import { tokenKey } from '../storage';
import { whenIdle } from '../when-idle';
import type * as KeptMenuStore from './kept-menu';
import type { KeptMenu } from './kept-menu';
import { keptOwner } from './kept-owner';
import { ICONS_CACHE } from './sw-rules';

/**
 * The first screen's side of the kept menu (decision 0065): the store itself
 * (`kept-menu.ts`, IndexedDB) loads when there is something to keep or to read, after the
 * menu is painted, and never holds up the first screen.
 */
type Store = typeof KeptMenuStore;
let loader: () => Promise<Store> = () => Promise.reject(new Error('no store'));

/**
 * Names how the store is loaded: `main.tsx` passes `() => import('./lib/offline/kept-menu')`.
 * The import is written in the entry module because, written here, it made the bundler split
 * Vite's preload helper out of the entry into a script of its own, which the first screen
 * then loads too (0.1 KB more, decision 0065).
 */
export function setKeptMenuLoader(load: () => Promise<Store>) {
  loader = load;
}
const load = () => loader();

/** Keeps the menu just read, once the browser is idle. */
export function keepMenu(token: string, menu: Menu, etag: string | null, readAt: number) {
  whenIdle(() => {
    load()
      .then((store) => store.keepMenu(token, menu, etag, readAt))
      .catch(() => {
        // Not kept: the portal still works, offline it has less to show.
      });
  }, 5000);
}

const CONFIRM_EVERY_MS = 60_000;
let confirmed = { token: '', at: 0 };

/** Notes that the kept menu was still the server's at `at` (a 304), at most once a minute. */
export function confirmKeptMenu(token: string, at: number) {
  if (confirmed.token === token && at - confirmed.at < CONFIRM_EVERY_MS) return;
  confirmed = { token, at };
  whenIdle(() => {
    load()
      .then((store) => store.confirmKeptMenu(token, at))
      .catch(() => undefined);
  }, 5000);
}

/** The menu this browser kept for the session of `token`, read-only; null when there is none. */
export async function openKeptMenu(token: string): Promise<KeptMenu | null> {
  try {
    return await (await load()).openKeptMenu(token);
  } catch {
    return null;
  }
}

/**
 * The kept menu is private: it goes, with the icons the service worker kept beside it, as soon
 * as its session is not this browser's any more — signed out, ended by the server, another
 * sign-in (decision 0080) — and at the next start if it could not go then (the browser closed
 * first). Called once, at start.
 */
export function keepMenuPrivate() {
  const forget = () => {
    load()
      .then((store) => store.forgetKeptMenu())
      .catch(() => undefined);
    // Without the store (it could not load), the icons still go.
    if (typeof caches !== 'undefined') caches.delete(ICONS_CACHE).catch(() => false);
  };
  const owner = keptOwner();
  const token = getSession().token;
  if (owner !== null && (token === null || tokenKey(token) !== owner)) forget();
  return onDeparture(({ staying }) => {
    if (staying === null || keptOwner() !== tokenKey(staying)) forget();
  });
}
