import { eq, lt, sql, type SQL } from 'drizzle-orm';
import { selectRows, type Executor } from '../../db/client.ts';
import { undoSnapshots, type UndoKind } from '../../db/schema/index.ts';

/**
 * The rows a deletion removed, by table, each row as PostgreSQL's `to_jsonb` of it (column
 * names as in the database). `suggestionLinks` are not deleted rows: the suggestions outside
 * the deleted tree whose accepted link was deleted, which the foreign key set to null.
 */
export interface SnapshotRows {
  /** A deletion of several items (kind `batch`): the snapshots of each, in the order made. */
  batch?: string[];
  /**
   * A change (kind `change`): what it changed, and so what its undo writes back — the
   * fields people type (`edit`), the place (`place`: collection and position), or both.
   */
  revert?: Reverted[];
  collections: Record<string, unknown>[];
  links: Record<string, unknown>[];
  favorites: Record<string, unknown>[];
  shares: Record<string, unknown>[];
  members: Record<string, unknown>[];
  /** A share's teams and the people who left it (migration 0023; absent from older snapshots). */
  shareTeams?: Record<string, unknown>[];
  optOuts?: Record<string, unknown>[];
  suggestions: Record<string, unknown>[];
  suggestionLinks: { id: string; link_id: string }[];
  /**
   * An import (kind `import`, decision 0087): every collection and link it made, and the
   * ones at its top (the new collection, or what went straight into an existing one).
   */
  imported?: ImportedIds;
}

export interface ImportedIds {
  collections: string[];
  links: string[];
  top: { collections: string[]; links: string[] };
}

export interface SnapshotRow {
  id: string;
  organizationId: string;
  userId: string;
  kind: UndoKind;
  targetId: string;
  label: string;
  rows: SnapshotRows;
  expiresAt: Date;
  undoneAt: Date | null;
  expired: boolean;
}

const agg = (rows: SQL) =>
  sql`(SELECT coalesce(jsonb_agg(to_jsonb(r)), '[]'::jsonb) FROM (${rows}) r)`;

/**
 * One statement that reads everything that goes with the links of `linkIds` and the
 * collections of `tree` (both SQL lists of ids): the rows the foreign keys delete with them.
 */
function capture(tree: SQL, linkIds: SQL): SQL {
  return sql`SELECT jsonb_build_object(
    'collections', ${agg(sql`SELECT c.* FROM collections c WHERE c.id IN (${tree})`)},
    'links', ${agg(sql`SELECT l.* FROM links l WHERE l.id IN (${linkIds})`)},
    'favorites', ${agg(
      sql`SELECT f.* FROM favorites f
          WHERE f.collection_id IN (${tree}) OR f.link_id IN (${linkIds})`,
    )},
    'shares', ${agg(sql`SELECT s.* FROM collection_shares s WHERE s.collection_id IN (${tree})`)},
    'members', ${agg(
      sql`SELECT m.* FROM share_members m JOIN collection_shares s ON s.id = m.share_id
          WHERE s.collection_id IN (${tree})`,
    )},
    'shareTeams', ${agg(
      sql`SELECT t.* FROM share_teams t JOIN collection_shares s ON s.id = t.share_id
          WHERE s.collection_id IN (${tree})`,
    )},
    'optOuts', ${agg(
      sql`SELECT o.* FROM share_opt_outs o JOIN collection_shares s ON s.id = o.share_id
          WHERE s.collection_id IN (${tree})`,
    )},
    'suggestions', ${agg(sql`SELECT s.* FROM link_suggestions s WHERE s.collection_id IN (${tree})`)},
    'suggestionLinks', ${agg(
      sql`SELECT s.id, s.link_id FROM link_suggestions s
          WHERE s.link_id IN (${linkIds}) AND s.collection_id NOT IN (${tree})`,
    )}
  ) AS rows`;
}

/** Every table a snapshot names (the object makes the compiler check that none is missing). */
const SNAPSHOT_PARTS = Object.keys({
  collections: true,
  links: true,
  favorites: true,
  shares: true,
  members: true,
  shareTeams: true,
  optOuts: true,
  suggestions: true,
  suggestionLinks: true,
} satisfies Record<Exclude<keyof SnapshotRows, 'batch' | 'revert' | 'imported'>, true>) as Exclude<
  keyof SnapshotRows,
  'batch' | 'revert' | 'imported'
>[];

/**
 * A snapshot's rows as one jsonb column `rows`, every table named (an empty list for those
 * `parts` leaves out).
 */
function snapshot(
  parts: Partial<Record<Exclude<keyof SnapshotRows, 'batch' | 'revert' | 'imported'>, SQL>>,
): SQL {
  const pairs = SNAPSHOT_PARTS.map((key) => sql`${key}::text, ${parts[key] ?? sql`'[]'::jsonb`}`);
  return sql`SELECT jsonb_build_object(${sql.join(pairs, sql`, `)}) AS rows`;
}

/** A collection and everything below it, and what goes with them. */
export function collectionRows(collectionId: string): SQL {
  return sql`
    WITH RECURSIVE tree AS (
      SELECT id, 0 AS depth FROM collections WHERE id = ${collectionId}
      UNION ALL
      SELECT c.id, tree.depth + 1 FROM collections c
      JOIN tree ON c.parent_id = tree.id WHERE tree.depth < 100
    )
    ${capture(
      sql`SELECT id FROM tree`,
      sql`SELECT id FROM links WHERE collection_id IN (SELECT id FROM tree)`,
    )}`;
}

/**
 * A link, with everyone's favorites of it and the suggestions accepted as it: the parts of
 * `capture` a link has, each on its own index, since deleting a link is the portal's most
 * frequent deletion.
 */
export function linkRows(linkId: string): SQL {
  return snapshot({
    links: agg(sql`SELECT l.* FROM links l WHERE l.id = ${linkId}`),
    favorites: agg(sql`SELECT f.* FROM favorites f WHERE f.link_id = ${linkId}`),
    suggestionLinks: agg(
      sql`SELECT s.id, s.link_id FROM link_suggestions s WHERE s.link_id = ${linkId}`,
    ),
  });
}

/** One favorite. */
export function favoriteRows(favoriteId: string): SQL {
  return snapshot({ favorites: agg(sql`SELECT f.* FROM favorites f WHERE f.id = ${favoriteId}`) });
}

/** One person's membership of a share. */
export function membershipRows(shareId: string, userId: string): SQL {
  return snapshot({
    members: agg(
      sql`SELECT m.* FROM share_members m WHERE m.share_id = ${shareId} AND m.user_id = ${userId}`,
    ),
  });
}

/** What a change changed: the fields people type, or where the item stands. */
export type Reverted = 'edit' | 'place';

/**
 * The columns each part of a change writes back, by table (ids, owners and dates never
 * change). An undo writes back only what its change changed: undoing a new order leaves a
 * link renamed since as it is now.
 */
const REVERTED_COLUMNS: Record<
  Reverted,
  Record<'links' | 'collections' | 'favorites', readonly string[]>
> = {
  edit: {
    links: ['name', 'description', 'url', 'app_name'],
    collections: ['name', 'description', 'color'],
    favorites: [],
  },
  place: {
    links: ['collection_id', 'position'],
    collections: ['parent_id', 'position'],
    favorites: ['collection_id', 'position'],
  },
};

/** The columns an undo writes back into one table. */
export const revertedColumns = (
  revert: readonly Reverted[],
  table: 'links' | 'collections' | 'favorites',
) => revert.flatMap((part) => REVERTED_COLUMNS[part][table]);

/** The ids a change touched, by table: what `changedRows` keeps and `revert` puts back. */
export interface ChangedIds {
  links?: readonly string[];
  collections?: readonly string[];
  favorites?: readonly string[];
}

const idList = (ids: readonly string[]) =>
  sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  );
type ChangedTable = 'links' | 'collections' | 'favorites';

/**
 * What a change's snapshot keeps of a row: its id, its name (the undo's audit names it), and
 * the columns its undo writes back — not the whole row: a new order of 500 links keeps
 * 500 places, not 500 links.
 */
const keptColumns = (table: ChangedTable, revert: readonly Reverted[]) =>
  sql.join(
    [
      ...new Set([
        'id',
        ...(table === 'favorites' ? [] : ['name']),
        ...revertedColumns(revert, table),
      ]),
    ].map((column) => sql`t.${sql.identifier(column)}`),
    sql`, `,
  );

const rowsOf = (
  table: ChangedTable,
  ids: readonly string[] | undefined,
  revert: readonly Reverted[],
) =>
  ids && ids.length > 0
    ? agg(
        sql`SELECT ${keptColumns(table, revert)} FROM ${sql.identifier(table)} t
            WHERE t.id IN (${idList(ids)})`,
      )
    : undefined;

/**
 * The rows an edit, a move or a new order is about to change, as they are before it
 * (decision 0076): what a revert writes back, and the names its audit gives.
 */
export function changedRows(ids: ChangedIds, revert: readonly Reverted[]): SQL {
  return withRevert(
    snapshot({
      links: rowsOf('links', ids.links, revert),
      collections: rowsOf('collections', ids.collections, revert),
      favorites: rowsOf('favorites', ids.favorites, revert),
    }),
    revert,
  );
}

/** The items of one collection, all of them: what a new order changes (their places). */
export function itemsOfRows(collectionId: string): SQL {
  const place = ['place'] as const;
  return withRevert(
    snapshot({
      links: agg(
        sql`SELECT ${keptColumns('links', place)} FROM links t
            WHERE t.collection_id = ${collectionId}`,
      ),
      collections: agg(
        sql`SELECT ${keptColumns('collections', place)} FROM collections t
            WHERE t.parent_id = ${collectionId}`,
      ),
      favorites: agg(
        sql`SELECT ${keptColumns('favorites', place)} FROM favorites t
            WHERE t.collection_id = ${collectionId}`,
      ),
    }),
    place,
  );
}

/** A snapshot's rows with what its undo writes back. */
const withRevert = (rows: SQL, revert: readonly Reverted[]) =>
  sql`SELECT s.rows || jsonb_build_object('revert', ${JSON.stringify(revert)}::jsonb) AS rows
      FROM (${rows}) s`;

/** The snapshots of a deletion of several items, by id: what one undo restores together. */
export function batchRows(ids: readonly string[]): SQL {
  return sql`SELECT jsonb_build_object('batch', ${JSON.stringify(ids)}::jsonb) AS rows`;
}

/** What an import made (kind `import`): its ids, nothing else. */
export function importRows(ids: ImportedIds): SQL {
  return sql`SELECT jsonb_build_object('imported', ${JSON.stringify(ids)}::jsonb) AS rows`;
}

/** Inserts `rows` of one table as they were; `where` may filter them (alias r). */
const restoreInto = (table: string, rows: unknown[], where: SQL = sql`true`) =>
  sql`INSERT INTO ${sql.identifier(table)}
      SELECT r.* FROM jsonb_populate_recordset(NULL::${sql.identifier(table)},
                                               ${JSON.stringify(rows)}::jsonb) r
      WHERE ${where}`;

export function createUndoRepository() {
  return {
    /**
     * Stores the snapshot that `rows` (a statement of one jsonb column `rows`, below) reads,
     * in the same statement: what a deletion is about to remove goes from its tables into
     * `undo_snapshots` without a trip through the server. It expires `seconds` after the
     * transaction began; returns that time.
     */
    async insert(
      db: Executor,
      row: Omit<typeof undoSnapshots.$inferInsert, 'expiresAt' | 'rows'>,
      rows: SQL,
      seconds: number,
    ): Promise<Date> {
      const [stored] = await selectRows<{ expiresAt: Date | string }>(
        db,
        sql`INSERT INTO undo_snapshots
              (id, organization_id, user_id, kind, target_id, label, rows, expires_at)
            SELECT ${row.id}, ${row.organizationId}, ${row.userId}, ${row.kind},
                   ${row.targetId}, ${row.label}, captured.rows,
                   now() + make_interval(secs => ${seconds})
            FROM (${rows}) captured
            RETURNING expires_at AS "expiresAt"`,
      );
      return new Date(stored!.expiresAt);
    },

    /** A snapshot of the person's, held until the transaction ends; null when there is none. */
    async findOwnForUpdate(
      db: Executor,
      organizationId: string,
      userId: string,
      id: string,
    ): Promise<SnapshotRow | null> {
      const rows = await selectRows<SnapshotRow>(
        db,
        sql`SELECT id, organization_id AS "organizationId", user_id AS "userId", kind,
                   target_id AS "targetId", label, rows, expires_at AS "expiresAt",
                   undone_at AS "undoneAt", expires_at <= now() AS expired
            FROM undo_snapshots
            WHERE id = ${id} AND organization_id = ${organizationId} AND user_id = ${userId}
            FOR UPDATE`,
      );
      return rows[0] ?? null;
    },

    /** Marks a snapshot restored and forgets its rows. */
    async markUndone(db: Executor, id: string): Promise<void> {
      await db
        .update(undoSnapshots)
        .set({ undoneAt: sql`now()`, rows: {} })
        .where(eq(undoSnapshots.id, id));
    },

    /**
     * Puts the rows back with the same ids and fields, parents before children. Favorites
     * and memberships of people or places that went meanwhile are left out (they could not
     * be shown anyway); a favorite of a link the person favorited again meanwhile too.
     */
    async restore(db: Executor, rows: SnapshotRows): Promise<void> {
      if (rows.collections.length > 0) {
        // Parents first: the snapshot lists a tree, its top first, but the order of
        // jsonb_agg is not promised, so the depth is computed again here.
        await db.execute(sql`
          WITH RECURSIVE given AS (
            SELECT r.* FROM jsonb_populate_recordset(NULL::collections,
                                                     ${JSON.stringify(rows.collections)}::jsonb) r
          ), ordered AS (
            SELECT g.id, 0 AS depth FROM given g
            WHERE g.parent_id IS NULL OR g.parent_id NOT IN (SELECT id FROM given)
            UNION ALL
            SELECT g.id, o.depth + 1 FROM given g JOIN ordered o ON g.parent_id = o.id
            WHERE o.depth < 100
          )
          INSERT INTO collections
          SELECT g.* FROM given g JOIN ordered o ON o.id = g.id ORDER BY o.depth`);
      }
      if (rows.links.length > 0) await db.execute(restoreInto('links', rows.links));
      if (rows.shares.length > 0) await db.execute(restoreInto('collection_shares', rows.shares));
      // A share's people who had left it, then its teams (whose members come back through
      // the triggers of migration 0023, those who had left excepted), then the people it
      // named; a member through a team only comes back while still in one of its teams.
      const optOuts = rows.optOuts ?? [];
      if (optOuts.length > 0) {
        await db.execute(
          restoreInto(
            'share_opt_outs',
            optOuts,
            sql`EXISTS (SELECT 1 FROM users u WHERE u.id = r.user_id)
                AND EXISTS (SELECT 1 FROM collection_shares s WHERE s.id = r.share_id)
                AND NOT EXISTS (SELECT 1 FROM share_opt_outs o
                                WHERE o.share_id = r.share_id AND o.user_id = r.user_id)`,
          ),
        );
      }
      if (rows.members.length > 0) {
        // A member who left comes back: their leaving no longer holds.
        await db.execute(sql`
          DELETE FROM share_opt_outs o
          USING jsonb_populate_recordset(NULL::share_members, ${JSON.stringify(rows.members)}::jsonb) r
          WHERE o.share_id = r.share_id AND o.user_id = r.user_id`);
      }
      const shareTeams = rows.shareTeams ?? [];
      if (shareTeams.length > 0) {
        await db.execute(
          restoreInto(
            'share_teams',
            shareTeams,
            sql`EXISTS (SELECT 1 FROM teams t WHERE t.id = r.team_id)
                AND EXISTS (SELECT 1 FROM collection_shares s WHERE s.id = r.share_id)
                AND NOT EXISTS (SELECT 1 FROM share_teams t
                                WHERE t.share_id = r.share_id AND t.team_id = r.team_id)`,
          ),
        );
      }
      if (rows.members.length > 0) {
        await db.execute(sql`
          INSERT INTO share_members (share_id, user_id, organization_id, added_at, direct)
          SELECT r.share_id, r.user_id, r.organization_id, r.added_at, coalesce(r.direct, true)
          FROM jsonb_populate_recordset(NULL::share_members, ${JSON.stringify(rows.members)}::jsonb) r
          WHERE EXISTS (SELECT 1 FROM users u WHERE u.id = r.user_id)
            AND EXISTS (SELECT 1 FROM collection_shares s WHERE s.id = r.share_id)
            AND (coalesce(r.direct, true) OR share_through_team(r.share_id, r.user_id))
          ON CONFLICT (share_id, user_id) DO UPDATE
            SET direct = share_members.direct OR EXCLUDED.direct`);
      }
      if (rows.favorites.length > 0) {
        await db.execute(
          restoreInto(
            'favorites',
            rows.favorites,
            sql`EXISTS (SELECT 1 FROM users u WHERE u.id = r.user_id)
                AND EXISTS (SELECT 1 FROM collections c WHERE c.id = r.collection_id)
                AND EXISTS (SELECT 1 FROM links l WHERE l.id = r.link_id)
                AND NOT EXISTS (SELECT 1 FROM favorites f
                                WHERE f.user_id = r.user_id AND f.link_id = r.link_id)`,
          ),
        );
      }
      if (rows.suggestions.length > 0) {
        await db.execute(restoreInto('link_suggestions', rows.suggestions));
      }
      if (rows.suggestionLinks.length > 0) {
        await db.execute(sql`
          UPDATE link_suggestions s SET link_id = v.link_id
          FROM jsonb_to_recordset(${JSON.stringify(rows.suggestionLinks)}::jsonb)
            AS v(id text, link_id text)
          WHERE s.id = v.id AND s.link_id IS NULL`);
      }
    },

    /**
     * The rows of a change's snapshot as they are now, locked until the transaction ends,
     * by table; a row deleted since is missing.
     */
    async currentRows(
      db: Executor,
      rows: Pick<SnapshotRows, 'links' | 'collections' | 'favorites'>,
    ): Promise<Pick<SnapshotRows, 'links' | 'collections' | 'favorites'>> {
      const read = async (table: 'links' | 'collections' | 'favorites') => {
        const ids = rows[table].map((row) => String(row.id));
        if (ids.length === 0) return [];
        const found = await selectRows<{ row: Record<string, unknown> }>(
          db,
          sql`SELECT to_jsonb(t) AS row FROM ${sql.identifier(table)} t
              WHERE t.id IN (${idList(ids)}) ORDER BY t.id FOR UPDATE`,
        );
        return found.map((f) => f.row);
      };
      return {
        links: await read('links'),
        collections: await read('collections'),
        favorites: await read('favorites'),
      };
    },

    /** Writes the fields of a change's snapshot back into its rows (decision 0076). */
    async revert(
      db: Executor,
      rows: Pick<SnapshotRows, 'links' | 'collections' | 'favorites' | 'revert'>,
    ): Promise<void> {
      const revert = rows.revert ?? ['edit', 'place'];
      for (const table of ['collections', 'links', 'favorites'] as const) {
        const columns = revertedColumns(revert, table);
        if (rows[table].length === 0 || columns.length === 0) continue;
        const set = sql.join(
          columns.map((column) => sql`${sql.identifier(column)} = r.${sql.identifier(column)}`),
          sql`, `,
        );
        await db.execute(sql`
          UPDATE ${sql.identifier(table)} t SET ${set}
          FROM jsonb_populate_recordset(NULL::${sql.identifier(table)},
                                        ${JSON.stringify(rows[table])}::jsonb) r
          WHERE t.id = r.id`);
      }
    },

    /** Levels of collections below this one: 0 when it has no sub-collections. */
    async heightBelow(db: Executor, collectionId: string): Promise<number> {
      const [row] = await selectRows<{ height: number }>(
        db,
        sql`WITH RECURSIVE tree AS (
              SELECT id, 0 AS depth FROM collections WHERE id = ${collectionId}
              UNION ALL
              SELECT c.id, tree.depth + 1 FROM collections c
              JOIN tree ON c.parent_id = tree.id WHERE tree.depth < 100
            )
            SELECT max(depth)::int AS height FROM tree`,
      );
      return row?.height ?? 0;
    },

    /** Whether a collection exists (of any organization: the caller checks access after). */
    async collectionExists(db: Executor, id: string): Promise<boolean> {
      const rows = await selectRows(db, sql`SELECT 1 FROM collections WHERE id = ${id}`);
      return rows.length > 0;
    },

    async linkExists(db: Executor, id: string): Promise<boolean> {
      const rows = await selectRows(db, sql`SELECT 1 FROM links WHERE id = ${id}`);
      return rows.length > 0;
    },

    async favoriteExists(db: Executor, userId: string, linkId: string): Promise<boolean> {
      const rows = await selectRows(
        db,
        sql`SELECT 1 FROM favorites WHERE user_id = ${userId} AND link_id = ${linkId}`,
      );
      return rows.length > 0;
    },

    async isMember(db: Executor, shareId: string, userId: string): Promise<boolean> {
      const rows = await selectRows(
        db,
        sql`SELECT 1 FROM share_members WHERE share_id = ${shareId} AND user_id = ${userId}`,
      );
      return rows.length > 0;
    },

    async throughTeam(db: Executor, shareId: string, userId: string): Promise<boolean> {
      const rows = await selectRows<{ yes: boolean }>(
        db,
        sql`SELECT share_through_team(${shareId}, ${userId}) AS yes`,
      );
      return rows[0]?.yes === true;
    },

    /**
     * Whether anything is in the imported collections that the import did not bring (a link
     * or a collection added since, a favorite placed there): undoing it would take that too.
     */
    async importHoldsOthers(
      db: Executor,
      collectionIds: string[],
      linkIds: string[],
    ): Promise<boolean> {
      if (collectionIds.length === 0) return false;
      const rows = await selectRows<{ yes: boolean }>(
        db,
        sql`WITH made AS (SELECT unnest(${sql.param(collectionIds)}::text[]) AS id)
            SELECT EXISTS (SELECT 1 FROM links l JOIN made ON made.id = l.collection_id
                           WHERE l.id <> ALL(${sql.param(linkIds)}::text[]))
                OR EXISTS (SELECT 1 FROM collections c JOIN made ON made.id = c.parent_id
                           WHERE c.id <> ALL(${sql.param(collectionIds)}::text[]))
                OR EXISTS (SELECT 1 FROM favorites f JOIN made ON made.id = f.collection_id)
                AS yes`,
      );
      return rows[0]?.yes === true;
    },

    /** Deletes what an import made that is still there; the foreign keys take the rest. */
    async deleteImported(db: Executor, collectionIds: string[], linkIds: string[]) {
      await db.execute(sql`DELETE FROM links WHERE id = ANY(${sql.param(linkIds)}::text[])`);
      await db.execute(
        sql`DELETE FROM collections WHERE id = ANY(${sql.param(collectionIds)}::text[])`,
      );
    },

    async shareExists(db: Executor, id: string): Promise<boolean> {
      const rows = await selectRows(db, sql`SELECT 1 FROM collection_shares WHERE id = ${id}`);
      return rows.length > 0;
    },

    /**
     * Deletes the snapshots past their expiry; returns how many. A restored one stays until
     * then (without its rows), so that a second undo is told it was done.
     */
    async purge(db: Executor): Promise<number> {
      const rows = await db
        .delete(undoSnapshots)
        .where(lt(undoSnapshots.expiresAt, sql`now()`))
        .returning({ id: undoSnapshots.id });
      return rows.length;
    },
  };
}
export type UndoRepository = ReturnType<typeof createUndoRepository>;
