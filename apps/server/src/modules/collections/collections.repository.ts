import { and, eq, sql } from 'drizzle-orm';
import { selectRows, type Executor } from '../../db/client.ts';
import { collections } from '../../db/schema/index.ts';

export type ItemType = 'link' | 'link-favorite' | 'collection';

export interface OrderedItem {
  type: ItemType;
  id: string;
}

export interface SubtreeFacts {
  /** Levels below the collection: 0 when it has no sub-collections. */
  height: number;
  hasShare: boolean;
  hasFavorites: boolean;
}

export function createCollectionsRepository() {
  return {
    /** What a collection and everything below it hold that limits where it may go. */
    async subtreeFacts(db: Executor, collectionId: string): Promise<SubtreeFacts> {
      const rows = await selectRows<SubtreeFacts>(
        db,
        sql`
        WITH RECURSIVE tree AS (
          SELECT id, 0 AS depth FROM collections WHERE id = ${collectionId}
          UNION ALL
          SELECT c.id, tree.depth + 1 FROM collections c
          JOIN tree ON c.parent_id = tree.id WHERE tree.depth < 100
        )
        SELECT coalesce(max(depth), 0) AS height,
               EXISTS (SELECT 1 FROM collection_shares s
                       WHERE s.collection_id IN (SELECT id FROM tree)) AS "hasShare",
               EXISTS (SELECT 1 FROM favorites f
                       WHERE f.collection_id IN (SELECT id FROM tree)) AS "hasFavorites"
        FROM tree`,
      );
      const row = rows[0];
      return {
        height: Number(row?.height ?? 0),
        hasShare: Boolean(row?.hasShare),
        hasFavorites: Boolean(row?.hasFavorites),
      };
    },

    async insert(db: Executor, values: typeof collections.$inferInsert): Promise<void> {
      await db.insert(collections).values(values);
    },

    async update(
      db: Executor,
      collectionId: string,
      fields: Partial<
        Pick<
          typeof collections.$inferInsert,
          'name' | 'description' | 'color' | 'parentId' | 'position'
        >
      >,
    ): Promise<void> {
      await db
        .update(collections)
        .set({ ...fields, updatedAt: sql`now()` })
        .where(eq(collections.id, collectionId));
    },

    /**
     * Deletes a collection; the foreign keys take along its sub-collections, links,
     * favorites placed in it, its share with members, and suggestions made to it.
     */
    async delete(db: Executor, collectionId: string): Promise<void> {
      await db
        .delete(collections)
        .where(and(eq(collections.id, collectionId), eq(collections.isRoot, false)));
    },

    /** The items directly in a collection the person sees: links, favorites, sub-collections. */
    async listItems(db: Executor, collectionId: string, userId: string): Promise<OrderedItem[]> {
      // A favorite whose link the person can no longer see is hidden from their menu, so it
      // is not theirs to name either; it keeps its place until access comes back.
      return selectRows<OrderedItem>(
        db,
        sql`
        SELECT 'link' AS type, id FROM links WHERE collection_id = ${collectionId}
        UNION ALL
        SELECT 'link-favorite', f.id FROM favorites f
        JOIN links l ON l.id = f.link_id
        JOIN collections lc ON lc.id = l.collection_id
        WHERE f.collection_id = ${collectionId}
          AND (lc.owner_type = 'organization'
               OR lc.owner_team_id IN (SELECT team_id FROM team_memberships WHERE user_id = ${userId}))
        UNION ALL
        SELECT 'collection', id FROM collections WHERE parent_id = ${collectionId}`,
      );
    },

    /** Gives the items of a collection the positions 0, 1, 2… in the order listed. */
    async setOrder(db: Executor, collectionId: string, items: OrderedItem[]): Promise<void> {
      const positions = (type: ItemType) =>
        JSON.stringify(
          items.flatMap((item, pos) => (item.type === type ? [{ id: item.id, pos }] : [])),
        );
      // One statement per table; the list travels as one JSON parameter, whatever its length.
      await db.execute(sql`
        UPDATE links t SET position = v.pos
        FROM jsonb_to_recordset(${positions('link')}::jsonb) AS v(id text, pos int)
        WHERE t.id = v.id AND t.collection_id = ${collectionId} AND t.position <> v.pos`);
      await db.execute(sql`
        UPDATE favorites t SET position = v.pos
        FROM jsonb_to_recordset(${positions('link-favorite')}::jsonb) AS v(id text, pos int)
        WHERE t.id = v.id AND t.collection_id = ${collectionId} AND t.position <> v.pos`);
      await db.execute(sql`
        UPDATE collections t SET position = v.pos
        FROM jsonb_to_recordset(${positions('collection')}::jsonb) AS v(id text, pos int)
        WHERE t.id = v.id AND t.parent_id = ${collectionId} AND t.position <> v.pos`);
    },
  };
}
export type CollectionsRepository = ReturnType<typeof createCollectionsRepository>;
