// The people directory (decision 0072) against the database: one directory per organization
// for both searches, what each search costs in statements, how it learns of changes (made
// by any server: here, straight in the database), and when it is dropped.
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { selectRows } from '../../db/client.ts';
import { users } from '../../db/schema/index.ts';
import { createTestApp } from '../../../test/app.ts';
import { createOrganization, createUser } from '../../../test/factories.ts';
import { peerOrganization } from '../../../test/support/peer-search.ts';
import {
  createPeopleDirectory,
  DIRECTORY_IDLE_MS,
  type PeopleDirectory,
  type Searcher,
} from './directory.service.ts';

const { db, database, repositories } = await createTestApp();
// Two connections at once exist only on PostgreSQL (the embedded database has one): there the
// tests are declared, elsewhere they are not, rather than skipped.
const itOnPostgres =
  database.kind === 'postgres' ? it : ((() => undefined) as unknown as typeof it);

// Every ninth from the fifth on is disabled (`peerOrganization`).
const NAMES = ['Anna Smith', 'Quinn Abe', 'quincy Adams', 'Zoë Quist', 'Ωmega Ray', 'Bo', 'Li'];
const EVERYONE = NAMES.length + 1;

const organization = () => peerOrganization(db, NAMES, 3);

async function versionOf(organizationId: string): Promise<number> {
  const [row] = await selectRows<{ v: string }>(
    db,
    sql`SELECT coalesce(max(version), 0) AS v FROM menu_scopes WHERE scope = ${`pe:${organizationId}`}`,
  );
  return Number(row!.v);
}

/** The searcher as the session lookup would find them now. */
async function searcher(who: { organizationId: string; userId: string }): Promise<Searcher> {
  return { ...who, peopleVersion: await versionOf(who.organizationId) };
}

/** A directory built for the organization by a first peer search, ready to answer. */
async function readyDirectory(who: { organizationId: string; userId: string }) {
  const directory = createPeopleDirectory({ db, directory: repositories.directory });
  await directory.searchPeers(await searcher(who), '', 0, 1);
  await directory.ready(who.organizationId);
  expect(directory.sizeOf(who.organizationId)).toBe(EVERYONE);
  return directory;
}

/** The person of that name in the organization. */
async function named(organizationId: string, name: string) {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.organizationId, organizationId), eq(users.name, name)));
  if (!row) throw new Error(`no ${name}`);
  return row;
}

/** The names on the first page of the console's list for `q`, once the directory answers. */
async function listed(directory: PeopleDirectory, organizationId: string, q: string) {
  for (let tries = 0; tries < 100; tries += 1) {
    const found = await directory.listPage(organizationId, { q, cursor: null, count: 50 }, 3);
    if (found) return found.map((f) => f.row.name);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the directory never answered');
}

const statements = async (work: () => Promise<unknown>) => {
  const before = database.statements.count;
  await work();
  return database.statements.count - before;
};

describe('the people directory', () => {
  it('is one per organization, for the peer search and the console’s list alike', async () => {
    const who = await organization();
    const directory = await readyDirectory(who);
    // The list reads the directory the peer search built, and builds none: one statement,
    // which lowers its query and asks whether anything changed, and one more when the
    // horizon was still held back (a transaction of another database of the same server).
    expect(await statements(() => listed(directory, who.organizationId, 'qu'))).toBeLessThanOrEqual(
      2,
    );
    expect(await listed(directory, who.organizationId, 'qu')).toEqual([
      'quincy Adams',
      'Quinn Abe',
      'Zoë Quist',
    ]);
    // Disabled people are in it for the list, never found by the peer search.
    const disabled = await named(who.organizationId, 'Ωmega Ray');
    expect(disabled.status).toBe('disabled');
    expect(await listed(directory, who.organizationId, 'ωmega')).toEqual(['Ωmega Ray']);
    expect(await directory.searchPeers(await searcher(who), 'Ωmega', 0, 20)).toEqual([]);
  });

  it('shows a change one search read to the other, with no statement of its own', async () => {
    const who = await organization();
    const directory = await readyDirectory(who);
    const bo = await named(who.organizationId, 'Bo');
    await db.update(users).set({ name: 'Boris' }).where(eq(users.id, bo.id));
    // The list notices the change and reads it; the peer search, whose session saw the
    // version the change raised, finds the directory up to date already.
    expect(await listed(directory, who.organizationId, 'bori')).toEqual(['Boris']);
    const me = await searcher(who);
    let found: unknown;
    expect(
      await statements(async () => (found = await directory.searchPeers(me, 'bori', 0, 20))),
    ).toBe(0);
    expect(found).toEqual([{ id: bo.id, name: 'Boris', email: bo.email }]);
    // And the other way round: the peer search reads the change, the list shows it.
    await db.update(users).set({ name: 'Bori Two' }).where(eq(users.id, bo.id));
    expect(await directory.searchPeers(await searcher(who), 'two', 0, 20)).toHaveLength(1);
    expect(await listed(directory, who.organizationId, 'two')).toEqual(['Bori Two']);
  });

  it('costs the peer search nothing while the people version stays, and one statement when it moved', async () => {
    const who = await organization();
    const directory = await readyDirectory(who);
    const me = await searcher(who);
    expect(await statements(() => directory.searchPeers(me, 'Anna', 0, 20))).toBe(0);
    expect(await statements(() => directory.searchPeers(me, '', 4, 20))).toBe(0);
    // An older version (a session read before the last change) is answered from memory too.
    expect(
      await statements(() => directory.searchPeers({ ...me, peopleVersion: 0 }, 'q', 0, 5)),
    ).toBe(0);
    // A query outside ASCII is lowered by the database, as the statement lowers it.
    expect(await statements(() => directory.searchPeers(me, 'Zoë', 0, 20))).toBe(1);
    // A person's role changed (their version moves, peer search shows no role): one
    // statement reads the change.
    await db.execute(
      sql`UPDATE users SET role = 'admin' WHERE organization_id = ${who.organizationId}
          AND id = (SELECT id FROM users WHERE organization_id = ${who.organizationId} ORDER BY id LIMIT 1)`,
    );
    const moved = await searcher(who);
    expect(await statements(() => directory.searchPeers(moved, 'Anna', 0, 20))).toBe(1);
    expect(await statements(() => directory.searchPeers(moved, 'Anna', 0, 20))).toBe(0);
  });

  it('answers a session that saw a later change than a refresh under way', async () => {
    const who = await organization();
    const directory = await readyDirectory(who);
    const quincy = await named(who.organizationId, 'quincy Adams');
    await db.update(users).set({ name: 'Quincy First' }).where(eq(users.id, quincy.id));
    // A refresh starts for the first change; the second one commits meanwhile, and a
    // session that saw it searches while the first refresh may still be running.
    const first = directory.searchPeers(await searcher(who), 'quincy', 0, 20);
    await db.update(users).set({ name: 'Quincy Second' }).where(eq(users.id, quincy.id));
    const second = directory.searchPeers(await searcher(who), 'quincy', 0, 20);
    const names = async (rows: Promise<{ name: string }[] | null>) =>
      (await rows)?.map((r) => r.name);
    expect(['Quincy First', 'Quincy Second']).toContainEqual((await names(first))?.[0]);
    expect(await names(second)).toEqual(['Quincy Second']);
  });

  itOnPostgres(
    'shows a change whose transaction began before one it already read, once it commits',
    async () => {
      const who = await organization();
      const directory = await readyDirectory(who);
      const [first, second] = [
        await named(who.organizationId, 'Bo'),
        await named(who.organizationId, 'Li'),
      ];
      await database.withConnection(async (slow) => {
        // The slow transaction takes its id first, and commits last.
        await slow.exec('BEGIN');
        await slow.query(`UPDATE users SET name = 'Slow Change' WHERE id = $1`, [first.id]);
        await db.execute(sql`UPDATE users SET name = 'Fast Change' WHERE id = ${second.id}`);
        expect(await listed(directory, who.organizationId, 'change')).toEqual(['Fast Change']);
        await slow.exec('COMMIT');
      });
      expect(await listed(directory, who.organizationId, 'change')).toEqual([
        'Fast Change',
        'Slow Change',
      ]);
      const found = await directory.searchPeers(await searcher(who), 'change', 0, 20);
      expect(found?.map((p) => p.name)).toEqual(['Fast Change', 'Slow Change']);
    },
  );

  itOnPostgres(
    'leaves the searches to their statements while a build takes longer than the wait',
    async () => {
      const who = await organization();
      const directory = createPeopleDirectory({ db, directory: repositories.directory });
      const me = await searcher(who);
      await database.withConnection(async (locker) => {
        // The build's first read waits for the lock; the searches do not wait for the build.
        await locker.exec('BEGIN');
        await locker.exec('LOCK TABLE teams IN ACCESS EXCLUSIVE MODE');
        expect(await directory.searchPeers(me, 'qu', 0, 20)).toBeNull();
        expect(
          await directory.listPage(who.organizationId, { q: '', cursor: null, count: 5 }, 3),
        ).toBeNull();
        expect(directory.sizeOf(who.organizationId)).toBeNull();
        await locker.exec('COMMIT');
      });
      await directory.ready(who.organizationId);
      expect(directory.sizeOf(who.organizationId)).toBe(EVERYONE);
      expect(await directory.searchPeers(me, 'qu', 0, 20)).toHaveLength(3);
    },
  );

  it('is dropped when nobody searched for ten minutes', async () => {
    const who = await organization();
    const directory = await readyDirectory(who);
    directory.sweep(Date.now() + 5 * 60_000);
    expect(directory.sizeOf(who.organizationId)).toBe(EVERYONE);
    directory.sweep(Date.now() + 11 * 60_000);
    expect(directory.sizeOf(who.organizationId)).toBeNull();
  });

  it('drops a directory nobody used for a while, and builds it again when needed', async () => {
    const who = await organization();
    const directory = createPeopleDirectory({ db, directory: repositories.directory });
    expect(await listed(directory, who.organizationId, 'li')).toEqual(['Li']);
    directory.sweep(Date.now() + DIRECTORY_IDLE_MS / 2);
    expect(directory.sizeOf(who.organizationId)).toBe(EVERYONE);
    // A call of the list counts as use, as a search does.
    directory.sweep(Date.now() + DIRECTORY_IDLE_MS - 1000);
    expect(directory.sizeOf(who.organizationId)).toBe(EVERYONE);
    directory.sweep(Date.now() + DIRECTORY_IDLE_MS + 1000);
    expect(directory.sizeOf(who.organizationId)).toBeNull();
    expect(await listed(directory, who.organizationId, 'an')).toEqual(['Anna Me', 'Anna Smith']);
    expect(directory.sizeOf(who.organizationId)).toBe(EVERYONE);
  });

  it('deletes change notes only once they are old', async () => {
    const org = await createOrganization(db);
    const people = [await createUser(db, org.id), await createUser(db, org.id)];
    await db.execute(sql`UPDATE users SET name = 'Noted' WHERE id = ${people[0]!.id}`);
    await db.execute(
      sql`UPDATE people_changes SET changed_at = now() - interval '2 days'
          WHERE organization_id = ${org.id} AND user_id = ${people[1]!.id}`,
    );
    expect(await repositories.directory.purgeOldChanges(db)).toBeGreaterThanOrEqual(1);
    const left = await selectRows<{ userId: string }>(
      db,
      sql`SELECT user_id AS "userId" FROM people_changes WHERE organization_id = ${org.id}`,
    );
    expect(left.some((r) => r.userId === people[0]!.id)).toBe(true);
    expect(left.some((r) => r.userId === people[1]!.id)).toBe(false);
  });
});
