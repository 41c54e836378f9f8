import type {
  CreateCollectionBody,
  OrderItemsBody,
  UpdateCollectionBody,
} from '@signpost/contract';
import type { Database, Executor } from '../../db/client.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { lockPerson } from '../../db/locks.ts';
import { badRequest, conflict, notFound } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { cleanName } from '../../lib/names.ts';
import type { AccessService } from '../access/access.service.ts';
import { MAX_DEPTH } from '../access/permissions.ts';
import type { UndoService, UndoTicket } from '../undo/undo.service.ts';
import { changes, type AuditService, type ContentSpace } from '../audit/audit.service.ts';
import type { CollectionOwnerType } from '../../db/schema/index.ts';
import { findRoot, nextPosition, nextTopPosition } from '../../db/positions.ts';
import type { CollectionsRepository, OrderedItem } from './collections.repository.ts';
import { type AuditOrigin } from '../../lib/request-context.ts';

interface Owner {
  ownerType: CollectionOwnerType;
  ownerTeamId: string | null;
}

export { MAX_DEPTH };

/** 409 when a tree `height` levels tall would sit too deep under `parentId`. */
async function checkDepth(access: AccessService, tx: Executor, parentId: string, height: number) {
  if ((await access.depthOf(tx, parentId)) + 1 + height > MAX_DEPTH) {
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

const fieldsOf = (c: { name: string; description: string; color: string | null }) => ({
  name: c.name,
  description: c.description,
  color: c.color,
});

export interface CollectionsDeps {
  db: Database;
  collections: CollectionsRepository;
  access: AccessService;
  audit: AuditService;
  undo: UndoService;
}

export function createCollectionsService({
  db,
  collections: repo,
  access,
  audit,
  undo,
}: CollectionsDeps) {
  /** Where a new collection goes and whose it is: a parent's space, or a space's top level. */
  async function placeOf(
    tx: Executor,
    me: AuthContext,
    body: CreateCollectionBody,
  ): Promise<{
    parentId: string | null;
    owner: Owner;
    space: ContentSpace;
    relation?: string;
    position: number;
  }> {
    if (body.spaceId) {
      if (body.parentId) throw badRequest('body: name either parentId or spaceId, not both');
      const space = await access.space(tx, me, body.spaceId);
      const teamId = space.type === 'team' ? space.id : null;
      return {
        parentId: null,
        owner: { ownerType: space.type, ownerTeamId: teamId },
        space: space.type,
        relation: space.relation,
        position: await nextTopPosition(tx, me.organizationId, teamId),
      };
    }
    const parent = body.parentId
      ? await access.allowed(tx, me, body.parentId, 'addCollection')
      : null;
    const parentId = parent ? parent.collection.id : await findRoot(tx, me.userId);
    if (!parentId) throw notFound('My Space was not found');
    await access.hold(tx, parentId);
    await checkDepth(access, tx, parentId, 0);
    const owner: Owner = parent
      ? { ownerType: parent.collection.ownerType, ownerTeamId: parent.collection.ownerTeamId }
      : { ownerType: 'user', ownerTeamId: null };
    return {
      parentId,
      owner,
      space: parent?.space ?? 'personal',
      relation: parent?.relation,
      position: await nextPosition(tx, parentId),
    };
  }

  /**
   * Edits a collection inside the caller's transaction; `parentId` moves it to the end of
   * another of the same space. `keep`: kept for an undo of its own (a move of several keeps
   * them all first). Null when nothing changed.
   */
  async function updateIn(
    tx: Executor,
    me: AuthContext,
    id: string,
    body: UpdateCollectionBody,
    origin: AuditOrigin | undefined,
    keep: boolean,
  ): Promise<UndoTicket | null> {
    const name = body.name === undefined ? undefined : cleanName(body.name);
    // First, so that the share facts read below cannot change before this commits.
    await lockPerson(tx, me.userId);
    const source = await access.allowed(tx, me, id, 'edit');
    const { collection } = source;
    if (collection.isRoot) {
      if (body.parentId !== undefined) throw conflict('My Space cannot be moved.');
      // Sending the unchanged name back (a whole form) is not a rename.
      if (name !== undefined && name !== collection.name) {
        throw conflict('My Space cannot be renamed.');
      }
    }
    let move: { parentId?: string; position?: number } = {};
    if (body.parentId !== undefined && body.parentId !== collection.parentId) {
      if (!source.can.move) throw conflict('This collection cannot be moved.');
      const target = await access.allowed(tx, me, body.parentId, 'addCollection');
      access.sameSpace(source, target);
      if (await access.isSelfOrAncestor(tx, id, body.parentId)) {
        throw conflict('A collection cannot move into itself or one of its sub-collections.');
      }
      const facts = await repo.subtreeFacts(tx, id);
      await checkDepth(access, tx, body.parentId, facts.height);
      if (target.collection.shareId && facts.hasShare) {
        throw conflict('Shares do not nest: a shared collection cannot go into a shared one.');
      }
      if (target.collection.shareId && facts.hasFavorites) {
        throw conflict(
          'Favorites are private: this collection holds favorites and cannot go into a shared one.',
        );
      }
      await access.hold(tx, body.parentId);
      move = { parentId: body.parentId, position: await nextPosition(tx, body.parentId) };
    }
    const fields = { name, description: body.description, color: body.color };
    const edited = changes(fieldsOf(collection), fields);
    // Sent back as it is (a whole form, a move to where it is): nothing is written, so
    // no one's menu is told of a change.
    if (!edited && !move.parentId) return null;
    const ticket = keep
      ? await undo.keepChange(tx, me, id, name ?? collection.name, { collections: [id] }, [
          ...(edited ? (['edit'] as const) : []),
          ...(move.parentId ? (['place'] as const) : []),
        ])
      : null;
    await repo.update(tx, id, { ...fields, ...move });
    const target = { type: 'collection', id, label: name ?? collection.name } as const;
    if (edited) {
      await audit.recordContentChange(tx, me, origin, source, {
        action: 'content.collection-updated',
        target,
        ...edited,
      });
    }
    if (move.parentId) {
      await audit.recordContentChange(tx, me, origin, source, {
        action: 'content.collection-moved',
        target,
        before: { parentId: collection.parentId },
        after: { parentId: move.parentId },
      });
    }
    return ticket;
  }

  /** Deletes a collection and everything inside it, inside the caller's transaction. */
  async function deleteIn(
    tx: Executor,
    me: AuthContext,
    id: string,
    origin?: AuditOrigin,
  ): Promise<UndoTicket> {
    const source = await access.collection(tx, me, id);
    const { collection } = source;
    if (collection.isRoot && source.relation === 'owner') {
      throw conflict('My Space cannot be deleted.');
    }
    await access.allowed(tx, me, id, 'delete');
    const kind = collection.shareCollectionId === id ? 'share' : 'collection';
    const ticket = await undo.keepCollection(tx, me, kind, id, collection.name);
    await repo.delete(tx, id);
    await audit.recordContentChange(tx, me, origin, source, {
      action: 'content.collection-deleted',
      target: { type: 'collection', id, label: collection.name },
      before: { ...fieldsOf(collection), parentId: collection.parentId },
    });
    return ticket;
  }

  return {
    /**
     * Adds a collection at the end of its parent: My Space unless one is named, or at the top
     * of a team or organization space that the caller runs (`spaceId`). Audited outside the
     * personal space.
     */
    async createCollection(
      me: AuthContext,
      body: CreateCollectionBody,
      origin?: AuditOrigin,
    ): Promise<void> {
      const name = cleanName(body.name);
      await db.transaction(async (tx) => {
        await lockPerson(tx, me.userId);
        const place = await placeOf(tx, me, body);
        const id = newId();
        const fields = { name, description: body.description ?? '', color: body.color ?? null };
        await repo.insert(tx, {
          id,
          organizationId: me.organizationId,
          ownerType: place.owner.ownerType,
          ownerUserId: place.owner.ownerType === 'user' ? me.userId : null,
          ownerTeamId: place.owner.ownerTeamId,
          parentId: place.parentId,
          ...fields,
          position: place.position,
          createdBy: me.userId,
        });
        await audit.recordContentChange(tx, me, origin, place, {
          action: 'content.collection-created',
          target: { type: 'collection', id, label: name },
          after: { ...fields, parentId: place.parentId },
        });
      });
    },

    /** Edits a collection; `parentId` moves it to the end of another of the same space. */
    updateCollection: (
      me: AuthContext,
      id: string,
      body: UpdateCollectionBody,
      origin?: AuditOrigin,
    ): Promise<UndoTicket | null> =>
      db.transaction((tx) => updateIn(tx, me, id, body, origin, true)),

    /**
     * Deletes a collection and, in the same transaction, everything inside it; restorable
     * for a while (decision 0052).
     */
    deleteCollection: (me: AuthContext, id: string, origin?: AuditOrigin): Promise<UndoTicket> =>
      db.transaction((tx) => deleteIn(tx, me, id, origin)),

    updateIn,
    deleteIn,

    /** Puts the items of a collection in the given order; the list must be all of them. */
    async orderItems(
      me: AuthContext,
      id: string,
      body: OrderItemsBody,
      origin?: AuditOrigin,
    ): Promise<UndoTicket> {
      return db.transaction(async (tx) => {
        const source = await access.allowed(tx, me, id, 'reorder');
        await access.hold(tx, id);
        const current = await repo.listItems(tx, id, me.userId);
        if (!sameItems(current, body.items)) {
          throw conflict('The collection changed; reload and try again.');
        }
        const ticket = await undo.keepOrder(tx, me, id, source.collection.name);
        await repo.setOrder(tx, id, body.items);
        await audit.recordContentChange(tx, me, origin, source, {
          action: 'content.collection-reordered',
          target: { type: 'collection', id, label: source.collection.name },
          before: { items: current.map(key) },
          after: { items: body.items.map(key) },
        });
        return ticket;
      });
    },
  };
}
export type CollectionsService = ReturnType<typeof createCollectionsService>;
