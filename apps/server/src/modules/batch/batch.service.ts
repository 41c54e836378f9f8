import type { DeleteItemsBody, MoveItemsBody } from '@signpost/contract';
import type { Database } from '../../db/client.ts';
import { lockPerson } from '../../db/locks.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import type { AuditOrigin } from '../../lib/request-context.ts';
import type { CollectionsService } from '../collections/collections.service.ts';
import type { FavoritesService } from '../favorites/favorites.service.ts';
import type { LinksService } from '../links/links.service.ts';
import type { UndoService, UndoTicket } from '../undo/undo.service.ts';

export interface BatchDeps {
  db: Database;
  links: Pick<LinksService, 'moveIn' | 'deleteIn'>;
  collections: Pick<CollectionsService, 'updateIn' | 'deleteIn'>;
  favorites: Pick<FavoritesService, 'moveIn' | 'deleteIn'>;
  undo: Pick<UndoService, 'keepChange' | 'keepBatch'>;
}

type Chosen = MoveItemsBody['items'];

const idsOf = (items: Chosen, type: Chosen[number]['type']) =>
  items.filter((item) => item.type === type).map((item) => item.id);

/** "3 items": what the notice and the undo name a choice of several by. */
const labelOf = (items: Chosen) => (items.length === 1 ? '1 item' : `${items.length} items`);

/**
 * Several items at once (decision 0075): each goes through the same rules as when it moves
 * or is deleted alone — the same checks, the same audit entries — in one transaction, so that
 * one refusal changes nothing; and one undo takes them all back.
 */
export function createBatchService({ db, links, collections, favorites, undo }: BatchDeps) {
  return {
    /** Moves the items, in the order given, to the end of one collection of their space. */
    async moveItems(
      me: AuthContext,
      body: MoveItemsBody,
      origin?: AuditOrigin,
    ): Promise<UndoTicket | null> {
      const { items, collectionId } = body;
      return db.transaction(async (tx) => {
        // First, as every change to the shape of a person's tree (db/locks.ts).
        await lockPerson(tx, me.userId);
        const ticket = await undo.keepChange(
          tx,
          me,
          collectionId,
          labelOf(items),
          {
            links: idsOf(items, 'link'),
            collections: idsOf(items, 'collection'),
            favorites: idsOf(items, 'link-favorite'),
          },
          ['place'],
        );
        let moved = false;
        for (const item of items) {
          if (item.type === 'link') {
            moved =
              (await links.moveIn(tx, me, item.id, collectionId, origin, false)) !== null || moved;
          } else if (item.type === 'collection') {
            await collections.updateIn(tx, me, item.id, { parentId: collectionId }, origin, false);
            moved = true;
          } else {
            await favorites.moveIn(tx, me, item.id, collectionId);
            moved = true;
          }
        }
        return moved ? ticket : null;
      });
    },

    /** Deletes the items together; one undo brings them all back (decision 0076). */
    async deleteItems(
      me: AuthContext,
      body: DeleteItemsBody,
      origin?: AuditOrigin,
    ): Promise<UndoTicket> {
      const { items } = body;
      return db.transaction(async (tx) => {
        await lockPerson(tx, me.userId);
        const kept: string[] = [];
        for (const item of items) {
          const ticket =
            item.type === 'link'
              ? await links.deleteIn(tx, me, item.id, origin)
              : item.type === 'collection'
                ? await collections.deleteIn(tx, me, item.id, origin)
                : await favorites.deleteIn(tx, me, item.id);
          kept.push(ticket.id);
        }
        return undo.keepBatch(tx, me, kept, labelOf(items));
      });
    },
  };
}
export type BatchService = ReturnType<typeof createBatchService>;
