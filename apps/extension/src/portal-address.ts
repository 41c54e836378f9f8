/** Where a portal lives, read from what a person typed; or why it cannot be used. */
export type PortalAddress =
  | { ok: true; origin: string; permission: string }
  | { ok: false; problem: 'missing' | 'invalid' | 'not-https' };

const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:/i;
const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/;

/**
 * The portal's origin from an address as people copy it (`links.acme.example`,
 * `https://links.acme.example/`, the portal's page with a path): a scheme-less address is
 * https, and only the origin is kept. Plain http is refused except on this machine, where a
 * portal under development runs: the access token travels with every call.
 *
 * `permission` is the host permission the browser is asked for: the host without its port,
 * since Firefox's match patterns have no port (Chromium then matches every port of the host).
 */
export function readPortalAddress(input: string): PortalAddress {
  const value = input.trim();
  if (value === '') return { ok: false, problem: 'missing' };
  let url: URL;
  try {
    url = new URL(HAS_SCHEME.test(value) ? value : `https://${value}`);
  } catch {
    return { ok: false, problem: 'invalid' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return { ok: false, problem: 'invalid' };
  if (url.hostname === '' || url.username !== '' || url.password !== '') {
    return { ok: false, problem: 'invalid' };
  }
  if (url.protocol === 'http:' && !LOOPBACK.test(url.hostname)) {
    return { ok: false, problem: 'not-https' };
  }
  return { ok: true, origin: url.origin, permission: `${url.protocol}//${url.hostname}/*` };
}
