import type { Database, Executor } from '../../db/client.ts';
import { lockPerson } from '../../db/locks.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { conflict, forbidden, notFound } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { linkCan } from '../access/permissions.ts';
import type { AccessService, CollectionAccess } from '../access/access.service.ts';
import { nextPosition } from '../../db/positions.ts';
import type { UndoService, UndoTicket } from '../undo/undo.service.ts';
import type { FavoritesRepository } from './favorites.repository.ts';

const MEMBERS_ONLY = 'Favorites are for the members of the team.';

/** Favorites are private: members of a share would otherwise see them. */
function assertNotShared(target: CollectionAccess) {
  if (target.collection.shareId) {
    throw conflict(
      'Favorites are private: they go in one of your own collections that is not shared.',
    );
  }
}

export interface FavoritesDeps {
  db: Database;
  favorites: FavoritesRepository;
  access: AccessService;
  undo: UndoService;
}

export function createFavoritesService({ db, favorites, access, undo }: FavoritesDeps) {
  /** Removes one of the caller's favorites inside their transaction, kept for an undo. */
  async function deleteIn(tx: Executor, me: AuthContext, id: string): Promise<UndoTicket> {
    const favorite = await favorites.findOwn(tx, me.organizationId, me.userId, id);
    if (!favorite) throw notFound(`Favorite ${id} was not found`);
    const ticket = await undo.keepFavorite(tx, me, favorite.id, favorite.name);
    await favorites.delete(tx, favorite.id);
    return ticket;
  }

  /** Moves one of the caller's favorites inside their transaction. */
  async function moveIn(tx: Executor, me: AuthContext, id: string, collectionId: string) {
    await lockPerson(tx, me.userId);
    const favorite = await favorites.findOwn(tx, me.organizationId, me.userId, id);
    if (!favorite) throw notFound(`Favorite ${id} was not found`);
    const target = await access.owned(tx, me, collectionId);
    assertNotShared(target);
    await access.hold(tx, collectionId);
    await favorites.move(tx, favorite.id, collectionId, await nextPosition(tx, collectionId));
  }

  return {
    /** Favorites a team or organization link, at the end of one of the caller's collections. */
    async createFavorite(me: AuthContext, collectionId: string, linkId: string): Promise<void> {
      await db.transaction(async (tx) => {
        // After any share of the caller's in flight: favorites never land in a shared tree.
        await lockPerson(tx, me.userId);
        // Both ids are authorized on their own: the place and the link.
        const target = await access.owned(tx, me, collectionId);
        const source = await access.link(tx, me, linkId);
        if (source.in.space === 'personal') {
          throw conflict(
            'Only team and organization links can be favorites; this link is personal.',
          );
        }
        if (!linkCan(source.in.relation, false).favorite) throw forbidden(MEMBERS_ONLY);
        assertNotShared(target);
        if (await favorites.existsForLink(tx, me.userId, linkId)) {
          throw conflict('This link is already one of your favorites.');
        }
        await access.hold(tx, collectionId);
        await favorites.insert(tx, {
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
    deleteFavorite: (me: AuthContext, id: string): Promise<UndoTicket> =>
      db.transaction((tx) => deleteIn(tx, me, id)),

    /** Moves one of the caller's favorites to the end of another of their collections. */
    moveFavorite: async (me: AuthContext, id: string, collectionId: string): Promise<void> => {
      await db.transaction((tx) => moveIn(tx, me, id, collectionId));
    },

    deleteIn,
    moveIn,
  };
}
export type FavoritesService = ReturnType<typeof createFavoritesService>;
