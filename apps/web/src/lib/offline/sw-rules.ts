/**
 * What the service worker (`src/sw.ts`) and the pages that talk to it agree on (decision
 * 0065). Kept apart from both so that tests can read the rules without a service worker.
 */

/** A page address waits this long for the network before the kept page is shown. */
export const PAGE_TIMEOUT_MS = 3000;

/** The message a page of the new build sends a waiting version: take over if I am alone. */
export const TAKE_OVER = 'take-over';

// The server's operator addresses: never the web app's page (apps/server/src/plugins/errors.ts).
const OPERATOR_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * Whether the server answers this address with the web app's page: the same rule as the
 * server's not-found handler. Everything else — the API (single sign-on's redirects
 * included), the operator addresses, files — goes to the network untouched.
 */
export function isPageAddress(url: URL): boolean {
  const path = url.pathname;
  return (
    path !== '/api' &&
    !path.startsWith('/api/') &&
    !OPERATOR_PATHS.has(path.replace(/\/$/, '')) &&
    !path.startsWith('/assets/') &&
    !/\.[a-z0-9]+$/i.test(path)
  );
}

/**
 * Links' icons kept for the portal offline (decision 0068): their addresses are digests of
 * their images, so a kept one is never stale. Private like the kept menu, and gone with it.
 */
export const ICONS_CACHE = 'signpost-icons';

/** The most icons kept; the oldest go first. */
export const ICONS_KEPT = 1000;

/** Whether an address is a link's icon that the server keeps. */
export function isKeptIcon(url: URL): boolean {
  return /^\/api\/icons\/[A-Za-z0-9_-]{16,64}$/.test(url.pathname);
}
