// The one order of the people directory (decision 0072) against the database's: whatever the
// names, the directory orders people as the statements' `ORDER BY lower(name), id` does, on
// the embedded database and on PostgreSQL.
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { selectRows } from '../../db/client.ts';
import { createTestApp } from '../../../test/app.ts';
import { compareCodePoints, compareNamePlaces, ordersByCodePoint } from './name-order.ts';

const { db, repositories } = await createTestApp();

// Letters whose order differs by code point, by code unit and by language: upper and lower
// case, accents, U+E000–U+FFFF (a private use letter, a full-width z), outside the Basic
// Multilingual Plane (an emoji, a mathematical letter, CJK extension B), İ and final Σ,
// which lower differently in JavaScript and in the database, and punctuation.
const TRICKY = [
  ...'aAzZ _-.@%\\1',
  'é',
  'É',
  'ß',
  'İ',
  'Σ',
  'ς',
  '\ue000',
  '\uff5a',
  '😀',
  '𝒜',
  '𠀀',
  '𪜀',
];
const letter = fc
  .oneof(
    { weight: 3, arbitrary: fc.constantFrom(...TRICKY) },
    // Any character PostgreSQL takes in text: every code point but NUL and lone surrogates.
    { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
  )
  .filter((c) => c !== '\u0000');
const name = fc.string({ unit: letter, maxLength: 5 });

describe('name order', () => {
  it('compares code points, as the bytes of UTF-8 do, unlike <', () => {
    expect('\uff5a' < '😀').toBe(false);
    expect(compareCodePoints('\uff5a', '😀')).toBeLessThan(0);
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' }), (a, b) => {
        const bytes = Buffer.compare(Buffer.from(a), Buffer.from(b));
        expect(Math.sign(compareCodePoints(a, b))).toBe(bytes);
      }),
      { numRuns: 500 },
    );
  });

  it('is the order of the database’s lower(name), id, for any names', async () => {
    // The test databases order by code point; the directory reads them (a database that
    // does not is left to the statements, `ordersByCodePoint`).
    const start = await repositories.directory.start(db, 'none', 'A');
    expect(start.codePointOrder).toBe(true);
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ name, id: fc.constantFrom('a', 'b', 'B', '😀') }), {
          minLength: 2,
          maxLength: 12,
        }),
        async (people) => {
          const rows = await selectRows<{ name: string; id: string }>(
            db,
            sql`SELECT lower(t.name) AS name, t.id FROM
                  unnest(${sql.param(people.map((p) => p.name))}::text[],
                         ${sql.param(people.map((p) => p.id))}::text[]) AS t(name, id)
                ORDER BY lower(t.name), t.id`,
          );
          expect(rows).toEqual([...rows].sort(compareNamePlaces));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('holds where a row comparison after a cursor does, as the statements page', async () => {
    await fc.assert(
      fc.asyncProperty(name, name, async (a, b) => {
        const [row] = await selectRows<{ after: boolean; lowerA: string; lowerB: string }>(
          db,
          sql`SELECT (lower(${a}::text), 'x') > (lower(${b}::text), 'x') AS after,
                     lower(${a}::text) AS "lowerA", lower(${b}::text) AS "lowerB"`,
        );
        expect(row!.after).toBe(compareCodePoints(row!.lowerA, row!.lowerB) > 0);
      }),
      { numRuns: 150 },
    );
  });
});

describe('ordersByCodePoint', () => {
  it.each([
    [{ provider: 'c', collate: 'C', defaultCollation: true }, true],
    [{ provider: 'c', collate: 'C.UTF-8', defaultCollation: true }, true],
    [{ provider: 'c', collate: 'POSIX', defaultCollation: true }, true],
    [{ provider: null, collate: 'C.utf8', defaultCollation: true }, true],
    [{ provider: 'b', collate: 'C', defaultCollation: true }, true],
    [{ provider: 'c', collate: 'en_US.UTF-8', defaultCollation: true }, false],
    [{ provider: 'i', collate: 'C', defaultCollation: true }, false],
    [{ provider: 'c', collate: 'C', defaultCollation: false }, false],
  ])('%o → %s', (database, expected) => {
    expect(ordersByCodePoint(database)).toBe(expected);
  });
});
