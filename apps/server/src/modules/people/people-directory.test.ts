// What the console's people list answers from the people directory (decisions 0046 and
// 0072): the tuned statement's pages, before and after every kind of change the list shows.
import { PEOPLE_LIMITS } from '@signpost/contract';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { selectRows } from '../../db/client.ts';
import { newId } from '../../lib/ids.ts';
import { createTestServices } from '../../../test/app.ts';
import {
  addTeamMember,
  createOrganization,
  createTeam,
  createUser,
} from '../../../test/factories.ts';
import { createPeopleDirectory, type PeopleDirectory } from '../directory/directory.service.ts';
import { peopleListQuery, type PeopleFilter } from './people-list.query.ts';
import type { PersonListRow } from './people.repository.ts';
import { toRow } from './people.service.ts';

const { db, repositories } = await createTestServices();
const TEAM_NAMES = PEOPLE_LIMITS.teamNames;

const NAMES = ['Anna Smith', 'anna smith', 'Aaron Quinn', 'Zoë Quist', 'Ωmega Ray', '100% Sure'];
const NAMES_MORE = ['a_b', 'Raffaela', 'Rafael Sakura', 'Sakura Tan', 'Émile Zola', 'Li', 'Bo'];
// One from U+E000–U+FFFF and some outside the Basic Multilingual Plane, which code unit order
// would put before it, and letters whose lowering differs between JavaScript and the database.
const NAMES_WIDE = ['\uff5a Wide', '😀 Smile', '𝒜 Script', '𠀀 Ext', 'İlkay ΟΔΥΣΣΕΑΣ'];

let organizations = 0;

async function organization() {
  organizations += 1;
  const org = await createOrganization(db);
  const teams = [
    await createTeam(db, org.id, { name: 'Zeta' }),
    await createTeam(db, org.id, { name: '\uff5a alpha' }),
    await createTeam(db, org.id, { name: '😀 Beta' }),
  ];
  const people = [];
  for (const [i, name] of [...NAMES, ...NAMES_MORE, ...NAMES_WIDE].entries()) {
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
  directory: PeopleDirectory,
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
    let got = await directory.listPage(
      organizationId,
      { ...query, q: query.q?.trim() ?? '', cursor, count: limit + 1 },
      TEAM_NAMES,
    );
    for (let tries = 0; got === null && tries < 50; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      got = await directory.listPage(
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

describe('the console’s list from the people directory', () => {
  it('gives the statement’s pages for random searches and filters', async () => {
    const { org, teams } = await organization();
    const directory = createPeopleDirectory({ db, directory: repositories.directory });
    const text = fc.string({
      unit: fc.constantFrom(...'anqursiemoz ._%\\@Ωë', '😀', '\uff5a', 'İ'),
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
          await agree(directory, org.id, { q, role, status, team, signIn }, limit);
        },
      ),
      { numRuns: 40 },
    );
    expect(directory.sizeOf(org.id)).toBe(NAMES.length + NAMES_MORE.length + NAMES_WIDE.length);
  });

  it('shows every kind of change in the next call, as the statement does', async () => {
    const { org, teams, people } = await organization();
    const directory = createPeopleDirectory({ db, directory: repositories.directory });
    const everyone = async () => {
      for (const query of [{}, { q: 'an' }, { team: teams[1]!.id }, { signIn: 'sso' as const }]) {
        await agree(directory, org.id, query, 4);
      }
    };
    await everyone();
    const [a, b, c, d] = people;
    const created = newId();
    const changes = [
      // A team made after the directory was built, and someone put in it: named in the list.
      sql`INSERT INTO teams (id, organization_id, name) VALUES (${created}, ${org.id}, 'Newcomers')`,
      sql`INSERT INTO team_memberships (team_id, user_id, organization_id)
          VALUES (${created}, ${b!.id}, ${org.id})`,
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
    const found = await directory.listPage(
      org.id,
      { q: 'anneli', cursor: null, count: 5 },
      TEAM_NAMES,
    );
    expect(found?.map((f) => f.row.id)).toEqual([added.id]);
  });

  it('names a team made after the directory was built, on its members’ rows', async () => {
    const { org, people } = await organization();
    const directory = createPeopleDirectory({ db, directory: repositories.directory });
    await agree(directory, org.id, {}, 50);
    // A new team, made and filled in two transactions, as the console does.
    const made = await createTeam(db, org.id, { name: 'Aardwolf' });
    await addTeamMember(db, made, people[0]!.id);
    await agree(directory, org.id, {}, 50);
    const found = await directory.listPage(
      org.id,
      { q: people[0]!.name, cursor: null, count: 50 },
      TEAM_NAMES,
    );
    expect(found?.find((f) => f.row.id === people[0]!.id)?.row.teams).toContain('Aardwolf');
  });

  it('never shows another organization’s people, nor their changes', async () => {
    const mine = await organization();
    const theirs = await organization();
    const directory = createPeopleDirectory({ db, directory: repositories.directory });
    await agree(directory, mine.org.id, {}, 50);
    await db.execute(sql`UPDATE users SET name = 'Intruder' WHERE id = ${theirs.people[0]!.id}`);
    await agree(directory, mine.org.id, { q: 'intruder' }, 5);
    const found = await directory.listPage(
      mine.org.id,
      { q: '', cursor: null, count: 100 },
      TEAM_NAMES,
    );
    const theirIds = new Set(theirs.people.map((p) => p.id));
    expect(found!.filter((f) => theirIds.has(f.row.id))).toEqual([]);
  });
});
