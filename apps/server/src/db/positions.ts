import { sql, type SQL } from 'drizzle-orm';
import { selectRows, type Executor } from './client.ts';

// Links, favorites and collections share one order inside a collection, so the position
// helpers belong to none of those modules: they live here, beside the locks they run under.

/**
 * The position after the last item of a collection, as an SQL expression. Links,
 * favorites and sub-collections share one order, so the next position looks at all three.
 * Written into an INSERT or UPDATE, it saves the statement (a round trip) that would fetch
 * the position first, while the collection is locked.
 */
export function nextPositionSql(collectionId: string): SQL {
  return sql`(SELECT coalesce(max(p), -1) + 1 FROM (
          SELECT max(position) AS p FROM links WHERE collection_id = ${collectionId}
          UNION ALL SELECT max(position) FROM favorites WHERE collection_id = ${collectionId}
          UNION ALL SELECT max(position) FROM collections WHERE parent_id = ${collectionId}
        ) t)`;
}

/** The position after the last item of a collection (see nextPositionSql). */
export async function nextPosition(db: Executor, collectionId: string): Promise<number> {
  const rows = await selectRows<{ next: number }>(
    db,
    sql`SELECT ${nextPositionSql(collectionId)} AS next`,
  );
  return Number(rows[0]?.next ?? 0);
}
