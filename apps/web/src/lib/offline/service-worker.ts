import { TAKE_OVER } from './sw-rules';

/** A page left open checks for a new version when shown again, at most this often. */
const UPDATE_CHECK_MS = 60 * 60_000;

/**
 * Registers the service worker (`/sw.js`, decision 0065) for this page, whose build is named
 * by its entry script's address. A new version found while this page is open waits; when
 * this page is of that new build — it came from the network after a new deploy — it asks the
 * new version to take over, which it does only if no other page is open. Nothing reloads.
 */
export async function registerServiceWorker(entry: string, container = navigator.serviceWorker) {
  const registration = await container.register('/sw.js', { scope: '/', updateViaCache: 'none' });
  const offer = (worker: ServiceWorker | null) => worker?.postMessage({ type: TAKE_OVER, entry });
  offer(registration.waiting);
  registration.addEventListener('updatefound', () => {
    const installing = registration.installing;
    installing?.addEventListener('statechange', () => {
      if (installing.state === 'installed' && registration.active) offer(installing);
    });
  });
  let checked = Date.now();
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState !== 'visible' || Date.now() - checked < UPDATE_CHECK_MS) return;
    checked = Date.now();
    registration.update().catch(() => {
      // Offline: the next check will do.
    });
  });
  return registration;
}
