import type {
  CreateCollectionBody,
  OrderItemsBody,
  UpdateCollectionBody,
} from '@signpost/contract';
import type { Database, Executor } from '../../db/client.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { lockPerson } from '../../db/locks.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { cleanName } from '../../lib/names.ts';
import { createAccessService } from '../access/access.service.ts';
import { nextPosition } from '../../db/positions.ts';
import {
  createCollectionsRepository,
  type CollectionsRepository,
  type OrderedItem,
} from './collections.repository.ts';

/** Personal collections nest at most this many levels below My Space. */
export const MAX_DEPTH = 10;

function tools(tx: Executor) {
  return { access: createAccessService(tx), repo: createCollectionsRepository(tx) };
}

/** 409 when a tree `height` levels tall would sit too deep under `parentId`. */
async function checkDepth(repo: CollectionsRepository, parentId: string, height: number) {
  if ((await repo.depthOf(parentId)) + 1 + height > MAX_DEPTH) {
    throw conflict(`Collections nest at most ${MAX_DEPTH} levels below My Space.`);
  }
}

const key = (item: OrderedItem) => `${item.type}:${item.id}`;

/** True when `given` names every current item exactly once and nothing else. */
function sameItems(current: OrderedItem[], given: OrderedItem[]): boolean {
  const named = new Set(given.map(key));
  return (
    named.size === given.length &&
    given.length === current.length &&
    current.every((item) => named.has(key(item)))
  );
}

export function createCollectionsService(db: Database) {
  return {
    /** Adds a personal collection at the end of its parent: My Space unless one is named. */
    async createCollection(me: AuthContext, body: CreateCollectionBody): Promise<void> {
      const name = cleanName(body.name);
      await db.transaction(async (tx) => {
        const { access, repo } = tools(tx);
        await lockPerson(tx, me.userId);
        if (body.parentId) await access.owned(me, body.parentId);
        const parentId = body.parentId ?? (await repo.findRoot(me.userId));
        if (!parentId) throw notFound('My Space was not found');
        await access.hold(parentId);
        await checkDepth(repo, parentId, 0);
        await repo.insert({
          id: newId(),
          organizationId: me.organizationId,
          ownerType: 'user',
          ownerUserId: me.userId,
          parentId,
          name,
          description: body.description ?? '',
          color: body.color ?? null,
          position: await nextPosition(tx, parentId),
          createdBy: me.userId,
        });
      });
    },

    /** Edits a collection the caller owns; `parentId` moves it to the end of another. */
    async updateCollection(me: AuthContext, id: string, body: UpdateCollectionBody) {
      const name = body.name === undefined ? undefined : cleanName(body.name);
      await db.transaction(async (tx) => {
        const { access, repo } = tools(tx);
        // First, so that the share facts read below cannot change before this commits.
        await lockPerson(tx, me.userId);
        const { collection } = await access.owned(me, id);
        if (collection.isRoot) {
          if (body.parentId !== undefined) throw conflict('My Space cannot be moved.');
          // Sending the unchanged name back (a whole form) is not a rename.
          if (name !== undefined && name !== collection.name) {
            throw conflict('My Space cannot be renamed.');
          }
        }
        let move = {};
        if (body.parentId !== undefined && body.parentId !== collection.parentId) {
          const target = await access.owned(me, body.parentId);
          if (await access.isSelfOrAncestor(id, body.parentId)) {
            throw conflict('A collection cannot move into itself or one of its sub-collections.');
          }
          const facts = await repo.subtreeFacts(id);
          await checkDepth(repo, body.parentId, facts.height);
          if (target.collection.shareId && facts.hasShare) {
            throw conflict('Shares do not nest: a shared collection cannot go into a shared one.');
          }
          if (target.collection.shareId && facts.hasFavorites) {
            throw conflict(
              'Favorites are private: this collection holds favorites and cannot go into a shared one.',
            );
          }
          await access.hold(body.parentId);
          move = { parentId: body.parentId, position: await nextPosition(tx, body.parentId) };
        }
        await repo.update(id, {
          name,
          description: body.description,
          color: body.color,
          ...move,
        });
      });
    },

    /** Deletes a collection and, in the same transaction, everything inside it. */
    async deleteCollection(me: AuthContext, id: string): Promise<void> {
      await db.transaction(async (tx) => {
        const { access, repo } = tools(tx);
        const { collection } = await access.owned(me, id);
        if (collection.isRoot) throw conflict('My Space cannot be deleted.');
        await repo.delete(id);
      });
    },

    /** Puts the items of a collection in the given order; the list must be all of them. */
    async orderItems(me: AuthContext, id: string, body: OrderItemsBody): Promise<void> {
      await db.transaction(async (tx) => {
        const { access, repo } = tools(tx);
        await access.owned(me, id);
        await access.hold(id);
        if (!sameItems(await repo.listItems(id, me.userId), body.items)) {
          throw conflict('The collection changed; reload and try again.');
        }
        await repo.setOrder(id, body.items);
      });
    },
  };
}
export type CollectionsService = ReturnType<typeof createCollectionsService>;
