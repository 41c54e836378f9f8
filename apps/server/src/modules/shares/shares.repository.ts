import { and, eq, inArray, sql } from 'drizzle-orm';
import { selectRows, type Executor } from '../../db/client.ts';
import { collections, collectionShares, shareMembers, users } from '../../db/schema/index.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { conflict } from '../../lib/errors.ts';

export interface ShareRow {
  id: string;
  collectionId: string;
  createdBy: string;
}

export function createSharesRepository() {
  return {
    async find(db: Executor, organizationId: string, id: string): Promise<ShareRow | null> {
      const rows = await db
        .select({
          id: collectionShares.id,
          collectionId: collectionShares.collectionId,
          createdBy: collectionShares.createdBy,
        })
        .from(collectionShares)
        .where(
          and(eq(collectionShares.id, id), eq(collectionShares.organizationId, organizationId)),
        );
      return rows[0] ?? null;
    },

    /**
     * What sharing a collection depends on: whether a collection below it (not itself) is
     * shared, and whether it or any collection below it holds favorites.
     */
    async treeFacts(
      db: Executor,
      collectionId: string,
    ): Promise<{ containsShare: boolean; holdsFavorites: boolean }> {
      const rows = await selectRows<{ containsShare: boolean; holdsFavorites: boolean }>(
        db,
        sql`
        WITH RECURSIVE tree AS (
          SELECT id, 0 AS depth FROM collections WHERE id = ${collectionId}
          UNION ALL
          SELECT c.id, tree.depth + 1 FROM collections c
          JOIN tree ON c.parent_id = tree.id WHERE tree.depth < 100
        )
        SELECT
          EXISTS (SELECT 1 FROM collection_shares s JOIN tree ON tree.id = s.collection_id
                  WHERE tree.depth > 0) AS "containsShare",
          EXISTS (SELECT 1 FROM favorites f JOIN tree ON tree.id = f.collection_id)
            AS "holdsFavorites"`,
      );
      return rows[0] ?? { containsShare: false, holdsFavorites: false };
    },

    /** Of these ids, the ones that are active people of the organization. */
    async findActivePeople(db: Executor, organizationId: string, ids: string[]): Promise<string[]> {
      if (ids.length === 0) return [];
      const rows = await db
        .select({ id: users.id })
        .from(users)
        .where(
          and(
            inArray(users.id, ids),
            eq(users.organizationId, organizationId),
            eq(users.status, 'active'),
          ),
        );
      return rows.map((row) => row.id);
    },

    /** Of these ids, the ones that are already members of the share. */
    async findMembers(db: Executor, shareId: string, ids: string[]): Promise<string[]> {
      if (ids.length === 0) return [];
      const rows = await db
        .select({ id: shareMembers.userId })
        .from(shareMembers)
        .where(and(eq(shareMembers.shareId, shareId), inArray(shareMembers.userId, ids)));
      return rows.map((row) => row.id);
    },

    /** The unique key on the collection turns a concurrent second share into a 409. */
    async insertShare(db: Executor, row: typeof collectionShares.$inferInsert): Promise<void> {
      try {
        await db.insert(collectionShares).values(row);
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict('This collection is already shared.');
        throw error;
      }
    },

    /** The primary key (share, person) turns a concurrent second addition into a 409. */
    async insertMembers(db: Executor, shareId: string, organizationId: string, userIds: string[]) {
      try {
        await db
          .insert(shareMembers)
          .values(userIds.map((userId) => ({ shareId, userId, organizationId })));
      } catch (error) {
        if (isUniqueViolation(error))
          throw conflict('One of these people is already a member of this share.');
        throw error;
      }
    },

    /** Removes one membership; false when the person was not a member. */
    async deleteMember(db: Executor, shareId: string, userId: string): Promise<boolean> {
      const rows = await db
        .delete(shareMembers)
        .where(and(eq(shareMembers.shareId, shareId), eq(shareMembers.userId, userId)))
        .returning({ userId: shareMembers.userId });
      return rows.length > 0;
    },

    /**
     * Deletes a shared collection. The foreign keys cascade to everything inside it:
     * sub-collections, links, favorites placed there, suggestions, the share and its members.
     */
    async deleteCollection(db: Executor, collectionId: string): Promise<void> {
      await db.delete(collections).where(eq(collections.id, collectionId));
    },
  };
}
export type SharesRepository = ReturnType<typeof createSharesRepository>;
