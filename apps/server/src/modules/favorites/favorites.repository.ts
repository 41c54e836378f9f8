import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { favorites, links } from '../../db/schema/index.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { conflict } from '../../lib/errors.ts';

export interface FavoriteRow {
  id: string;
  linkId: string;
  collectionId: string;
  /** The name of its link. */
  name: string;
}

export function createFavoritesRepository() {
  return {
    /** One of the person's own favorites; anyone else's is as good as unknown. */
    async findOwn(
      db: Executor,
      organizationId: string,
      userId: string,
      id: string,
    ): Promise<FavoriteRow | null> {
      const rows = await db
        .select({
          id: favorites.id,
          linkId: favorites.linkId,
          collectionId: favorites.collectionId,
          name: links.name,
        })
        .from(favorites)
        .innerJoin(links, eq(links.id, favorites.linkId))
        .where(
          and(
            eq(favorites.id, id),
            eq(favorites.organizationId, organizationId),
            eq(favorites.userId, userId),
          ),
        );
      return rows[0] ?? null;
    },

    async existsForLink(db: Executor, userId: string, linkId: string): Promise<boolean> {
      const rows = await db
        .select({ id: favorites.id })
        .from(favorites)
        .where(and(eq(favorites.userId, userId), eq(favorites.linkId, linkId)));
      return rows.length > 0;
    },

    /**
     * Two identical requests at once both pass the check above; the unique key on
     * (user, link) lets one of them in and the other gets the same 409.
     */
    async insert(db: Executor, row: typeof favorites.$inferInsert): Promise<void> {
      try {
        await db.insert(favorites).values(row);
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict('This link is already one of your favorites.');
        throw error;
      }
    },

    async move(db: Executor, id: string, collectionId: string, position: number): Promise<void> {
      await db.update(favorites).set({ collectionId, position }).where(eq(favorites.id, id));
    },

    async delete(db: Executor, id: string): Promise<void> {
      await db.delete(favorites).where(eq(favorites.id, id));
    },
  };
}
export type FavoritesRepository = ReturnType<typeof createFavoritesRepository>;
