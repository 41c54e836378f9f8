// The people directory's index in memory (decision 0072), alone, with its two queries: after
// any sequence of additions, changes and removals, every answer of the peer search and every
// page of the console's list is the one a plain filter and sort of the same people gives.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DirectoryIndex,
  SHORT_CANDIDATES,
  SHORT_SORTED,
  type DirectoryPerson,
} from './directory-index.ts';
import { listPeople, searchPeers, type ListQuery } from './directory-queries.ts';
import { compareNamePlaces } from './name-order.ts';

const TEAMS = ['t1', 't2', 't3'];
const STATUSES = ['active', 'disabled', 'invited'] as const;

const placeOf = (p: DirectoryPerson) => ({ name: p.sortName, id: p.id });
const byName = (a: DirectoryPerson, b: DirectoryPerson) =>
  compareNamePlaces(placeOf(a), placeOf(b));
const inOrder = (people: Iterable<DirectoryPerson>) => [...people].sort(byName);
const matches = (p: DirectoryPerson, query: string) =>
  query === '' || p.sortName.includes(query) || p.lowerEmail.includes(query);

/**
 * A person; `bits` choose role, status, times, ways of signing in and teams. Name and e-mail
 * are given lowered (as the database gives them); their shown forms are upper case.
 */
function person(
  id: string,
  sortName: string,
  lowerEmail = `${id}@x.test`,
  bits = 0,
): DirectoryPerson {
  return {
    id,
    name: sortName.toUpperCase(),
    email: lowerEmail.toUpperCase(),
    role: bits & 1 ? 'admin' : 'member',
    status: STATUSES[(bits >> 1) % 3]!,
    lastSignInAt: bits & 8 ? 1_700_000_000_123 + bits : null,
    createdAt: 1_600_000_000_000 + bits,
    hasPassword: (bits & 16) !== 0,
    hasSso: (bits & 32) !== 0,
    secondFactor: (bits & 64) !== 0,
    teamIds: TEAMS.filter((_, i) => bits & (128 << i)),
    sortName,
    lowerEmail,
  };
}

/** The peer search's definition, over a plain array: what the index must answer. */
function expectedPeers(
  people: Iterable<DirectoryPerson>,
  query: string,
  excludeId: string,
  offset: number,
  limit: number,
) {
  return inOrder(people)
    .filter((p) => p.status === 'active' && p.id !== excludeId && matches(p, query))
    .slice(offset, offset + limit)
    .map(({ id, name, email }) => ({ id, name, email }));
}

/** The console's list's definition: filter everyone, sort, take the page. */
function expectedPage(people: Iterable<DirectoryPerson>, query: ListQuery): string[] {
  return inOrder(people)
    .filter(
      (p) =>
        matches(p, query.q) &&
        (!query.role || p.role === query.role) &&
        (!query.status || p.status === query.status) &&
        (query.signIn !== 'password' || p.hasPassword) &&
        (query.signIn !== 'sso' || p.hasSso) &&
        (query.signIn !== 'never' || p.lastSignInAt === null) &&
        (!query.team || p.teamIds.includes(query.team)) &&
        (!query.cursor || compareNamePlaces(placeOf(p), query.cursor) > 0),
    )
    .slice(0, query.count)
    .map((p) => p.id);
}

const pageIds = (index: DirectoryIndex, query: ListQuery) =>
  listPeople(index, query).map((slot) => index.person(slot).id);

// Letters that make many grams meet, the characters the statements escape, one from
// U+E000–U+FFFF and one outside the Basic Multilingual Plane (two code units, which code
// unit order would put before U+E000–U+FFFF).
const unit = fc.constantFrom(...'aanbq ._%\\@', 'ë', '\uff5a', '😀');
const text = (maxLength: number) => fc.string({ unit, maxLength });
const ID = fc.constantFrom(
  ...Array.from({ length: 24 }, (_, i) => `id${String(i).padStart(2, '0')}`),
);
const entry = fc.record({
  id: ID,
  sortName: text(6),
  lowerEmail: text(6),
  bits: fc.integer({ min: 0, max: 1023 }),
});
const entryPerson = (e: { id: string; sortName: string; lowerEmail: string; bits: number }) =>
  person(e.id, e.sortName, e.lowerEmail, e.bits);

/** An index loaded with `first` and then changed by `changes` (a person put, or an id removed), beside the same people in a map. */
function changedIndex(first: DirectoryPerson[], changes: (DirectoryPerson | string)[]) {
  const byId = new Map<string, DirectoryPerson>();
  for (const p of first) byId.set(p.id, p);
  const index = new DirectoryIndex();
  expect(index.load(inOrder(byId.values()))).toBe(true);
  for (const change of changes) {
    if (typeof change === 'string') {
      byId.delete(change);
      index.delete(change);
    } else {
      byId.set(change.id, change);
      index.put(change);
    }
  }
  expect(index.size).toBe(byId.size);
  return { index, byId };
}

describe('the directory index', () => {
  it('refuses a first load that is not in its order, and keeps nothing of it', () => {
    const index = new DirectoryIndex();
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
    const people = ['erin', 'bob', 'alice', 'dave', 'carol', 'cat', 'gus'].map((n, i) =>
      // Cat and Gus are not active: the peer search never shows them, nor counts them, even
      // when Cat searches.
      person(`p${i}`, n, undefined, i === 5 ? 2 : i === 6 ? 4 : 0),
    );
    const index = new DirectoryIndex();
    expect(index.load(inOrder(people))).toBe(true);
    for (const me of ['p0', 'p1', 'p2', 'p3', 'p4', 'p5', 'nobody']) {
      for (let offset = 0; offset <= 6; offset += 1) {
        for (const limit of [1, 2, 5]) {
          expect(searchPeers(index, '', me, offset, limit)).toEqual(
            expectedPeers(people, '', me, offset, limit),
          );
        }
      }
    }
  });

  it('finds a short name by a short query, and a query across name and e-mail never', () => {
    const people = [person('a', 'al', 'x@y.z'), person('b', 'bo', 'bo@al.test')];
    const index = new DirectoryIndex();
    index.load(inOrder(people));
    const ids = (query: string) => searchPeers(index, query, '', 0, 10).map((p) => p.id);
    expect(ids('al')).toEqual(['a', 'b']);
    expect(ids('l')).toEqual(['a', 'b']);
    expect(ids('alx')).toEqual([]);
    expect(ids('qq')).toEqual([]);
    expect(pageIds(index, { q: 'alx', cursor: null, count: 5 })).toEqual([]);
  });

  it('answers a frequent short query from everyone, a rare one from its grams', () => {
    const people = Array.from({ length: SHORT_CANDIDATES + 50 }, (_, i) =>
      person(`p${String(i).padStart(5, '0')}`, `name ${i}`, `p${i}@x.test`, i % 7 === 0 ? 2 : 0),
    );
    people.push(person('q1', 'zq', 'zq@x.test'), person('q2', 'aqz', 'a@x.test'));
    const sorted = inOrder(people);
    const index = new DirectoryIndex();
    index.load(sorted);
    const cursor = { name: 'name 30000', id: '' };
    // From one to SHORT_SORTED candidates, up to SHORT_CANDIDATES, and more.
    for (const query of ['n', 'e ', '1', '12', '123', 'q', 'zq', 'x', '@x']) {
      expect(searchPeers(index, query, 'p00003', 2, 20)).toEqual(
        expectedPeers(sorted, query, 'p00003', 2, 20),
      );
      for (const page of [
        { q: query, cursor: null, count: 20 },
        { q: query, cursor, count: 20 },
        { q: query, status: 'active' as const, cursor, count: 3 },
      ]) {
        expect(pageIds(index, page)).toEqual(expectedPage(sorted, page));
      }
    }
    expect(SHORT_SORTED).toBeLessThan(SHORT_CANDIDATES);
  });

  it('answers both queries as their definitions do after any adds, changes and removals', () => {
    fc.assert(
      fc.property(
        fc.array(entry, { maxLength: 20 }),
        fc.array(fc.oneof(entry.map(entryPerson), ID), { maxLength: 30 }),
        fc.array(
          fc.record({
            query: text(4),
            me: fc.constantFrom('id00', 'id05', 'id23', 'none'),
            offset: fc.integer({ min: 0, max: 8 }),
            limit: fc.integer({ min: 1, max: 8 }),
            cursor: fc.option(fc.record({ name: text(4), id: ID }), { nil: null }),
          }),
          { minLength: 1, maxLength: 10 },
        ),
        (first, changes, searches) => {
          const { index, byId } = changedIndex(first.map(entryPerson), changes);
          for (const { query, me, offset, limit, cursor } of searches) {
            expect(searchPeers(index, query, me, offset, limit)).toEqual(
              expectedPeers(byId.values(), query, me, offset, limit),
            );
            const page = { q: query, cursor, count: limit };
            expect(pageIds(index, page)).toEqual(expectedPage(byId.values(), page));
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it('gives every page a plain filter and sort gives, after loads, changes and removals', () => {
    const word = fc.string({
      unit: fc.constantFrom(...'abnqé _.', '\uff5a', '😀'),
      minLength: 1,
      maxLength: 6,
    });
    const anyPerson = fc.record({
      id: fc.constantFrom(...Array.from({ length: 12 }, (_, i) => `p${i}`)),
      sortName: word,
      lowerEmail: word.map((w) => `${w}@x.test`),
      bits: fc.integer({ min: 0, max: 1023 }),
    });
    const step = fc.oneof(
      anyPerson.map(entryPerson),
      fc.constantFrom(...Array.from({ length: 12 }, (_, i) => `p${i}`)),
    );
    const query = fc.record({
      q: fc.constantFrom('', 'a', 'an', 'ban', 'é', 'q_', 'nn@', '.te', 'zzz', '😀', '\uff5a'),
      role: fc.constantFrom(undefined, 'admin' as const, 'member' as const),
      status: fc.constantFrom(undefined, 'active' as const, 'invited' as const),
      team: fc.constantFrom(undefined, ...TEAMS, 'unknown'),
      signIn: fc.constantFrom(undefined, 'password' as const, 'sso' as const, 'never' as const),
      cursor: fc.option(fc.record({ name: word, id: fc.constantFrom('p0', 'p5', 'p9') }), {
        nil: null,
      }),
      count: fc.integer({ min: 1, max: 5 }),
    });
    fc.assert(
      fc.property(
        fc.array(anyPerson, { maxLength: 10 }),
        fc.array(step, { maxLength: 12 }),
        fc.array(query, { minLength: 1, maxLength: 6 }),
        (initial, steps, queries) => {
          const { index, byId } = changedIndex(initial.map(entryPerson), steps);
          for (const q of queries)
            expect(pageIds(index, q)).toEqual(expectedPage(byId.values(), q));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('answers a row as the list does: ISO times, team names in name order, all counted', () => {
    const index = new DirectoryIndex();
    index.setTeams(
      new Map([
        ['t1', { name: 'Zeta', sortName: 'zeta' }],
        ['t2', { name: 'alpha', sortName: 'alpha' }],
        ['t3', { name: 'Beta', sortName: 'beta' }],
      ]),
    );
    index.load([person('p1', 'ann lee', 'ann@x.test', 1 | 8 | 16 | 128 | 256 | 512)]);
    const [slot] = listPeople(index, { q: 'ann', cursor: null, count: 5 });
    expect(index.row(slot!, 2)).toEqual({
      id: 'p1',
      name: 'ANN LEE',
      email: 'ANN@X.TEST',
      role: 'admin',
      status: 'disabled',
      lastSignInAt: new Date(1_700_000_000_123 + 921).toISOString(),
      createdAt: new Date(1_600_000_000_000 + 921).toISOString(),
      hasPassword: true,
      hasSso: false,
      secondFactor: false,
      teamCount: 3,
      teams: ['alpha', 'Beta'],
    });
    // Team names in code point order too: U+FF5A before an emoji.
    index.setTeams(
      new Map([
        ['t1', { name: '😀 Team', sortName: '😀 team' }],
        ['t2', { name: '\uff5a Team', sortName: '\uff5a team' }],
        ['t3', { name: 'Beta', sortName: 'beta' }],
      ]),
    );
    expect(index.row(slot!, 3).teams).toEqual(['Beta', '\uff5a Team', '😀 Team']);
  });

  it('finds nobody for a search with a substring no one has, without reading anyone', () => {
    const index = new DirectoryIndex();
    index.load([person('p1', 'ann', 'ann@x.test'), person('p2', 'bob', 'bob@x.test')]);
    const read: number[] = [];
    const visit = (slot: number) => {
      read.push(slot);
      return false;
    };
    index.scan('xyz', {}, null, visit);
    index.scan('zy', {}, null, visit);
    index.scan('bob', { team: 't9' }, null, visit);
    expect(read).toEqual([]);
    expect(pageIds(index, { q: 'bob', cursor: null, count: 5 })).toEqual(['p2']);
  });
});
