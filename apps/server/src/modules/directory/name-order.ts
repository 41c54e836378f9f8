/**
 * The one order of the people directory (decision 0072): the order of its statements'
 * `ORDER BY lower(name), id` on a database whose collation compares the bytes of UTF-8,
 * which is code point order.
 */

/** Where a person stands in name order: their lowered name, then their id. */
export interface NamePlace {
  name: string;
  id: string;
}

/**
 * Code point order, the order of a database whose collation compares bytes of UTF-8 (`C`,
 * `C.UTF-8`): JavaScript's `<` compares UTF-16 code units instead, which puts a character
 * outside the Basic Multilingual Plane (a surrogate pair) before U+E000–U+FFFF.
 */
export function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const length = Math.min(a.length, b.length);
  let at = 0;
  while (at < length && a.charCodeAt(at) === b.charCodeAt(at)) at += 1;
  if (at === length) return a.length - b.length;
  let x = a.charCodeAt(at);
  let y = b.charCodeAt(at);
  if (x >= 0xd800 && y >= 0xd800) {
    // Surrogates after U+E000–U+FFFF; both moved within 0xD800–0xFFFF, order kept inside each.
    x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
    y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
  }
  return x - y;
}

/** Name order: the lowered name, then the id, each by code point. */
export function compareNamePlaces(a: NamePlace, b: NamePlace): number {
  return compareCodePoints(a.name, b.name) || compareCodePoints(a.id, b.id);
}

/** libc's collations that order by code point (by the bytes of UTF-8). */
const CODE_POINT_COLLATIONS = ['C', 'POSIX', 'C.UTF-8', 'C.utf8', 'C.UTF8'];

/**
 * Whether the database sorts `lower(name)` by code point: the columns keep the database's
 * collation, and that is one of libc's C collations, or any of the builtin provider's
 * (PostgreSQL 17: `C`, `C.UTF-8`, and 18's `PG_UNICODE_FAST`, all in code point order). ICU
 * and libc's linguistic collations (`en_US.UTF-8`) order otherwise. Without a provider
 * (PostgreSQL before 15), libc.
 *
 * libc's `C.UTF-8` compares code points from glibc 2.35 on; the build checks the order the
 * database gives all the same.
 */
export function ordersByCodePoint(database: {
  provider: string | null;
  collate: string | null;
  defaultCollation: boolean;
}): boolean {
  if (!database.defaultCollation) return false;
  const provider = database.provider ?? 'c';
  return (
    provider === 'b' || (provider === 'c' && CODE_POINT_COLLATIONS.includes(database.collate ?? ''))
  );
}
