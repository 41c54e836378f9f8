/// <reference lib="webworker" />
/**
 * The service worker (decision 0065). It keeps the files of one build — the page, every
 * script and style, the icons, the manifest — and answers:
 *
 * - a page address: from the network first, so a new version is seen at the next visit; from
 *   the kept page when the network fails, answers 5xx or takes longer than PAGE_TIMEOUT_MS;
 * - a file of `/assets/` (hashed, never changing): from any cache first, else the network,
 *   kept for later; so an open page of this build still finds its scripts after a new build
 *   replaced them on the server;
 * - a link's icon (`/api/icons/…`, decision 0068): from the icons cache first, else the
 *   network, kept for later (at most ICONS_KEPT); its address never shows other bytes;
 * - nothing else: the rest of the API, the live-update stream, single sign-on and the
 *   operator addresses go to the network as if there were no service worker.
 *
 * A new version waits until no page of the old one is open, unless the one page open is of
 * the new build and asks it to take over (`take-over`): no page ever runs with a mix of two
 * builds' files, and nothing reloads a page on its own.
 */
import { clientsClaim } from 'workbox-core';
import { getCacheKeyForURL, matchPrecache, precacheAndRoute } from 'workbox-precaching';
import { registerRoute } from 'workbox-routing';
import type { RouteHandlerCallbackOptions } from 'workbox-core/types';
import {
  ICONS_CACHE,
  ICONS_KEPT,
  isKeptIcon,
  isPageAddress,
  PAGE_TIMEOUT_MS,
  TAKE_OVER,
} from './lib/offline/sw-rules';

declare const self: ServiceWorkerGlobalScope & {
  __WB_MANIFEST: (string | { url: string; revision: string | null })[];
};

/** Hashed files fetched while an older version was in charge; emptied when a version starts. */
const ASSETS_CACHE = 'signpost-assets';
const PAGE = '/index.html';

/**
 * The page from the network, else the kept page of this build. No navigation preload: it
 * would send every navigation of the scope ahead to the server, also those this worker leaves
 * alone, such as single sign-on's callback, whose code works once.
 */
async function page({ request }: RouteHandlerCallbackOptions): Promise<Response> {
  const network = fetch(request);
  // Answered from the kept page after the time limit, the network's late failure is no news.
  network.catch(() => undefined);
  const kept = () => matchPrecache(PAGE);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), PAGE_TIMEOUT_MS);
  });
  try {
    const first = await Promise.race([network, late]);
    if (first === 'late') return (await kept()) ?? (await network);
    if (first.status >= 500) return (await kept()) ?? first;
    return first;
  } catch {
    return (await kept()) ?? Response.error();
  } finally {
    clearTimeout(timer);
  }
}

// Page addresses first: the precache's own route would answer `/` from the cache.
registerRoute(
  ({ request, url }) =>
    request.mode === 'navigate' && url.origin === self.location.origin && isPageAddress(url),
  page,
);

precacheAndRoute(self.__WB_MANIFEST, { cleanURLs: false });

registerRoute(
  ({ url, request }) =>
    request.method === 'GET' &&
    url.origin === self.location.origin &&
    url.pathname.startsWith('/assets/'),
  async ({ request }) => {
    const cached = await caches.match(request, { ignoreVary: true });
    if (cached) return cached;
    const response = await fetch(request);
    if (response.ok) {
      const copy = response.clone();
      void caches.open(ASSETS_CACHE).then((cache) => cache.put(request, copy));
    }
    return response;
  },
);

registerRoute(
  ({ url, request }) =>
    request.method === 'GET' && url.origin === self.location.origin && isKeptIcon(url),
  async ({ request }) => {
    const cache = await caches.open(ICONS_CACHE);
    const cached = await cache.match(request);
    if (cached) return cached;
    const response = await fetch(request);
    if (response.ok) {
      const copy = response.clone();
      void (async () => {
        await cache.put(request, copy);
        const keys = await cache.keys();
        for (const old of keys.slice(0, Math.max(0, keys.length - ICONS_KEPT))) {
          await cache.delete(old);
        }
      })();
    }
    return response;
  },
);

self.addEventListener('activate', (event) => {
  // The precache keeps this build's files now; what an older version fetched goes.
  event.waitUntil(caches.delete(ASSETS_CACHE));
});
clientsClaim();

self.addEventListener('message', (event) => {
  const data = event.data as { type?: unknown; entry?: unknown } | null;
  if (data?.type !== TAKE_OVER || typeof data.entry !== 'string') return;
  const entry = data.entry;
  event.waitUntil(
    (async () => {
      // Only for a page of this build, and only when it is the one page open: any other
      // page may be of the older build and need its files.
      if (!getCacheKeyForURL(entry)) return;
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      if (windows.length === 1) await self.skipWaiting();
    })(),
  );
});
