import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { selectRows } from '../../db/client.ts';
import { createTestApp } from '../../../test/app.ts';
import { peerOrganization, plainSearch } from '../../../test/support/peer-search.ts';
import { peerSearchQuery, type PeerRow } from './peers.repository.ts';

const { db } = await createTestApp();

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

async function organization() {
  const { organizationId, userId } = await peerOrganization(db, NAMES, 10);
  return { organizationId, excludeUserId: userId };
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
