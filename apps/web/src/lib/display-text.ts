import punycode from 'punycode.js';

// The explicit bidirectional formatting characters: embeddings and overrides (U+202A–U+202E)
// and isolates (U+2066–U+2069). An override turns the rest of a name around
// ("invoice\u202Efdp.exe" shows as "invoiceexe.pdf"); the marks U+200E and U+200F stay, they
// only nudge neutral characters and cannot reorder letters.
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/g;

/** The text without bidirectional embeddings, overrides and isolates (decision 0049). */
export function neutralizeBidi(text: string): string {
  return text.replace(BIDI_CONTROLS, '');
}

/**
 * A JSON reviver for every answer of the API: each string loses its bidirectional controls,
 * so no name, description or address on any screen can reorder what follows it.
 */
export function reviveDisplayText(_key: string, value: unknown): unknown {
  return typeof value === 'string' ? neutralizeBidi(value) : value;
}

/**
 * The Unicode form of an address's host when it differs from the punycode form the server
 * stores (`xn--80ak6aa92e.com` is `аррӏе.com`, Cyrillic letters that look like "apple"), or
 * null when they are the same or the address has no host.
 */
export function unicodeHost(url: string): { ascii: string; unicode: string } | null {
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return null;
  }
  if (!host) return null;
  const unicode = punycode.toUnicode(host);
  return unicode === host ? null : { ascii: host, unicode };
}
