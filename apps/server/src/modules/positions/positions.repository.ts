import { sql } from 'drizzle-orm';
import { selectRows, type Executor } from '../../db/client.ts';

/**
 * The position after the last item of a collection. Links, favorites and sub-collections
 * share one order, so the next position looks at all three.
 */
export async function nextPosition(db: Executor, collectionId: string): Promise<number> {
  const rows = await selectRows<{ next: number }>(
    db,
    sql`SELECT coalesce(max(p), -1) + 1 AS next FROM (
          SELECT max(position) AS p FROM links WHERE collection_id = ${collectionId}
          UNION ALL SELECT max(position) FROM favorites WHERE collection_id = ${collectionId}
          UNION ALL SELECT max(position) FROM collections WHERE parent_id = ${collectionId}
        ) t`,
  );
  return Number(rows[0]?.next ?? 0);
}
