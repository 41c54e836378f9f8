// The people directory's index in memory (decision 0046), alone: after any sequence of
// additions, changes and removals, every page is the one a plain filter and sort of the
// same people gives.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compareOrder,
  PeopleIndex,
  type DirectoryPerson,
  type IndexQuery,
} from './people-index.ts';

const TEAMS = ['t1', 't2', 't3'];

function person(id: string, name: string, email: string, bits: number): DirectoryPerson {
  return {
    id,
    name,
    email,
    role: bits & 1 ? 'admin' : 'member',
    status: (['active', 'disabled', 'invited'] as const)[(bits >> 1) % 3]!,
    lastSignInAt: bits & 8 ? 1_700_000_000_123 + bits : null,
    createdAt: 1_600_000_000_000 + bits,
    hasPassword: (bits & 16) !== 0,
    hasSso: (bits & 32) !== 0,
    secondFactor: (bits & 64) !== 0,
    teamIds: TEAMS.filter((_, i) => bits & (128 << i)),
    sortName: name.toLowerCase(),
    searchText: `${name.toLowerCase()}\n${email.toLowerCase()}`,
  };
}

/** The definition: filter everyone, sort, take the page. */
function plainPage(people: Map<string, DirectoryPerson>, query: IndexQuery): string[] {
  return [...people.values()]
    .filter(
      (p) =>
        (query.q === '' || p.searchText.includes(query.q)) &&
        (!query.role || p.role === query.role) &&
        (!query.status || p.status === query.status) &&
        (query.signIn !== 'password' || p.hasPassword) &&
        (query.signIn !== 'sso' || p.hasSso) &&
        (query.signIn !== 'never' || p.lastSignInAt === null) &&
        (!query.team || p.teamIds.includes(query.team)) &&
        (!query.cursor || compareOrder(p, query.cursor) > 0),
    )
    .sort((a, b) => compareOrder(a, { name: b.sortName, id: b.id }))
    .slice(0, query.count)
    .map((p) => p.id);
}

const word = fc.string({ unit: fc.constantFrom(...'abnqé _.'), minLength: 1, maxLength: 6 });
const anyPerson = fc.record({
  id: fc.constantFrom(...Array.from({ length: 12 }, (_, i) => `p${i}`)),
  name: word,
  email: word.map((w) => `${w}@x.test`),
  bits: fc.integer({ min: 0, max: 1023 }),
});
const step = fc.oneof(
  anyPerson.map((p) => ({ put: person(p.id, p.name, p.email, p.bits) })),
  fc.constantFrom(...Array.from({ length: 12 }, (_, i) => ({ remove: `p${i}` }))),
);
const query = fc.record({
  q: fc.constantFrom('', 'a', 'an', 'ban', 'é', 'q_', 'nn@', '.te', 'zzz'),
  role: fc.constantFrom(undefined, 'admin' as const, 'member' as const),
  status: fc.constantFrom(undefined, 'active' as const, 'invited' as const),
  team: fc.constantFrom(undefined, ...TEAMS, 'unknown'),
  signIn: fc.constantFrom(undefined, 'password' as const, 'sso' as const, 'never' as const),
  cursor: fc.option(fc.record({ name: word, id: fc.constantFrom('p0', 'p5', 'p9') }), {
    nil: null,
  }),
  count: fc.integer({ min: 1, max: 5 }),
});

describe('the people index', () => {
  it('gives every page a plain filter and sort gives, after loads, changes and removals', () => {
    fc.assert(
      fc.property(
        fc.array(anyPerson, { maxLength: 10 }),
        fc.array(step, { maxLength: 12 }),
        fc.array(query, { minLength: 1, maxLength: 6 }),
        (initial, steps, queries) => {
          const truth = new Map<string, DirectoryPerson>();
          for (const p of initial) truth.set(p.id, person(p.id, p.name, p.email, p.bits));
          const index = new PeopleIndex();
          index.load([...truth.values()]);
          for (const s of steps) {
            if ('put' in s) {
              truth.set(s.put.id, s.put);
              index.put(s.put);
            } else {
              truth.delete(s.remove);
              index.delete(s.remove);
            }
          }
          expect(index.size).toBe(truth.size);
          for (const q of queries) {
            const ids = index.page(q).map((slot) => index.row(slot, 5).id);
            expect(ids).toEqual(plainPage(truth, q));
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it('answers a row as the list does: ISO times, team names in name order, all counted', () => {
    const index = new PeopleIndex();
    index.setTeams(
      new Map([
        ['t1', { name: 'Zeta', sortName: 'zeta' }],
        ['t2', { name: 'alpha', sortName: 'alpha' }],
        ['t3', { name: 'Beta', sortName: 'beta' }],
      ]),
    );
    index.load([person('p1', 'Ann Lee', 'ann@x.test', 1 | 8 | 16 | 128 | 256 | 512)]);
    const [slot] = index.page({ q: 'ann', cursor: null, count: 5 });
    expect(index.row(slot!, 2)).toEqual({
      id: 'p1',
      name: 'Ann Lee',
      email: 'ann@x.test',
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
  });

  it('finds nobody for a search with a substring no one has, without reading anyone', () => {
    const index = new PeopleIndex();
    index.load([person('p1', 'Ann', 'ann@x.test', 0), person('p2', 'Bob', 'bob@x.test', 0)]);
    expect(index.page({ q: 'xyz', cursor: null, count: 5 })).toEqual([]);
    expect(index.page({ q: 'bob', cursor: null, count: 5 })).toHaveLength(1);
  });
});
