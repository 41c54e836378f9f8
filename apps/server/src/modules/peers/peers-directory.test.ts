// What the peer search answers from the people directory (decisions 0060 and 0072): the
// statement's rows, page by page, before and after every change of a person the session
// could see.
import { and, eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { selectRows } from '../../db/client.ts';
import { users } from '../../db/schema/index.ts';
import { createTestServices } from '../../../test/app.ts';
import { createUser } from '../../../test/factories.ts';
import { peerOrganization, plainSearch } from '../../../test/support/peer-search.ts';
import { createPeopleDirectory, type Searcher } from '../directory/directory.service.ts';
import type { PeerRow } from './peers.repository.ts';

const { db, repositories } = await createTestServices();

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

/** The people directory built for the organization, ready to answer. */
async function readyDirectory(who: { organizationId: string; userId: string }) {
  const directory = createPeopleDirectory({ db, directory: repositories.directory });
  await directory.searchPeers(await searcher(who), '', 0, 1);
  await directory.ready(who.organizationId);
  expect(directory.sizeOf(who.organizationId)).not.toBeNull();
  return directory;
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

describe('the peer search from the people directory', () => {
  it('is built on the first search and answers every query shape as the statement does', async () => {
    const who = await organization();
    const directory = await readyDirectory(who);
    // Everyone, disabled people too (the console's list shows them); the search leaves them out.
    expect(directory.sizeOf(who.organizationId)).toBe(NAMES.length + 1);
    const me = await searcher(who);
    for (const query of QUERIES) {
      for (const [limit, offset] of PAGES) {
        const search = { organizationId: who.organizationId, excludeUserId: who.userId };
        const want = await selectRows<PeerRow>(
          db,
          plainSearch({ ...search, limit, offset, query }),
        );
        const got = await directory.searchPeers(me, query, offset, limit);
        expect({ query, limit, offset, rows: got }).toEqual({ query, limit, offset, rows: want });
      }
    }
  });

  it('agrees with the statement on random queries and pages', async () => {
    const who = await organization();
    const directory = await readyDirectory(who);
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
          expect(await directory.searchPeers(me, query, offset, limit)).toEqual(want);
        },
      ),
      { numRuns: 120 },
    );
  });

  it('shows every change of a person that the session could see', async () => {
    const who = await organization();
    const directory = await readyDirectory(who);
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
        expect({ query, rows: await directory.searchPeers(me, query, 0, 100) }).toEqual({
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
});
