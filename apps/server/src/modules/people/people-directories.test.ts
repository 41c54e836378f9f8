// The people directory (decision 0046) against the database: its pages are the tuned
// statement's, before and after every kind of change the list shows, and a change is in
// the next call's answer even when its transaction began before one the directory has read.
import { PEOPLE_LIMITS } from '@signpost/contract';
import { sql } from 'drizzle-orm';
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
import {
  createPeopleDirectories,
  DIRECTORY_IDLE_MS,
  purgeOldChanges,
} from './people-directories.ts';
import { peopleListQuery, type PeopleFilter } from './people-list.query.ts';
import type { PersonListRow } from './people.repository.ts';
import { toRow } from './people.service.ts';

const { db, database } = await createTestApp();
const TEAM_NAMES = PEOPLE_LIMITS.teamNames;
// Two connections at once exist only on PostgreSQL (the embedded database has one): there the
// test is declared, elsewhere it is not, rather than skipped.
const itOnPostgres =
  database.kind === 'postgres' ? it : ((() => undefined) as unknown as typeof it);

const NAMES = ['Anna Smith', 'anna smith', 'Aaron Quinn', 'Zoë Quist', 'Ωmega Ray', '100% Sure'];
const NAMES_MORE = ['a_b', 'Raffaela', 'Rafael Sakura', 'Sakura Tan', 'Émile Zola', 'Li', 'Bo'];

let organizations = 0;

async function organization() {
  organizations += 1;
  const org = await createOrganization(db);
  const teams = [
    await createTeam(db, org.id, { name: 'Zeta' }),
    await createTeam(db, org.id, { name: 'alpha' }),
    await createTeam(db, org.id, { name: 'Beta' }),
  ];
  const people = [];
  for (const [i, name] of [...NAMES, ...NAMES_MORE].entries()) {
    const person = await createUser(db, org.id, {
      name,
      email: `${name.toLowerCase().replace(/\s+/g, '.')}.${organizations}-${i}@directory.test`,
      role: i % 5 === 0 ? 'admin' : 'member',
      status: i % 7 === 3 ? 'disabled' : i % 7 === 5 ? 'invited' : 'active',
      password: i % 4 === 1 ? null : undefined,
    });
    for (const team of teams.slice(0, i % 4)) await addTeamMember(db, team, person.id);
    people.push(person);
  }
  return { org, teams, people };
}

type Query = Omit<PeopleFilter, 'organizationId' | 'cursor' | 'limit'>;

/** The same page from the directory and from the statement, page after page. */
async function agree(
  directories: ReturnType<typeof createPeopleDirectories>,
  organizationId: string,
  query: Query,
  limit: number,
) {
  let cursor: { name: string; id: string } | null = null;
  for (let pages = 0; pages < 20; pages += 1) {
    const filter: PeopleFilter = { ...query, organizationId, cursor, limit };
    const want = (await selectRows<PersonListRow>(db, peopleListQuery(filter, TEAM_NAMES)))
      .slice(0, limit + 1)
      .map(toRow);
    let got = await directories.page(
      organizationId,
      { ...query, q: query.q?.trim() ?? '', cursor, count: limit + 1 },
      TEAM_NAMES,
    );
    for (let tries = 0; got === null && tries < 50; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      got = await directories.page(
        organizationId,
        { ...query, q: query.q?.trim() ?? '', cursor, count: limit + 1 },
        TEAM_NAMES,
      );
    }
    expect(got).not.toBeNull();
    expect(got!.map((g) => g.row)).toEqual(want);
    if (want.length <= limit) return;
    cursor = got![limit - 1]!.cursor;
  }
}

describe('the people directory', () => {
  it('gives the statement’s pages for random searches and filters', async () => {
    const { org, teams } = await organization();
    const directories = createPeopleDirectories({ db });
    const text = fc.string({
      unit: fc.constantFrom(...'anqursiemoz ._%\\@Ωë'),
      minLength: 1,
      maxLength: 4,
    });
    await fc.assert(
      fc.asyncProperty(
        fc.option(text, { nil: undefined }),
        fc.constantFrom(undefined, 'admin' as const, 'member' as const),
        fc.constantFrom(undefined, 'active' as const, 'disabled' as const, 'invited' as const),
        fc.constantFrom(undefined, ...teams.map((team) => team.id)),
        fc.constantFrom(undefined, 'password' as const, 'never' as const, 'sso' as const),
        fc.integer({ min: 1, max: 5 }),
        async (q, role, status, team, signIn, limit) => {
          await agree(directories, org.id, { q, role, status, team, signIn }, limit);
        },
      ),
      { numRuns: 40 },
    );
    expect(directories.sizeOf(org.id)).toBe(NAMES.length + NAMES_MORE.length);
  });

  it('shows every kind of change in the next call, as the statement does', async () => {
    const { org, teams, people } = await organization();
    const directories = createPeopleDirectories({ db });
    const everyone = async () => {
      for (const query of [{}, { q: 'an' }, { team: teams[1]!.id }, { signIn: 'sso' as const }]) {
        await agree(directories, org.id, query, 4);
      }
    };
    await everyone();
    const [a, b, c, d] = people;
    const changes = [
      sql`UPDATE users SET name = 'Yolanda Young' WHERE id = ${a!.id}`,
      sql`UPDATE users SET email = 'brand.new@directory.test' WHERE id = ${b!.id}`,
      sql`UPDATE users SET role = 'admin', status = 'disabled' WHERE id = ${c!.id}`,
      sql`UPDATE users SET last_sign_in_at = now(), password_hash = NULL WHERE id = ${d!.id}`,
      sql`INSERT INTO identities (id, user_id, provider_id, issuer, subject)
          VALUES ('idn-1', ${a!.id}, 'p', 'https://issuer.test', 's-1')`,
      sql`INSERT INTO second_factors (user_id, secret, enabled_at) VALUES (${b!.id}, 'x', now())`,
      sql`INSERT INTO team_memberships (team_id, user_id, organization_id)
          VALUES (${teams[1]!.id}, ${a!.id}, ${org.id}) ON CONFLICT DO NOTHING`,
      sql`DELETE FROM team_memberships WHERE user_id = ${c!.id}`,
      sql`UPDATE teams SET name = 'Aardvark' WHERE id = ${teams[0]!.id}`,
      sql`DELETE FROM teams WHERE id = ${teams[2]!.id}`,
      sql`DELETE FROM users WHERE id = ${d!.id}`,
    ];
    for (const change of changes) {
      await db.execute(change);
      await everyone();
    }
    const added = await createUser(db, org.id, { name: 'Anneli New' });
    await everyone();
    const found = await directories.page(
      org.id,
      { q: 'anneli', cursor: null, count: 5 },
      TEAM_NAMES,
    );
    expect(found?.map((f) => f.row.id)).toEqual([added.id]);
  });

  it('never shows another organization’s people, nor their changes', async () => {
    const mine = await organization();
    const theirs = await organization();
    const directories = createPeopleDirectories({ db });
    await agree(directories, mine.org.id, {}, 50);
    await db.execute(sql`UPDATE users SET name = 'Intruder' WHERE id = ${theirs.people[0]!.id}`);
    await agree(directories, mine.org.id, { q: 'intruder' }, 5);
    const found = await directories.page(
      mine.org.id,
      { q: '', cursor: null, count: 100 },
      TEAM_NAMES,
    );
    const theirIds = new Set(theirs.people.map((p) => p.id));
    expect(found!.filter((f) => theirIds.has(f.row.id))).toEqual([]);
  });

  itOnPostgres(
    'shows a change whose transaction began before one it already read, once it commits',
    async () => {
      const { org, people } = await organization();
      const directories = createPeopleDirectories({ db });
      await agree(directories, org.id, {}, 50);
      await database.withConnection(async (slow) => {
        // The slow transaction takes its id first, and commits last.
        await slow.exec('BEGIN');
        await slow.query(`UPDATE users SET name = 'Slow Change' WHERE id = $1`, [people[0]!.id]);
        await db.execute(sql`UPDATE users SET name = 'Fast Change' WHERE id = ${people[1]!.id}`);
        await agree(directories, org.id, { q: 'change' }, 5);
        await slow.exec('COMMIT');
      });
      await agree(directories, org.id, { q: 'change' }, 5);
      const found = await directories.page(
        org.id,
        { q: 'change', cursor: null, count: 5 },
        TEAM_NAMES,
      );
      expect(found?.map((f) => f.row.name)).toEqual(['Fast Change', 'Slow Change']);
    },
  );

  it('drops a directory nobody used for a while, and builds it again when needed', async () => {
    const { org } = await organization();
    const directories = createPeopleDirectories({ db });
    await agree(directories, org.id, {}, 50);
    directories.sweep(Date.now() + DIRECTORY_IDLE_MS / 2);
    expect(directories.sizeOf(org.id)).toBe(NAMES.length + NAMES_MORE.length);
    directories.sweep(Date.now() + DIRECTORY_IDLE_MS + 1000);
    expect(directories.sizeOf(org.id)).toBeNull();
    await agree(directories, org.id, { q: 'an' }, 3);
    expect(directories.sizeOf(org.id)).toBe(NAMES.length + NAMES_MORE.length);
  });

  it('deletes change notes only once they are old', async () => {
    const { org, people } = await organization();
    await db.execute(sql`UPDATE users SET name = 'Noted' WHERE id = ${people[0]!.id}`);
    await db.execute(
      sql`UPDATE people_changes SET changed_at = now() - interval '2 days'
          WHERE organization_id = ${org.id} AND user_id = ${people[1]!.id}`,
    );
    expect(await purgeOldChanges(db)).toBeGreaterThanOrEqual(1);
    const left = await selectRows<{ userId: string }>(
      db,
      sql`SELECT user_id AS "userId" FROM people_changes WHERE organization_id = ${org.id}`,
    );
    expect(left.some((r) => r.userId === people[0]!.id)).toBe(true);
    expect(left.some((r) => r.userId === people[1]!.id)).toBe(false);
  });
});
