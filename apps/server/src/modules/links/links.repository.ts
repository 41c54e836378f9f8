import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { links, linkSuggestions } from '../../db/schema/index.ts';
import { nextPositionSql } from '../../db/positions.ts';

export function createLinksRepository() {
  return {
    /**
     * Adds a link after the last item of its collection, the position computed in the same
     * statement. The caller holds the collection's lock (so positions stay distinct), which
     * is taken in an earlier statement: this statement's snapshot then sees every item
     * committed before the lock was granted.
     */
    async insertAtEnd(
      db: Executor,
      values: Omit<typeof links.$inferInsert, 'position'>,
    ): Promise<void> {
      await db.insert(links).values({ ...values, position: nextPositionSql(values.collectionId) });
    },

    async update(
      db: Executor,
      linkId: string,
      fields: Partial<Pick<typeof links.$inferInsert, 'name' | 'description' | 'url' | 'appName'>>,
    ): Promise<void> {
      await db
        .update(links)
        .set({ ...fields, updatedAt: sql`now()` })
        .where(eq(links.id, linkId));
    },

    /** Moves a link after the last item of a collection whose lock the caller holds. */
    async moveToEnd(db: Executor, linkId: string, collectionId: string): Promise<void> {
      await db
        .update(links)
        .set({ collectionId, position: nextPositionSql(collectionId), updatedAt: sql`now()` })
        .where(eq(links.id, linkId));
    },

    /** Deletes a link; favorites of it go with it (foreign key). */
    async delete(db: Executor, linkId: string): Promise<void> {
      await db.delete(links).where(eq(links.id, linkId));
    },

    async insertSuggestion(
      db: Executor,
      values: typeof linkSuggestions.$inferInsert,
    ): Promise<void> {
      await db.insert(linkSuggestions).values(values);
    },
  };
}
export type LinksRepository = ReturnType<typeof createLinksRepository>;
