// Twenty people writing at once, each in their own space (decision 0057): the scratch
// collections and links they write and delete, and their sign-ins.
import pg from 'pg';
import type { BenchData } from './dataset.ts';

export interface Writer {
  authorization: string;
  /** Where the writer adds links: their scratch collection. */
  post: string;
  /** Links of theirs to delete, one per DELETE. */
  deletes: string[];
}

/**
 * Signs in `count` people of the benchmark's organization other than the measured user, none
 * sharing anything with them, and gives each a scratch collection holding `perWriter` links.
 */
export async function writersPool(
  url: string,
  base: string,
  data: BenchData,
  count: number,
  perWriter: number,
): Promise<Writer[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const people = await client.query<{ id: string; email: string; root: string }>(
      `SELECT u.id, u.email, c.id AS root FROM users u
       JOIN collections c ON c.owner_user_id = u.id AND c.is_root
       WHERE u.organization_id = $1 AND u.id <> $2 AND u.status = 'active'
         AND NOT EXISTS (SELECT 1 FROM share_members m WHERE m.user_id IN (u.id, $2)
                         AND m.share_id IN (SELECT share_id FROM share_members WHERE user_id = u.id))
       ORDER BY u.id LIMIT $3`,
      [data.organizationId, data.userId, count],
    );
    const writers: Writer[] = [];
    for (const [k, person] of people.rows.entries()) {
      const collection = `ww${String(k).padStart(19, '0')}`;
      await client.query(
        `INSERT INTO collections (id, organization_id, owner_type, owner_user_id, parent_id, name, position, created_by)
         VALUES ($1, $2, 'user', $3, $4, 'Write benchmark', 1000000, $3)`,
        [collection, data.organizationId, person.id, person.root],
      );
      const links = await client.query<{ id: string }>(
        `INSERT INTO links (id, organization_id, collection_id, name, url, position, created_by)
         SELECT 'ww' || lpad($5::text, 4, '0') || lpad(g::text, 15, '0'), $1, $2, 'Scratch ' || g,
                'https://example.com/' || g, g, $3
         FROM generate_series(0, $4 - 1) g ORDER BY g RETURNING id`,
        [data.organizationId, collection, person.id, perWriter, k],
      );
      const response = await fetch(`${base}/api/auth/sessions/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          type: 'email-password',
          email: person.email,
          password: data.password,
        }),
      });
      if (response.status !== 201) {
        throw new Error(`sign-in of a writer answered ${response.status}`);
      }
      const { token } = (await response.json()) as { token: string };
      writers.push({
        authorization: `Bearer ${token}`,
        post: `/api/consumer/collections/${collection}/links`,
        deletes: links.rows.map((row) => `/api/consumer/links/${row.id}`),
      });
    }
    return writers;
  } finally {
    await client.end();
  }
}
