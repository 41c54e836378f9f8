import { LIMITS } from '@signpost/contract';
import { badRequest } from './errors.ts';

const ALLOWED_SCHEMES = new Set(['http:', 'https:', 'mailto:']);
// Control characters, and invisible ones that can hide a scheme: zero-width spaces and
// joiners, bidirectional marks and overrides, the byte-order mark, soft hyphens.
// eslint-disable-next-line no-control-regex
const HIDDEN = /[\u0000-\u001f\u007f-\u009f\u00ad\u200b-\u200f\u2028-\u202e\u2060-\u2064\ufeff]/;
const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/**
 * Returns the address to store, or throws 400. Only http:, https: and mailto: are kept; an
 * address typed without a scheme (`example.com/wiki`) is taken as https.
 *
 * What is stored is the address as the WHATWG URL standard parses it (its `href`, decision
 * 0049), never the text as typed: every browser and client then reads the same host.
 * `https:evil.example`, `https:///evil.example` and `https:\\evil.example` become
 * `https://evil.example/`, a Unicode host becomes its punycode (`xn--…`) form, the scheme and
 * host are lower case, default ports and dot segments go. An address with a user name or
 * password (`https://good.example@evil.example`) is refused: it is the classic disguise of a
 * host, and a portal link has no business carrying credentials.
 */
export function normalizeUrl(input: string, field = 'url'): string {
  const value = input.trim();
  if (value === '') throw badRequest(`${field} must not be empty`);
  if (HIDDEN.test(value) || /\s/.test(value)) {
    throw badRequest(`${field} must not contain spaces or invisible characters`);
  }
  const withScheme = HAS_SCHEME.test(value) ? value : `https://${value.replace(/^\/+/, '')}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw badRequest(`${field} is not a valid address`);
  }
  if (!ALLOWED_SCHEMES.has(url.protocol)) {
    throw badRequest(`${field} must be an http, https or mailto address`);
  }
  if (url.protocol !== 'mailto:' && url.hostname === '') {
    throw badRequest(`${field} must name a host`);
  }
  if (url.username !== '' || url.password !== '') {
    throw badRequest(
      `${field} must not hold a user name or password before the host (user@host): ` +
        'give the address of the page itself',
    );
  }
  const href = url.href;
  if (href.length > LIMITS.url) {
    throw badRequest(`${field} must not be longer than ${LIMITS.url} characters once encoded`);
  }
  return href;
}
