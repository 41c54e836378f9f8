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

/** The position after the last top collection of a team's (or, null, the organization's) space. */
export async function nextTopPosition(
  db: Executor,
  organizationId: string,
  teamId: string | null,
): Promise<number> {
  const rows = await selectRows<{ next: number }>(
    db,
    sql`SELECT coalesce(max(position), -1) + 1 AS next FROM collections
        WHERE organization_id = ${organizationId} AND parent_id IS NULL
          AND owner_type = ${teamId ? 'team' : 'organization'}
          AND owner_team_id IS NOT DISTINCT FROM ${teamId}::text`,
  );
  return Number(rows[0]?.next ?? 0);
}

/** A person's My Space: where their items go when no place is named. */
export async function findRoot(db: Executor, userId: string): Promise<string | null> {
  const rows = await selectRows<{ id: string }>(
    db,
    sql`SELECT id FROM collections WHERE owner_user_id = ${userId} AND is_root`,
  );
  return rows[0]?.id ?? null;
}
