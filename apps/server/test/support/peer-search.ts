// What the peer search tests share: the search written plainly, and an organization of
// people whose names try its edges (decision 0060).
import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../src/db/client.ts';
import type { PeerSearch } from '../../src/modules/peers/peers.repository.ts';
import { createOrganization, createUser } from '../factories.ts';

/**
 * The definition of the search, written plainly: the statement and the directory must agree
 * with it. Substring containment, with no LIKE and so no escaping: a bug in the escaping of
 * what is tested cannot cancel out here.
 */
export function plainSearch({
  organizationId,
  excludeUserId,
  limit,
  offset,
  query,
}: PeerSearch): SQL {
  const needle = sql`lower(${query}::text)`;
  return sql`SELECT id, name, email FROM users
             WHERE organization_id = ${organizationId} AND status = 'active'
               AND id <> ${excludeUserId}
               AND (strpos(lower(name), ${needle}) > 0 OR strpos(lower(email), ${needle}) > 0)
             ORDER BY lower(name), id LIMIT ${limit} OFFSET ${offset}`;
}

let made = 0;

/**
 * An organization of `names` (every ninth from the fifth on disabled), the searcher "Anna
 * Me", and another organization with the first `others` of the names, never in the results.
 */
export async function peerOrganization(db: Database, names: readonly string[], others: number) {
  const org = await createOrganization(db);
  const me = await createUser(db, org.id, {
    name: 'Anna Me',
    email: `me${(made += 1)}@peers.test`,
  });
  for (const [i, name] of names.entries()) {
    const email = `${name.toLowerCase().replace(/\s+/g, '.')}.${i}@Peers-${made}.test`;
    await createUser(db, org.id, { name, email, status: i % 9 === 4 ? 'disabled' : 'active' });
  }
  const other = await createOrganization(db);
  for (const name of names.slice(0, others)) {
    await createUser(db, other.id, { name, email: `${(made += 1)}.other@peers.test` });
  }
  return { organizationId: org.id, userId: me.id };
}
