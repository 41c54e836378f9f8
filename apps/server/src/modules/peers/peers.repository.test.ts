import { sql, type SQL } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { selectRows } from '../../db/client.ts';
import { createTestApp } from '../../../test/app.ts';
import { createOrganization, createUser } from '../../../test/factories.ts';
import { peerSearchQuery, type PeerRow, type PeerSearch } from './peers.repository.ts';

const { db } = await createTestApp();

/** The definition of the search, written plainly: the tuned statement must agree with it. */
function plainSearch({ organizationId, excludeUserId, limit, offset, query }: PeerSearch): SQL {
  // Substring containment, with no LIKE and so no escaping: a bug in the escaping of the
  // statement under test cannot cancel out here.
  const needle = sql`lower(${query}::text)`;
  return sql`SELECT id, name, email FROM users
             WHERE organization_id = ${organizationId} AND status = 'active'
               AND id <> ${excludeUserId}
               AND (strpos(lower(name), ${needle}) > 0 OR strpos(lower(email), ${needle}) > 0)
             ORDER BY lower(name), id LIMIT ${limit} OFFSET ${offset}`;
}

// Names that tie once lowered, that sort early or late, that hold LIKE's special characters,
// letters outside ASCII and a character outside the Basic Multilingual Plane.
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
  'Raffaela',
  'Rafael Sakura',
  'Sakura Tan',
  'Pablo Tan',
  'Yannick Q',
  'Ryan Bryan',
  '😀 Smile',
  'Émile Zola',
  'émile zola',
  'Q',
  'qu',
  'Xu',
  'Li',
  'Bo',
  'Al',
  'Ed',
];

let made = 0;
async function organization() {
  const org = await createOrganization(db);
  const me = await createUser(db, org.id, {
    name: 'Anna Me',
    email: `me${(made += 1)}@peers.test`,
  });
  for (const [i, name] of NAMES.entries()) {
    const email = `${name.toLowerCase().replace(/\s+/g, '.')}.${i}@Peers-${made}.test`;
    await createUser(db, org.id, { name, email, status: i % 9 === 4 ? 'disabled' : 'active' });
  }
  // Someone else's organization with the same names: never in the results.
  const other = await createOrganization(db);
  for (const name of NAMES.slice(0, 10)) {
    await createUser(db, other.id, { name, email: `${(made += 1)}.other@peers.test` });
  }
  return { organizationId: org.id, excludeUserId: me.id };
}

const caller = await organization();

describe('peer search statement', () => {
  const queries = [
    ...['a', 'q', 'Q', 'Ω', 'ë', '😀', '_', '%', '\\', '.', '@', 'z', '9'],
    ...['an', 'qu', 'QU', 'zq', 'ra', 'é', 'Ém', '_b', 'c\\', '0%', 'ωm', ' s'],
    ...['ann', 'qui', 'raf', 'sak', 'pab', 'anna smith', 'peers-1.test', 'nomatch', 'smile'],
  ];

  it.each([0, 1, 3, 10_000])(
    'gives the rows of the plain statement for every query shape (window %i)',
    async (window) => {
      for (const query of queries) {
        for (const [limit, offset] of [
          [20, 0],
          [1, 0],
          [2, 3],
          [5, 25],
        ] as const) {
          const search = { ...caller, limit, offset, query };
          const want = await selectRows<PeerRow>(db, plainSearch(search));
          const got = await selectRows<PeerRow>(db, peerSearchQuery(search, window));
          expect({ query, limit, offset, rows: got }).toEqual({ query, limit, offset, rows: want });
        }
      }
    },
  );

  it('agrees with the plain statement on random queries, pages and windows', async () => {
    const text = fc.string({
      unit: fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom(...'anqursiemoz ._%\\@') },
        { weight: 1, arbitrary: fc.constantFrom('Ω', 'ë', 'É', '😀', '1', '0') },
      ),
      minLength: 1,
      maxLength: 4,
    });
    await fc.assert(
      fc.asyncProperty(
        text,
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 0, max: 30 }),
        fc.constantFrom(0, 2, 50),
        async (query, limit, offset, window) => {
          const search = { ...caller, limit, offset, query };
          const want = await selectRows<PeerRow>(db, plainSearch(search));
          expect(await selectRows<PeerRow>(db, peerSearchQuery(search, window))).toEqual(want);
        },
      ),
      { numRuns: 120 },
    );
  });

  it('finds one- and two-character queries through the substrings index', async () => {
    const rows = await selectRows<{ grams: string[] }>(
      db,
      sql`SELECT peer_search_grams('Zoë Q', 'z@X.io') AS grams`,
    );
    const grams = new Set(rows[0]?.grams);
    for (const gram of ['z', 'o', 'ë', ' ', 'q', 'zo', 'oë', 'ë ', ' q', '@', 'z@', '@x', 'io']) {
      expect(grams.has(gram), gram).toBe(true);
    }
    expect(grams.has('Z')).toBe(false);
    expect(grams.has('zoë')).toBe(false);
  });
});
