import type { Database } from '../../db/client.ts';
import { lockPerson } from '../../db/locks.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { conflict, forbidden, notFound } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { linkCan } from '../access/permissions.ts';
import { createAccessService, type CollectionAccess } from '../access/access.service.ts';
import { nextPosition } from '../../db/positions.ts';
import { keepFavoriteForUndo, type UndoTicket } from '../undo/undo.service.ts';
import { createFavoritesRepository } from './favorites.repository.ts';

const MEMBERS_ONLY = 'Favorites are for the members of the team.';

/** Favorites are private: members of a share would otherwise see them. */
function assertNotShared(target: CollectionAccess) {
  if (target.collection.shareId) {
    throw conflict(
      'Favorites are private: they go in one of your own collections that is not shared.',
    );
  }
}

export function createFavoritesService(db: Database) {
  return {
    /** Favorites a team or organization link, at the end of one of the caller's collections. */
    async createFavorite(me: AuthContext, collectionId: string, linkId: string): Promise<void> {
      await db.transaction(async (tx) => {
        const access = createAccessService(tx);
        const favorites = createFavoritesRepository(tx);
        // After any share of the caller's in flight: favorites never land in a shared tree.
        await lockPerson(tx, me.userId);
        // Both ids are authorized on their own: the place and the link.
        const target = await access.owned(me, collectionId);
        const source = await access.link(me, linkId);
        if (source.in.space === 'personal') {
          throw conflict(
            'Only team and organization links can be favorites; this link is personal.',
          );
        }
        if (!linkCan(source.in.relation, false).favorite) throw forbidden(MEMBERS_ONLY);
        assertNotShared(target);
        if (await favorites.existsForLink(me.userId, linkId)) {
          throw conflict('This link is already one of your favorites.');
        }
        await access.hold(collectionId);
        await favorites.insert({
          id: newId(),
          organizationId: me.organizationId,
          userId: me.userId,
          linkId,
          collectionId,
          position: await nextPosition(tx, collectionId),
        });
      });
    },

    /** Removes one of the caller's favorites; restorable for a while (decision 0052). */
    async deleteFavorite(me: AuthContext, id: string): Promise<UndoTicket> {
      return db.transaction(async (tx) => {
        const favorites = createFavoritesRepository(tx);
        const favorite = await favorites.findOwn(me.organizationId, me.userId, id);
        if (!favorite) throw notFound(`Favorite ${id} was not found`);
        const ticket = await keepFavoriteForUndo(tx, me, favorite.id, favorite.name);
        await favorites.delete(favorite.id);
        return ticket;
      });
    },

    /** Moves one of the caller's favorites to the end of another of their collections. */
    async moveFavorite(me: AuthContext, id: string, collectionId: string): Promise<void> {
      await db.transaction(async (tx) => {
        const access = createAccessService(tx);
        const favorites = createFavoritesRepository(tx);
        await lockPerson(tx, me.userId);
        const favorite = await favorites.findOwn(me.organizationId, me.userId, id);
        if (!favorite) throw notFound(`Favorite ${id} was not found`);
        const target = await access.owned(me, collectionId);
        assertNotShared(target);
        await access.hold(collectionId);
        await favorites.move(favorite.id, collectionId, await nextPosition(tx, collectionId));
      });
    },
  };
}
export type FavoritesService = ReturnType<typeof createFavoritesService>;
