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
