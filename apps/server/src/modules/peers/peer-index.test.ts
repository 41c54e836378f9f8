import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareCodePoints, PeerIndex, SHORT_CANDIDATES, type PeerEntry } from './peer-index.ts';

/** The search's definition, over a plain array: what the index must answer. */
function expected(
  people: PeerEntry[],
  query: string,
  excludeId: string,
  offset: number,
  limit: number,
) {
  return people
    .filter((p) => p.id !== excludeId)
    .filter((p) => query === '' || p.sortName.includes(query) || p.lowerEmail.includes(query))
    .sort((a, b) => compareCodePoints(a.sortName, b.sortName) || compareCodePoints(a.id, b.id))
    .slice(offset, offset + limit)
    .map(({ id, name, email }) => ({ id, name, email }));
}

const inOrder = (people: PeerEntry[]) =>
  [...people].sort(
    (a, b) => compareCodePoints(a.sortName, b.sortName) || compareCodePoints(a.id, b.id),
  );

const person = (id: string, sortName: string, lowerEmail = `${id}@x.test`): PeerEntry => ({
  id,
  name: sortName.toUpperCase(),
  email: lowerEmail.toUpperCase(),
  sortName,
  lowerEmail,
});

// Letters that make many grams meet, the characters the statement escapes, one from
// U+E000–U+FFFF and one outside the Basic Multilingual Plane (two code units).
const unit = fc.constantFrom(...'aanbq ._%\\@', 'ë', '\uff5a', '😀');
const text = (maxLength: number) => fc.string({ unit, maxLength });
const entry = fc.record({
  id: fc.constantFrom(...Array.from({ length: 24 }, (_, i) => `id${String(i).padStart(2, '0')}`)),
  sortName: text(6),
  lowerEmail: text(6),
});

describe('compareCodePoints', () => {
  it('orders as the bytes of UTF-8 do, unlike <', () => {
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
});

describe('PeerIndex', () => {
  it('refuses a first load that is not in its order, and keeps nothing of it', () => {
    const index = new PeerIndex();
    expect(index.append([person('b', 'bob'), person('a', 'alice')])).toBe(false);
    expect(index.size).toBe(0);
    expect(index.append([person('a', 'alice'), person('b', 'bob')])).toBe(true);
    // The next part must come after the last one.
    expect(index.append([person('c', 'al')])).toBe(false);
    // Code point order: U+FF5A before an emoji, though `<` says otherwise.
    expect(index.append([person('d', 'bob\uff5a'), person('e', 'bob😀')])).toBe(true);
    expect(index.size).toBe(4);
  });

  it('answers pages of everyone around the caller', () => {
    const people = ['erin', 'bob', 'alice', 'dave', 'carol'].map((n, i) => person(`p${i}`, n));
    const index = new PeerIndex();
    expect(index.load(inOrder(people))).toBe(true);
    for (const me of ['p0', 'p1', 'p2', 'p3', 'p4', 'nobody']) {
      for (let offset = 0; offset <= 6; offset += 1) {
        for (const limit of [1, 2, 5]) {
          expect(index.search('', me, offset, limit)).toEqual(
            expected(people, '', me, offset, limit),
          );
        }
      }
    }
  });

  it('finds a short name by a short query, and a query across name and e-mail never', () => {
    const people = [person('a', 'al', 'x@y.z'), person('b', 'bo', 'bo@al.test')];
    const index = new PeerIndex();
    index.load(inOrder(people));
    expect(index.search('al', '', 0, 10).map((p) => p.id)).toEqual(['a', 'b']);
    expect(index.search('l', '', 0, 10).map((p) => p.id)).toEqual(['a', 'b']);
    expect(index.search('alx', '', 0, 10)).toEqual([]);
    expect(index.search('qq', '', 0, 10)).toEqual([]);
  });

  it('answers a frequent short query from everyone, a rare one from its grams', () => {
    const people = Array.from({ length: SHORT_CANDIDATES + 50 }, (_, i) =>
      person(`p${String(i).padStart(5, '0')}`, `name ${i}`, `p${i}@x.test`),
    );
    people.push(person('q1', 'zq', 'zq@x.test'), person('q2', 'aqz', 'a@x.test'));
    const index = new PeerIndex();
    index.load(inOrder(people));
    for (const query of ['n', 'e ', '1', 'q', 'zq', 'x', '@x']) {
      expect(index.search(query, 'p00003', 2, 20)).toEqual(
        expected(people, query, 'p00003', 2, 20),
      );
    }
  });

  it('answers as the definition does after any adds, changes and removals', () => {
    fc.assert(
      fc.property(
        fc.array(entry, { maxLength: 20 }),
        fc.array(
          fc.oneof(
            entry,
            entry.map((e) => e.id),
          ),
          { maxLength: 30 },
        ),
        fc.array(
          fc.record({
            query: text(4),
            me: fc.constantFrom('id00', 'id05', 'id23', 'none'),
            offset: fc.integer({ min: 0, max: 8 }),
            limit: fc.integer({ min: 1, max: 8 }),
          }),
          { minLength: 1, maxLength: 10 },
        ),
        (first, changes, searches) => {
          const byId = new Map<string, PeerEntry>();
          for (const e of first) byId.set(e.id, person(e.id, e.sortName, e.lowerEmail));
          const index = new PeerIndex();
          expect(index.load(inOrder([...byId.values()]))).toBe(true);
          for (const change of changes) {
            if (typeof change === 'string') {
              byId.delete(change);
              index.delete(change);
            } else {
              const next = person(change.id, change.sortName, change.lowerEmail);
              byId.set(change.id, next);
              index.put(next);
            }
          }
          const people = [...byId.values()];
          expect(index.size).toBe(people.length);
          for (const { query, me, offset, limit } of searches) {
            expect(index.search(query, me, offset, limit)).toEqual(
              expected(people, query, me, offset, limit),
            );
          }
        },
      ),
      { numRuns: 400 },
    );
  });
});
