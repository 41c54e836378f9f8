// Addresses are stored as the WHATWG URL standard parses them (decision 0049): one reading
// for every client, ASCII only (punycode hosts), never with a user name or password.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AppError } from './errors.ts';
import { normalizeUrl } from './urls.ts';

/** The stored form, or null when refused with 400. */
function stored(input: string): string | null {
  try {
    return normalizeUrl(input, 'body.url');
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).statusCode).toBe(400);
    return null;
  }
}

// Hosts with look-alike letters (Cyrillic, Greek), accents and plain ASCII.
const label = fc.stringMatching(/^[a-zа-яαβγéü0-9]{1,12}$/);
const host = fc
  .tuple(fc.array(label, { minLength: 1, maxLength: 3 }), fc.constantFrom('com', 'example', 'рф'))
  .map(([labels, tld]) => [...labels, tld].join('.'));
// The ways of writing the start of an address that clients have read differently.
const start = fc.constantFrom(
  'https://',
  'HTTPS://',
  'https:',
  'https:/',
  'https:///',
  'https:\\\\',
  'https:/\\',
  'http://',
  '//',
  '',
);
const rest = fc.constantFrom('', '/', '/wiki', '/a/../b', '/ü?q=ä#frag', ':443/x', ':8080', '?');
const address = fc.oneof(
  fc.tuple(start, host, rest).map((parts) => parts.join('')),
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
  fc.constantFrom('mailto:someone@example.com', 'mailto:Ünï@exämple.com?subject=Hi'),
);

describe('normalizeUrl, for any address', () => {
  it('stores the parsed form: ASCII, a fixed point, read the same by the URL parser', () => {
    let accepted = 0;
    fc.assert(
      fc.property(address, (input) => {
        const out = stored(input);
        if (out === null) return;
        accepted += 1;
        expect(out).toMatch(/^[\x21-\x7e]+$/);
        expect(new URL(out).href).toBe(out);
        expect(stored(out)).toBe(out);
        expect(['http:', 'https:', 'mailto:']).toContain(new URL(out).protocol);
      }),
      { numRuns: 500 },
    );
    expect(accepted).toBeGreaterThan(100);
  });

  it('keeps the host a browser would visit, in its punycode form', () => {
    fc.assert(
      fc.property(start, host, rest, (prefix, name, tail) => {
        const input = `${prefix}${name}${tail}`;
        const out = stored(input);
        if (out === null) return;
        const typed = new URL(
          /^[a-z]+:/i.test(input) ? input : `https://${input.replace(/^\/+/, '')}`,
        );
        expect(new URL(out).hostname).toBe(typed.hostname);
        expect(new URL(out).hostname).not.toMatch(/[^\x21-\x7e]/);
      }),
      { numRuns: 300 },
    );
  });

  it('refuses every address with a user name or password', () => {
    const userInfo = fc.oneof(
      fc.stringMatching(/^[a-z0-9.]{1,10}$/),
      fc.stringMatching(/^[a-z0-9]{1,8}:[a-z0-9]{0,8}$/),
    );
    fc.assert(
      fc.property(start, userInfo, host, rest, (prefix, user, name, tail) => {
        expect(stored(`${prefix}${user}@${name}${tail}`)).toBeNull();
      }),
      { numRuns: 300 },
    );
  });
});

describe('normalizeUrl, examples', () => {
  it.each([
    ['https:evil.example', 'https://evil.example/'],
    ['https:///evil.example', 'https://evil.example/'],
    ['https:\\\\evil.example\\path', 'https://evil.example/path'],
    ['\\\\evil.example', 'https://evil.example/'],
    ['HTTPS://Example.COM:443/a/../b', 'https://example.com/b'],
    ['https://аррӏе.com/login', 'https://xn--80ak6aa92e.com/login'],
    ['wiki.example.com', 'https://wiki.example.com/'],
    ['https://example.com/ü?q=ä', 'https://example.com/%C3%BC?q=%C3%A4'],
    ['mailto:someone@example.com', 'mailto:someone@example.com'],
    // An empty user part names nobody; the parsed form drops it with the @.
    ['https://@evil.example', 'https://evil.example/'],
    ['https://:@evil.example', 'https://evil.example/'],
  ])('stores %s as %s', (input, expected) => {
    expect(stored(input)).toBe(expected);
  });

  it.each([
    'https://good.example@evil.example',
    'https://good.example:x@evil.example/',
    'https:good@evil.example',
    'good.example@evil.example',
  ])('refuses %s, naming the user part', (input) => {
    expect(() => normalizeUrl(input, 'body.url')).toThrow(
      'body.url must not hold a user name or password before the host (user@host): give the address of the page itself',
    );
  });
});
