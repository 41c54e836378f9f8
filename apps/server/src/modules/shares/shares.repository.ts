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

export function createSharesRepository(db: Executor) {
  return {
    /**
     * Holds the person's row until the transaction ends, so that two shares of the same
     * person are checked and created one after the other: otherwise a collection and one
     * inside it could be shared at the same moment, and shares would nest.
     */
    async lockOwner(userId: string): Promise<void> {
      await selectRows(db, sql`SELECT 1 FROM users WHERE id = ${userId} FOR UPDATE`);
    },

    async find(organizationId: string, id: string): Promise<ShareRow | null> {
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

    /** True when a collection below this one (not itself) is shared. */
    async containsShare(collectionId: string): Promise<boolean> {
      const rows = await selectRows<{ found: boolean }>(
        db,
        sql`
        WITH RECURSIVE below AS (
          SELECT id, 1 AS depth FROM collections WHERE parent_id = ${collectionId}
          UNION ALL
          SELECT c.id, below.depth + 1 FROM collections c
          JOIN below ON c.parent_id = below.id WHERE below.depth < 100
        )
        SELECT EXISTS (
          SELECT 1 FROM collection_shares s JOIN below ON below.id = s.collection_id
        ) AS found`,
      );
      return rows[0]?.found ?? false;
    },

    /** Of these ids, the ones that are active people of the organization. */
    async findActivePeople(organizationId: string, ids: string[]): Promise<string[]> {
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
    async findMembers(shareId: string, ids: string[]): Promise<string[]> {
      if (ids.length === 0) return [];
      const rows = await db
        .select({ id: shareMembers.userId })
        .from(shareMembers)
        .where(and(eq(shareMembers.shareId, shareId), inArray(shareMembers.userId, ids)));
      return rows.map((row) => row.id);
    },

    /** The unique key on the collection turns a concurrent second share into a 409. */
    async insertShare(row: typeof collectionShares.$inferInsert): Promise<void> {
      try {
        await db.insert(collectionShares).values(row);
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict('This collection is already shared.');
        throw error;
      }
    },

    /** The primary key (share, person) turns a concurrent second addition into a 409. */
    async insertMembers(shareId: string, organizationId: string, userIds: string[]) {
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
    async deleteMember(shareId: string, userId: string): Promise<boolean> {
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
    async deleteCollection(collectionId: string): Promise<void> {
      await db.delete(collections).where(eq(collections.id, collectionId));
    },
  };
}
export type SharesRepository = ReturnType<typeof createSharesRepository>;
