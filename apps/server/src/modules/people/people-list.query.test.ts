// The console's people list is one tuned statement (decision 0042): a window read in name
// order, else an index, then the page's rows. Whatever way it takes, it must give the rows a
// plain statement gives.
import { sql, type SQL } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { selectRows } from '../../db/client.ts';
import { createTestApp } from '../../../test/app.ts';
import {
  addTeamMember,
  createOrganization,
  createTeam,
  createUser,
} from '../../../test/factories.ts';
import { peopleListQuery, type PeopleFilter } from './people-list.query.ts';

const { db } = await createTestApp();

const TEAM_NAMES = 3;

/** The definition of the list, written plainly: no window, no index tricks, one row each. */
function plainList(filter: PeopleFilter): SQL {
  const conditions: SQL[] = [sql`u.organization_id = ${filter.organizationId}`];
  if (filter.role) conditions.push(sql`u.role = ${filter.role}`);
  if (filter.status) conditions.push(sql`u.status = ${filter.status}`);
  if (filter.signIn === 'password') conditions.push(sql`u.password_hash IS NOT NULL`);
  if (filter.signIn === 'never') conditions.push(sql`u.last_sign_in_at IS NULL`);
  if (filter.team) {
    conditions.push(
      sql`u.id IN (SELECT user_id FROM team_memberships WHERE team_id = ${filter.team})`,
    );
  }
  if (filter.cursor) {
    conditions.push(
      sql`(lower(u.name), u.id) > (${filter.cursor.name}::text, ${filter.cursor.id}::text)`,
    );
  }
  const query = filter.q?.trim() ?? '';
  if (query !== '') {
    // Substring containment without LIKE, so that an escaping bug cannot cancel out.
    const needle = sql`lower(${query}::text)`;
    conditions.push(
      sql`(strpos(lower(u.name), ${needle}) > 0 OR strpos(lower(u.email), ${needle}) > 0)`,
    );
  }
  return sql`
    SELECT u.id, u.name, u.email, u.role, u.status,
           (SELECT count(*)::int FROM team_memberships tm WHERE tm.user_id = u.id) AS "teamCount",
           ARRAY(SELECT t.name FROM team_memberships tm JOIN teams t ON t.id = tm.team_id
                 WHERE tm.user_id = u.id ORDER BY lower(t.name), t.id LIMIT ${TEAM_NAMES}) AS teams
    FROM users u WHERE ${sql.join(conditions, sql` AND `)}
    ORDER BY lower(u.name), u.id LIMIT ${filter.limit + 1}`;
}

interface Row {
  id: string;
  name: string;
  email: string;
  role: string;
  status: string;
  teamCount: number;
  teams: string[];
}

const NAMES = [
  'Anna Smith',
  'anna smith',
  'ANNA SMITH',
  'Aaron Quinn',
  'Quinn Abe',
  'Zoë Quist',
  'Zoe Quist',
  'Ωmega Ray',
  '100% Sure',
  'a_b',
  'axb',
  'c\\d',
  'Raffaela',
  'Rafael Sakura',
  'Sakura Tan',
  'Pablo Tan',
  '😀 Smile',
  'Émile Zola',
  'Li',
  'Bo',
];

const org = await createOrganization(db);
const teams = [
  await createTeam(db, org.id, { name: 'Zeta' }),
  await createTeam(db, org.id, { name: 'alpha' }),
  await createTeam(db, org.id, { name: 'Beta' }),
  await createTeam(db, org.id, { name: 'gamma' }),
];
for (const [i, name] of NAMES.entries()) {
  const person = await createUser(db, org.id, {
    name,
    email: `${name.toLowerCase().replace(/\s+/g, '.')}.${i}@people-list.test`,
    role: i % 5 === 0 ? 'admin' : 'member',
    status: i % 7 === 3 ? 'disabled' : i % 7 === 5 ? 'invited' : 'active',
    password: i % 4 === 1 ? null : undefined,
  });
  // Some in no team, some in one, some in all four (more than the names shown).
  for (const team of teams.slice(0, i % 5)) await addTeamMember(db, team, person.id);
}
// Another organization's people of the same names never show.
const other = await createOrganization(db);
for (const name of NAMES.slice(0, 8)) await createUser(db, other.id, { name });

const base = { organizationId: org.id, cursor: null, limit: 4 };

async function agree(filter: PeopleFilter, window: number) {
  const want = await selectRows<Row>(db, plainList(filter));
  const got = (await selectRows<Row>(db, peopleListQuery(filter, TEAM_NAMES, window))).map(
    ({ id, name, email, role, status, teamCount, teams }) => ({
      id,
      name,
      email,
      role,
      status,
      teamCount,
      teams,
    }),
  );
  expect({ filter, got }).toEqual({ filter, got: want });
  return want;
}

describe('people list statement', () => {
  const filters: PeopleFilter[] = [
    base,
    { ...base, limit: 50 },
    { ...base, q: 'ann' },
    { ...base, q: 'an' },
    { ...base, q: 'a' },
    { ...base, q: '_' },
    { ...base, q: '%' },
    { ...base, q: '\\' },
    { ...base, q: 'ë' },
    { ...base, q: '😀' },
    { ...base, q: 'people-list' },
    { ...base, q: 'nomatch' },
    { ...base, role: 'admin' },
    { ...base, status: 'disabled' },
    { ...base, status: 'invited', q: 'a' },
    { ...base, signIn: 'password' },
    { ...base, signIn: 'never', q: 'sa' },
    { ...base, team: teams[0]!.id },
    { ...base, team: teams[2]!.id, q: 'a' },
    { ...base, cursor: { name: 'm', id: '' } },
    { ...base, cursor: { name: 'anna smith', id: '' }, q: 'smith' },
  ];

  it.each([0, 1, 3, 10_000])(
    'gives the rows of the plain statement for every filter (window %i)',
    async (window) => {
      for (const filter of filters) await agree(filter, window);
    },
  );

  it('names at most a few teams of each person, in name order, and counts them all', async () => {
    const rows = await agree({ ...base, limit: 50 }, 1000);
    const inAll = rows.find((row) => row.teamCount === 4);
    expect(inAll?.teams).toEqual(['alpha', 'Beta', 'gamma']);
    expect(rows.filter((row) => row.teamCount === 0).every((row) => row.teams.length === 0)).toBe(
      true,
    );
  });

  it('finds a person by their new name and e-mail once they change', async () => {
    const person = await createUser(db, org.id, {
      name: 'Before Rename',
      email: 'old@rename.test',
    });
    await db.execute(
      sql`UPDATE users SET name = 'Quixote Renamed', email = 'New@Rename.test' WHERE id = ${person.id}`,
    );
    for (const window of [0, 10_000]) {
      for (const q of ['quixote', 'new@rename']) {
        const rows = await agree({ ...base, q }, window);
        expect(rows.map((row) => row.id)).toEqual([person.id]);
      }
      expect(await agree({ ...base, q: 'before rename' }, window)).toEqual([]);
    }
    await db.execute(sql`DELETE FROM users WHERE id = ${person.id}`);
  });

  it('agrees with the plain statement on random searches, filters and windows', async () => {
    const text = fc.string({
      unit: fc.constantFrom(...'anqursiemoz ._%\\@Ωë'),
      minLength: 1,
      maxLength: 3,
    });
    await fc.assert(
      fc.asyncProperty(
        fc.option(text, { nil: undefined }),
        fc.constantFrom(undefined, 'admin', 'member'),
        fc.constantFrom(undefined, 'active', 'disabled'),
        fc.constantFrom(undefined, ...teams.map((team) => team.id)),
        fc.integer({ min: 1, max: 6 }),
        fc.constantFrom(0, 2, 50),
        async (q, role, status, team, limit, window) => {
          await agree(
            {
              ...base,
              limit,
              ...(q === undefined ? {} : { q }),
              ...(role ? { role: role as 'admin' | 'member' } : {}),
              ...(status ? { status: status as 'active' | 'disabled' } : {}),
              ...(team ? { team } : {}),
            },
            window,
          );
        },
      ),
      { numRuns: 80 },
    );
  });
});
