import { and, eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { selectRows } from '../../db/client.ts';
import { users } from '../../db/schema/index.ts';
import { createTestApp } from '../../../test/app.ts';
import { createUser } from '../../../test/factories.ts';
import { peerOrganization, plainSearch } from '../../../test/support/peer-search.ts';
import { createPeerDirectories, type Searcher } from './peer-directories.ts';
import { createPeersRepository, ordersByCodePoint, type PeerRow } from './peers.repository.ts';

const { db, database } = await createTestApp();

// Names that tie once lowered, that hold LIKE's special characters, letters outside ASCII,
// one from U+E000–U+FFFF and characters outside the Basic Multilingual Plane (which code
// unit order would put before it), letters whose lowering differs between JavaScript and
// the database (İ, final Σ), and names shorter than three characters.
const NAMES = [
  'Anna Smith',
  'anna smith',
  'ANNA SMITH',
  'Aaron Quinn',
  'Quinn Abe',
  'quincy Adams',
  'Zoë Quist',
  'Zoe Quist',
  'Ωmega Ray',
  'ray Ωmega',
  '100% Sure',
  'a_b',
  'axb',
  'c\\d',
  'Rafael Sakura',
  'Sakura Tan',
  'Pablo Tan',
  '😀 Smile',
  '\uff5a Wide',
  '𝒜 Script',
  'Émile Zola',
  'émile zola',
  'İlkay ΟΔΥΣΣΕΑΣ',
  'Q',
  'qu',
  'Xu',
  'Al',
];

const organization = () => peerOrganization(db, NAMES, 5);

/** The person of that name in the organization. */
async function named(organizationId: string, name: string) {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.organizationId, organizationId), eq(users.name, name)));
  if (!row) throw new Error(`no ${name}`);
  return row;
}

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

/** A directory built for the organization, ready to answer. */
async function readyDirectories(who: { organizationId: string; userId: string }) {
  const directories = createPeerDirectories({ db, peers: createPeersRepository() });
  await directories.search(await searcher(who), '', 0, 1);
  await directories.ready(who.organizationId);
  expect(directories.sizeOf(who.organizationId)).not.toBeNull();
  return directories;
}

const QUERIES = [
  ...['', 'a', 'q', 'Q', 'Ω', 'ë', '😀', '\uff5a', '_', '%', '\\', '.', '@', 'z', '9', 'İ', 'i'],
  ...['an', 'qu', 'QU', 'zq', 'ra', 'é', 'Ém', '_b', 'c\\', '0%', 'ωm', ' s', 'σσ', 'ας'],
  ...['ann', 'qui', 'raf', 'sak', 'pab', 'anna smith', 'peers-1.test', 'nomatch', 'smile'],
  ...['ΟΔΥΣΣΕΑΣ', 'οδυσσεας', 'ilkay', 'İLKAY', '𝒜 s', 'wide'],
];
const PAGES = [
  [20, 0],
  [1, 0],
  [2, 3],
  [5, 25],
] as const;

describe('peer directories', () => {
  it('are built on the first search and answer every query shape as the statement does', async () => {
    const who = await organization();
    const directories = await readyDirectories(who);
    const active = NAMES.filter((_, i) => i % 9 !== 4).length + 1;
    expect(directories.sizeOf(who.organizationId)).toBe(active);
    const me = await searcher(who);
    for (const query of QUERIES) {
      for (const [limit, offset] of PAGES) {
        const search = { organizationId: who.organizationId, excludeUserId: who.userId };
        const want = await selectRows<PeerRow>(
          db,
          plainSearch({ ...search, limit, offset, query }),
        );
        const got = await directories.search(me, query, offset, limit);
        expect({ query, limit, offset, rows: got }).toEqual({ query, limit, offset, rows: want });
      }
    }
  });

  it('agree with the statement on random queries and pages', async () => {
    const who = await organization();
    const directories = await readyDirectories(who);
    const me = await searcher(who);
    const text = fc.string({
      unit: fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom(...'anqursiemoz ._%\\@') },
        { weight: 1, arbitrary: fc.constantFrom('Ω', 'ë', 'É', '😀', '1', '0', 'İ', 'Σ') },
      ),
      maxLength: 4,
    });
    await fc.assert(
      fc.asyncProperty(
        text,
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 0, max: 30 }),
        async (query, limit, offset) => {
          const want = await selectRows<PeerRow>(
            db,
            plainSearch({
              organizationId: who.organizationId,
              excludeUserId: who.userId,
              limit,
              offset,
              query,
            }),
          );
          expect(await directories.search(me, query, offset, limit)).toEqual(want);
        },
      ),
      { numRuns: 120 },
    );
  });

  it('show every change of a person that the session could see', async () => {
    const who = await organization();
    const directories = await readyDirectories(who);
    const check = async () => {
      const me = await searcher(who);
      for (const query of ['', 'a', 'an', 'zoe', 'new', 'gone', '.test', 'Ω']) {
        const want = await selectRows<PeerRow>(
          db,
          plainSearch({
            organizationId: who.organizationId,
            excludeUserId: who.userId,
            limit: 100,
            offset: 0,
            query,
          }),
        );
        expect({ query, rows: await directories.search(me, query, 0, 100) }).toEqual({
          query,
          rows: want,
        });
      }
    };
    const zoe = await named(who.organizationId, 'Zoe Quist');
    const anna = await named(who.organizationId, 'ANNA SMITH');
    const newcomer = await createUser(db, who.organizationId, {
      name: 'New Person',
      email: 'new@peers.test',
    });
    await check();
    // Renamed to a place elsewhere in the order, then only in case; a new e-mail.
    await db.update(users).set({ name: 'Aardvark Zoe' }).where(eq(users.id, zoe.id));
    await check();
    await db.update(users).set({ name: 'AARDVARK ZOE' }).where(eq(users.id, zoe.id));
    await db.update(users).set({ email: 'gone.soon@peers.test' }).where(eq(users.id, anna.id));
    await check();
    // Disabled, enabled again, deleted, moved out of the organization.
    await db.update(users).set({ status: 'disabled' }).where(eq(users.id, zoe.id));
    await check();
    await db.update(users).set({ status: 'active' }).where(eq(users.id, zoe.id));
    await check();
    await db.delete(users).where(eq(users.id, newcomer.id));
    await check();
    // Several changes in one transaction.
    await db.transaction(async (tx) => {
      await tx.update(users).set({ name: 'Ωmega New' }).where(eq(users.id, anna.id));
      await tx.update(users).set({ status: 'invited' }).where(eq(users.id, zoe.id));
    });
    await check();
  });

  it('read nothing while the menu version stays, and one statement when it moved', async () => {
    const who = await organization();
    const directories = await readyDirectories(who);
    const me = await searcher(who);
    const statements = async (work: () => Promise<unknown>) => {
      const before = database.statements.count;
      await work();
      return database.statements.count - before;
    };
    expect(await statements(() => directories.search(me, 'Anna', 0, 20))).toBe(0);
    expect(await statements(() => directories.search(me, '', 40, 20))).toBe(0);
    // An older version (a session read before the last change) is answered from memory too.
    expect(await statements(() => directories.search({ ...me, peopleVersion: 0 }, 'q', 0, 5))).toBe(
      0,
    );
    // A query outside ASCII is lowered by the database, as the statement lowers it.
    expect(await statements(() => directories.search(me, 'Zoë', 0, 20))).toBe(1);
    // A person's role changed (their version moves, peer search shows no role): one
    // statement finds no one to change.
    await db.execute(
      sql`UPDATE users SET role = 'admin' WHERE organization_id = ${who.organizationId}
          AND id = (SELECT id FROM users WHERE organization_id = ${who.organizationId} ORDER BY id LIMIT 1)`,
    );
    const moved = await searcher(who);
    expect(await statements(() => directories.search(moved, 'Anna', 0, 20))).toBe(1);
    expect(await statements(() => directories.search(moved, 'Anna', 0, 20))).toBe(0);
  });

  it('answer a session that saw a later change than a refresh under way', async () => {
    const who = await organization();
    const directories = await readyDirectories(who);
    const quincy = await named(who.organizationId, 'quincy Adams');
    await db.update(users).set({ name: 'Quincy First' }).where(eq(users.id, quincy.id));
    // A refresh starts for the first change; the second one commits meanwhile, and a
    // session that saw it searches while the first refresh may still be running.
    const first = directories.search(await searcher(who), 'quincy', 0, 20);
    await db.update(users).set({ name: 'Quincy Second' }).where(eq(users.id, quincy.id));
    const second = directories.search(await searcher(who), 'quincy', 0, 20);
    const names = async (rows: Promise<PeerRow[] | null>) => (await rows)?.map((r) => r.name);
    expect(['Quincy First', 'Quincy Second']).toContainEqual((await names(first))?.[0]);
    expect(await names(second)).toEqual(['Quincy Second']);
  });

  it('are dropped when nobody searched for ten minutes', async () => {
    const who = await organization();
    const directories = await readyDirectories(who);
    directories.sweep(Date.now() + 5 * 60_000);
    expect(directories.sizeOf(who.organizationId)).not.toBeNull();
    directories.sweep(Date.now() + 11 * 60_000);
    expect(directories.sizeOf(who.organizationId)).toBeNull();
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
