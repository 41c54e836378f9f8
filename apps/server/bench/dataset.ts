import type { DatabaseHandle, RawConnection } from '../src/db/client.ts';
import { hashPassword } from '../src/lib/passwords.ts';
import { Builder, type Owner } from './builder.ts';
import { Prng } from './prng.ts';
import { FIRST_NAMES, LAST_NAMES, TOPICS } from './words.ts';

export const BENCH_ORGANIZATION = 'Signpost Benchmark Org';
export const BENCH_EMAIL = 'bench@example.com';
export const BENCH_PASSWORD = 'signpost-bench';
/** Everyone else's e-mail ends with this, so that nothing collides with other data. */
const PEOPLE_DOMAIN = 'bench.example';

export type SizeName = 'reference' | 'typical';

/** The shape of a data set (docs/performance.md); "typical" is the reference at a tenth of the links. */
export interface Profile {
  people: number;
  teams: number;
  /** Teams the measured user is in. */
  userTeams: number;
  orgCollections: number;
  orgLinks: number;
  teamCollections: number;
  /** Links of every team space, the user's and the others'. */
  teamLinks: number;
  personalCollections: number;
  personalLinks: number;
  favorites: number;
  /** Shares the user owns and shares others own with the user as a member. */
  sharesOwned: number;
  sharesJoined: number;
  membersPerShare: number;
  linksPerShare: number;
}

export const PROFILES: Record<SizeName, Profile> = {
  reference: {
    people: 100_000,
    teams: 100,
    userTeams: 3,
    orgCollections: 10,
    orgLinks: 500,
    teamCollections: 6,
    teamLinks: 300,
    personalCollections: 10,
    personalLinks: 200,
    favorites: 20,
    sharesOwned: 10,
    sharesJoined: 10,
    membersPerShare: 5,
    linksPerShare: 20,
  },
  typical: {
    people: 100_000,
    teams: 100,
    userTeams: 3,
    orgCollections: 10,
    orgLinks: 50,
    teamCollections: 6,
    teamLinks: 30,
    personalCollections: 10,
    personalLinks: 20,
    favorites: 20,
    sharesOwned: 10,
    sharesJoined: 10,
    membersPerShare: 5,
    linksPerShare: 2,
  },
};

/** Links in the measured user's menu, favorites not counted. */
export function menuLinks(p: Profile): number {
  return (
    p.orgLinks +
    p.userTeams * p.teamLinks +
    p.personalLinks +
    (p.sharesOwned + p.sharesJoined) * p.linksPerShare
  );
}

export interface BenchData {
  organizationId: string;
  userId: string;
  rootId: string;
  email: string;
  password: string;
  people: number;
  menuLinks: number;
  rows: Record<string, number>;
}

/** Every row of the data set, built in memory (deterministic: same seed, same rows). */
async function build(p: Profile, seed: number) {
  const rng = new Prng(seed);
  const organizationId = rng.id();
  const b = new Builder(organizationId, seed + 1);
  b.t.organizations.add(organizationId, BENCH_ORGANIZATION);

  // One hash for every generated person: argon2id costs tens of milliseconds a call, and
  // these accounts exist only to be measured.
  const hash = await hashPassword(BENCH_PASSWORD, {
    memoryCost: 19456,
    timeCost: 2,
    parallelism: 1,
  });
  const userIds: string[] = [];
  const rootIds: string[] = [];
  for (let i = 0; i < p.people; i += 1) {
    const id = rng.id();
    const first = rng.pick(FIRST_NAMES);
    const last = rng.pick(LAST_NAMES);
    const name = i === 0 ? 'Bench User' : `${first} ${last}`;
    const email = i === 0 ? BENCH_EMAIL : `${first}.${last}.${i}@${PEOPLE_DOMAIN}`.toLowerCase();
    b.t.users.add(id, organizationId, name, email, hash, i % 1000 === 1 ? 'admin' : 'member');
    const rootId = rng.id();
    b.t.collections.add(
      rootId,
      organizationId,
      'user',
      id,
      null,
      null,
      true,
      'My Space',
      '',
      0,
      id,
    );
    userIds.push(id);
    rootIds.push(rootId);
  }
  const person = (i: number) => userIds[i % p.people] ?? '';
  const rootOf = (i: number) => rootIds[i % p.people] ?? '';
  const userId = person(0);
  const rootId = rootOf(0);

  // Teams: everyone in one team, a third of them in a second; the user in the first few.
  const teamIds: string[] = [];
  for (let t = 0; t < p.teams; t += 1) {
    const id = b.rng.id();
    teamIds.push(id);
    const buddy = person(t === 0 ? p.teams : t);
    b.t.teams.add(id, organizationId, `${b.rng.pick(TOPICS)} team ${t + 1}`, buddy);
  }
  for (let i = 1; i < p.people; i += 1) {
    const first = i % p.teams;
    b.t.team_memberships.add(
      teamIds[first] ?? null,
      person(i),
      organizationId,
      i === (first === 0 ? p.teams : first) ? 'editor' : 'member',
    );
    if (i % 3 === 0) {
      const second = (first + 1 + (i % 7)) % p.teams;
      b.t.team_memberships.add(teamIds[second] ?? null, person(i), organizationId, 'member');
    }
  }
  for (let t = 0; t < p.userTeams; t += 1) {
    b.t.team_memberships.add(teamIds[t] ?? null, userId, organizationId, 'member');
  }

  // Organization space and every team space.
  const org = b.tree({ type: 'organization' }, null, p.orgCollections, 2, p.orgLinks, null, 'Org');
  const teamLinks: string[] = [];
  teamIds.forEach((teamId, t) => {
    const tree = b.tree(
      { type: 'team', teamId },
      null,
      p.teamCollections,
      1,
      p.teamLinks,
      person(t + 1),
      'Team',
    );
    if (t < p.userTeams) teamLinks.push(...tree.links);
  });

  // The user's personal space: collections (some nested), shares, favorites.
  const me: Owner = { type: 'user', userId };
  const mine = b.tree(me, rootId, p.personalCollections, 3, p.personalLinks, userId, 'My');
  const memberOf = (k: number, count: number) =>
    Array.from({ length: count }, (_, j) => person(1 + ((k * 997 + j * 131) % (p.people - 1))));
  for (let k = 0; k < p.sharesOwned; k += 1) {
    const id = b.collection(me, rootId, `Shared ${b.rng.pick(TOPICS)}`, userId);
    for (let l = 0; l < p.linksPerShare; l += 1) b.link(id, userId);
    b.share(id, userId, memberOf(k, p.membersPerShare - 1));
  }
  for (let k = 0; k < p.sharesJoined; k += 1) {
    const ownerIndex = 500 + k * 1_003;
    const owner = person(ownerIndex);
    const id = b.collection(
      { type: 'user', userId: owner },
      rootOf(ownerIndex),
      `Team-up ${k + 1}`,
      owner,
    );
    // Mostly the owner's links, every fifth one added by the user.
    for (let l = 0; l < p.linksPerShare; l += 1) b.link(id, l % 5 === 4 ? userId : owner);
    const others = memberOf(k + 100, p.membersPerShare - 2).filter((m) => m !== owner);
    b.share(id, owner, [userId, ...others]);
  }
  const pool = [...org.links.slice(0, 50), ...teamLinks.slice(0, 50)];
  for (let f = 0; f < p.favorites; f += 1) {
    const link = pool[(f * 7) % pool.length];
    if (link) b.favorite(userId, link, f % 2 === 0 ? rootId : (mine.collections[0] ?? rootId));
  }

  // Everyone else: one in ten keeps a collection of five links; one in fifty shares it.
  for (let i = 10; i < p.people; i += 10) {
    const owner = person(i);
    const id = b.collection({ type: 'user', userId: owner }, rootOf(i), 'Bookmarks', owner);
    for (let l = 0; l < 5; l += 1) b.link(id, owner);
    if (i % 50 === 0)
      b.share(
        id,
        owner,
        memberOf(i, 4).filter((m) => m !== owner && m !== userId),
      );
  }

  return { b, organizationId, userId, rootId };
}

/** Organizations this generator made (by name or by the measured user's e-mail). */
export async function benchOrganizations(conn: RawConnection): Promise<string[]> {
  const rows = await conn.query<{ id: string }>(
    `SELECT id FROM organizations WHERE name = $1
     UNION SELECT organization_id FROM users WHERE lower(email) = $2`,
    [BENCH_ORGANIZATION, BENCH_EMAIL],
  );
  return rows.map((r) => r.id);
}

/** Every table with data, children first. */
const DATA_TABLES = [
  'favorites',
  'share_members',
  'collection_shares',
  'link_suggestions',
  'links',
  'collections',
  'team_memberships',
  'teams',
  'sessions',
  'login_throttle',
  'users',
  'organizations',
];

/**
 * Empties a database that holds nothing but benchmark organizations. Deleting 100,000
 * people row by row would check every unindexed `created_by` reference for each of them
 * (hours); TRUNCATE takes a moment. Refuses when any other organization is there.
 */
export async function dropBenchData(conn: RawConnection): Promise<string[]> {
  const ours = await benchOrganizations(conn);
  const [{ n } = { n: 0 }] = await conn.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM organizations',
  );
  if (n > ours.length) {
    throw new Error(
      `the database holds ${n - ours.length} organization(s) this generator did not make; ` +
        '--force only replaces a previous benchmark data set, so use an empty database',
    );
  }
  await conn.exec(`TRUNCATE ${DATA_TABLES.join(', ')}`);
  return ours;
}

export interface GenerateOptions {
  size: SizeName;
  /** Overrides the profile's number of people (smoke runs). */
  people?: number;
  seed?: number;
  log?: (line: string) => void;
}

/** Indexes of a table that no constraint depends on, with the statements that make them. */
async function secondaryIndexes(conn: RawConnection, table: string) {
  return conn.query<{ name: string; definition: string }>(
    `SELECT i.relname AS name, pg_get_indexdef(x.indexrelid) AS definition
     FROM pg_index x
     JOIN pg_class i ON i.oid = x.indexrelid
     JOIN pg_class t ON t.oid = x.indrelid
     WHERE t.relname = $1 AND t.relnamespace = 'public'::regnamespace
       AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)`,
    [table],
  );
}

/** Writes a data set into a migrated database, in one transaction. */
export async function generate(
  handle: DatabaseHandle,
  options: GenerateOptions,
): Promise<BenchData> {
  const log = options.log ?? (() => {});
  const profile = {
    ...PROFILES[options.size],
    ...(options.people ? { people: options.people } : {}),
  };
  if (profile.people < 1_100) throw new Error('a data set needs at least 1,100 people');
  let started = performance.now();
  const lap = (what: string) => {
    const now = performance.now();
    log(`  ${what}: ${((now - started) / 1000).toFixed(1)} s`);
    started = now;
  };
  const { b, organizationId, userId, rootId } = await build(profile, options.seed ?? 20_260_101);
  lap('built rows in memory');
  const rows: Record<string, number> = {};
  await handle.withConnection(async (conn) => {
    await conn.exec('BEGIN');
    try {
      // The menu version's deferred trigger (one event per organization) then runs at the
      // end of its statement, not at commit: CREATE INDEX refuses a table with pending events.
      await conn.exec('SET CONSTRAINTS ALL IMMEDIATE');
      for (const table of Object.values(b.t)) {
        // Secondary indexes are built once after the rows rather than row by row: much
        // faster for the GIN indexes on users, on PGlite above all.
        const indexes = table.rows > 10_000 ? await secondaryIndexes(conn, table.table) : [];
        for (const index of indexes) await conn.exec(`DROP INDEX "${index.name}"`);
        await table.write(conn);
        for (const index of indexes) await conn.exec(index.definition);
        rows[table.table] = table.rows;
        lap(`${table.table} (${table.rows.toLocaleString('en-US')} rows)`);
      }
      await conn.exec('COMMIT');
    } catch (error) {
      await conn.exec('ROLLBACK');
      throw error;
    }
    // VACUUM as well: it marks the pages all-visible, as autovacuum soon does after a large
    // load, so that index-only scans (the peer search's) see the table in its steady state.
    await conn.exec('VACUUM (ANALYZE)');
    lap('vacuum and analyze');
  });
  return {
    organizationId,
    userId,
    rootId,
    email: BENCH_EMAIL,
    password: BENCH_PASSWORD,
    people: profile.people,
    menuLinks: menuLinks(profile),
    rows,
  };
}
