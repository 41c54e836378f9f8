import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { links, linkSuggestions } from '../../db/schema/index.ts';

export function createLinksRepository(db: Executor) {
  return {
    async insert(values: typeof links.$inferInsert): Promise<void> {
      await db.insert(links).values(values);
    },

    async update(
      linkId: string,
      fields: Partial<Pick<typeof links.$inferInsert, 'name' | 'description' | 'url'>>,
    ): Promise<void> {
      await db
        .update(links)
        .set({ ...fields, updatedAt: sql`now()` })
        .where(eq(links.id, linkId));
    },

    async move(linkId: string, collectionId: string, position: number): Promise<void> {
      await db
        .update(links)
        .set({ collectionId, position, updatedAt: sql`now()` })
        .where(eq(links.id, linkId));
    },

    /** Deletes a link; favorites of it go with it (foreign key). */
    async delete(linkId: string): Promise<void> {
      await db.delete(links).where(eq(links.id, linkId));
    },

    async insertSuggestion(values: typeof linkSuggestions.$inferInsert): Promise<void> {
      await db.insert(linkSuggestions).values(values);
    },
  };
}
export type LinksRepository = ReturnType<typeof createLinksRepository>;
