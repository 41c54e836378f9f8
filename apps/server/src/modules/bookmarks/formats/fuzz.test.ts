// Whatever a person uploads, readBookmarks either reads it into a well-formed tree or refuses
// it with a BookmarkFileError, whose message is shown to them: never another error (a
// TypeError would be a 500), and never a hang. Random text, and the sample files cut short,
// with bytes flipped and with pieces repeated.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadBookmarkReaders, readBookmarks } from './read.ts';
import { BookmarkFileError } from './tree.ts';
import { checkParsedBookmarks, fixture } from './test-support.ts';

beforeAll(loadBookmarkReaders);

const SAMPLES = [
  'chrome.html',
  'firefox.html',
  'edge.html',
  'safari.html',
  'bookmarks.csv',
  'managed-chrome.json',
  'policies-firefox.json',
  'linkwarden.json',
  'linkding.json',
].map((name) => ({ name, text: fixture(name) }));

/** Reads `text` as the service would; fails the property on anything but the two outcomes. */
function readsOrRefuses(text: string, fileName?: string): void {
  let parsed;
  try {
    parsed = readBookmarks(text, fileName);
  } catch (error) {
    if (error instanceof BookmarkFileError) {
      expect(error.message.length).toBeGreaterThan(0);
      return;
    }
    throw error;
  }
  checkParsedBookmarks(parsed);
}

/** Bytes decoded as the service decodes an upload: bad UTF-8 becomes U+FFFD. */
const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

const sample = fc.constantFrom(...SAMPLES);
const RUNS = { numRuns: 150 };

describe('readBookmarks never fails but with a BookmarkFileError', () => {
  it('on random text, bare or after the start of each format', () => {
    const start = fc.constantFrom(
      '',
      '<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p>\n',
      '<DL><DT><A HREF="',
      '{"format":"signpost-bookmarks","version":1,"exportedAt":"2024-01-01T00:00:00Z","title":"","items":',
      '[{"toplevel_name":',
      '{"collections":[',
      '{"results":[{"url":',
      'url,name,description,path\n',
    );
    // Arrays joined, not fc.string with a unit: fast-check maps such strings back to their
    // units for every value (all of Unicode for 'binary'), which took most of the time.
    const anyText = fc
      .array(fc.integer({ min: 0, max: 0x10ffff }), { maxLength: 300 })
      .map((codes) => String.fromCodePoint(...codes));
    const noise = fc
      .array(fc.constantFrom(...'<>/"\'=&;,[]{}:\n >\\ aDLTH3A'), { maxLength: 300 })
      .map((units) => units.join(''));
    fc.assert(
      fc.property(start, fc.oneof(noise, anyText), (head, tail) => {
        readsOrRefuses(head + tail);
      }),
      { numRuns: 300 },
    );
  });

  it('on each sample cut at any point', () => {
    fc.assert(
      fc.property(sample, fc.double({ min: 0, max: 1, noNaN: true }), ({ name, text }, where) => {
        readsOrRefuses(text.slice(0, Math.floor(text.length * where)), name);
      }),
      RUNS,
    );
  });

  it('on each sample with bytes flipped', () => {
    fc.assert(
      fc.property(
        sample,
        fc.array(
          fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 1, max: 255 })),
          {
            minLength: 1,
            maxLength: 8,
          },
        ),
        ({ name, text }, flips) => {
          const bytes = new Uint8Array(Buffer.from(text));
          for (const [where, bits] of flips) {
            const index = Math.min(bytes.length - 1, Math.floor(bytes.length * where));
            bytes[index] = (bytes[index] as number) ^ bits;
          }
          readsOrRefuses(decode(bytes), name);
        },
      ),
      RUNS,
    );
  });

  it('on each sample with pieces repeated elsewhere', () => {
    const where = fc.double({ min: 0, max: 1, noNaN: true });
    fc.assert(
      fc.property(
        sample,
        fc.array(fc.tuple(where, where, where, fc.integer({ min: 1, max: 50 })), {
          minLength: 1,
          maxLength: 3,
        }),
        ({ name, text }, copies) => {
          let mutated = text;
          for (const [from, length, to, times] of copies) {
            const start = Math.floor(mutated.length * from);
            const piece = mutated.slice(start, start + Math.floor(200 * length));
            const at = Math.floor(mutated.length * to);
            mutated = mutated.slice(0, at) + piece.repeat(times) + mutated.slice(at);
          }
          readsOrRefuses(mutated, name);
        },
      ),
      RUNS,
    );
  });
});
