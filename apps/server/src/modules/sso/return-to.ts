const MAX_LENGTH = 512;
const BASE = 'http://signpost.invalid';
// Control and invisible characters that browsers drop or reinterpret in addresses.
// eslint-disable-next-line no-control-regex
const HIDDEN = /[\u0000-\u001f\u007f-\u009f\u00ad\u200b-\u200f\u2028-\u202e\u2060-\u2064\ufeff]/;

/**
 * A "return to" address that stays on this site: a path, with its query, or `/`.
 * Anything that could leave the origin — another scheme or host (`https://evil.example`),
 * a protocol-relative address (`//evil.example`), a backslash that browsers read as a slash
 * (`/\evil.example`), hidden characters — gives `/`. The fragment is dropped: the sign-in
 * puts its own there.
 */
export function safeReturnTo(value: string | null | undefined): string {
  if (!value || value.length > MAX_LENGTH || HIDDEN.test(value)) return '/';
  if (!value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return '/';
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return '/';
  }
  if (url.origin !== BASE) return '/';
  const path = `${url.pathname}${url.search}`;
  // Neither the parsed path nor its decoded form may start like another host: no
  // dot-segment or percent-encoding tricks (`/%2F%2Fevil.example`, `/%5Cevil.example`).
  let decoded: string;
  try {
    decoded = decodeURIComponent(url.pathname);
  } catch {
    return '/';
  }
  if (path.startsWith('//') || decoded.startsWith('//') || decoded.includes('\\')) return '/';
  return path;
}
