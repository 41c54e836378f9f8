import { UNDO_WINDOW_SECONDS } from '@signpost/contract';
import type { Database, Executor } from '../../db/client.ts';
import { isForeignKeyViolation } from '../../db/errors.ts';
import { lockPerson } from '../../db/locks.ts';
import type { UndoKind } from '../../db/schema/index.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { AppError, conflict, forbidden, notFound } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import type { AccessService, CollectionAccess } from '../access/access.service.ts';
import { linkCan, MAX_DEPTH } from '../access/permissions.ts';
import { auditOf, type AuditService } from '../audit/audit.service.ts';
import type { SQL } from 'drizzle-orm';
import {
  batchRows,
  changedRows,
  type ChangedIds,
  collectionRows,
  type Reverted,
  itemsOfRows,
  type UndoRepository,
  favoriteRows,
  linkRows,
  membershipRows,
  importRows,
  type ImportedIds,
  type SnapshotRows,
  type SnapshotRow,
} from './undo.repository.ts';
import { type AuditOrigin } from '../../lib/request-context.ts';

/** What a deletion answers with: the snapshot to restore, and until when it can be. */
export interface UndoTicket {
  id: string;
  expiresAt: Date;
}

const NOTHING_TO_UNDO = (id: string) =>
  `Nothing to undo with ${id}: it was never yours to undo, or its time ran out long ago.`;
const ALREADY_UNDONE = 'This was already undone.';
const TOO_LATE = `This can no longer be undone: a deletion can be undone for ${UNDO_WINDOW_SECONDS} seconds.`;
const PLACE_GONE = 'It cannot come back: the collection it was in has been deleted since.';
const SOMETHING_GONE = 'It cannot come back: something it belonged to has been deleted since.';
const NO_LONGER_YOURS = 'You can no longer change the place it was in, so it cannot come back.';
const CHANGED_GONE = 'It cannot be undone: what it changed has been deleted since.';
const CHANGE_NOT_YOURS = 'You can no longer change this, so it cannot be undone.';

const gone = (message: string) => new AppError(410, 'GONE', message);

/**
 * Keeps what a deletion is about to remove, inside the deletion's transaction and before
 * it, so that the person who deleted it can restore it (decision 0052).
 */
async function keep(
  repository: UndoRepository,
  tx: Executor,
  me: AuthContext,
  kind: UndoKind,
  targetId: string,
  label: string,
  rows: SQL,
): Promise<UndoTicket> {
  const id = newId();
  const expiresAt = await repository.insert(
    tx,
    { id, organizationId: me.organizationId, userId: me.userId, kind, targetId, label },
    rows,
    UNDO_WINDOW_SECONDS,
  );
  return { id, expiresAt };
}

const str = (row: Record<string, unknown> | undefined, key: string) =>
  (row?.[key] as string | null | undefined) ?? null;

/** Levels below the top of a snapshot's tree: 0 when it has no sub-collections. */
function heightOf(rows: SnapshotRows, topId: string): number {
  const parentOf = new Map(rows.collections.map((c) => [str(c, 'id')!, str(c, 'parent_id')]));
  let height = 0;
  for (const id of parentOf.keys()) {
    let depth = 0;
    for (let at: string | null = id; at && at !== topId && depth < 100; at = parentOf.get(at)!) {
      depth += 1;
    }
    height = Math.max(height, depth);
  }
  return height;
}

export interface UndoDeps {
  db: Database;
  undo: UndoRepository;
  access: AccessService;
  audit: AuditService;
}

/**
 * Undo (decision 0052): what a deletion removes is kept first, in its transaction, so that
 * the person who deleted it can restore it for a while.
 */
export function createUndoService({ db, undo: repo, access, audit }: UndoDeps) {
  /** The place the snapshot goes back into, authorized again as at a deletion. */
  async function checkPlace(tx: Executor, me: AuthContext, snap: SnapshotRow) {
    /** A place the person no longer sees is one they can no longer change. */
    const see = async (id: string): Promise<CollectionAccess> => {
      if (!(await repo.collectionExists(tx, id))) throw conflict(PLACE_GONE);
      try {
        return await access.collection(tx, me, id);
      } catch (error) {
        if (error instanceof AppError && error.statusCode === 404) {
          throw forbidden(NO_LONGER_YOURS);
        }
        throw error;
      }
    };
    const { rows } = snap;
    switch (snap.kind) {
      case 'change':
      case 'batch':
      case 'import':
        // Reverted by revertChange, which authorizes each of its parts; a batch by its parts.
        return null;
      case 'link': {
        const link = rows.links[0];
        const place = await see(str(link, 'collection_id')!);
        if (!linkCan(place.relation, str(link, 'created_by') === me.userId).delete) {
          throw forbidden(NO_LONGER_YOURS);
        }
        await access.hold(tx, place.collection.id);
        return place;
      }
      case 'favorite': {
        const favorite = rows.favorites[0];
        const place = await see(str(favorite, 'collection_id')!);
        if (place.relation !== 'owner') throw forbidden(NO_LONGER_YOURS);
        if (place.collection.shareId) {
          throw conflict('Favorites are private: the collection it was in is shared now.');
        }
        const linkId = str(favorite, 'link_id')!;
        if (!(await repo.linkExists(tx, linkId))) {
          throw conflict('It cannot come back: its link has been deleted since.');
        }
        const source = await access.link(tx, me, linkId).catch(() => {
          throw forbidden('You can no longer see this link, so it cannot be a favorite again.');
        });
        if (!linkCan(source.in.relation, false).favorite) {
          throw forbidden('Favorites are for the members of the team.');
        }
        if (await repo.favoriteExists(tx, me.userId, linkId)) {
          throw conflict('This link is already one of your favorites.');
        }
        await access.hold(tx, place.collection.id);
        return place;
      }
      case 'membership': {
        const shareId = str(rows.members[0], 'share_id')!;
        if (!(await repo.shareExists(tx, shareId))) {
          throw conflict('It cannot come back: the shared collection has been deleted since.');
        }
        if (await repo.isMember(tx, shareId, me.userId)) {
          throw conflict('You are a member of this shared collection again already.');
        }
        // A member through a team only (decision 0086) comes back while still in one of its teams.
        if (
          rows.members[0]?.direct === false &&
          !(await repo.throughTeam(tx, shareId, me.userId))
        ) {
          throw conflict(
            'It cannot come back: you are no longer in a team this collection is shared with.',
          );
        }
        return null;
      }
      case 'collection':
      case 'share': {
        const top = rows.collections.find((c) => str(c, 'id') === snap.targetId);
        const parentId = str(top, 'parent_id');
        if (!parentId) {
          // A top-level collection of a team or the organization: the people who run it.
          await access.space(tx, me, str(top, 'owner_team_id') ?? me.organizationId);
          return null;
        }
        const place = await see(parentId);
        if (!place.can.addCollection) throw forbidden(NO_LONGER_YOURS);
        if ((await access.depthOf(tx, parentId)) + 1 + heightOf(rows, snap.targetId) > MAX_DEPTH) {
          throw conflict(
            `It cannot come back: collections nest at most ${MAX_DEPTH} levels below My Space.`,
          );
        }
        if (place.collection.shareId && rows.shares.length > 0) {
          throw conflict('It cannot come back: shares do not nest, and its place is shared now.');
        }
        const ownFavorites = rows.favorites.some((f) =>
          rows.collections.some((c) => str(c, 'id') === str(f, 'collection_id')),
        );
        if (place.collection.shareId && ownFavorites) {
          throw conflict('It cannot come back: it holds favorites, and its place is shared now.');
        }
        await access.hold(tx, parentId);
        return place;
      }
    }
  }

  /** The audit entry of a restore: what the deletion recorded, undone. */
  async function record(
    tx: Executor,
    me: AuthContext,
    origin: AuditOrigin,
    snap: SnapshotRow,
    place: CollectionAccess | null,
  ) {
    const { rows } = snap;
    const top = rows.collections.find((c) => str(c, 'id') === snap.targetId);
    switch (snap.kind) {
      case 'link': {
        const link = rows.links[0];
        await audit.recordContentChange(tx, me, origin, place!, {
          action: 'content.link-restored',
          target: { type: 'link', id: snap.targetId, label: snap.label },
          after: {
            name: str(link, 'name'),
            description: str(link, 'description'),
            url: str(link, 'url'),
            collectionId: str(link, 'collection_id'),
          },
        });
        return;
      }
      case 'collection':
        await audit.recordContentChange(
          tx,
          me,
          origin,
          str(top, 'owner_type') === 'user' ? 'personal' : (str(top, 'owner_type') as 'team'),
          {
            action: 'content.collection-restored',
            target: { type: 'collection', id: snap.targetId, label: snap.label },
            after: { name: snap.label, parentId: str(top, 'parent_id') },
          },
        );
        return;
      case 'share': {
        const share = rows.shares.find((s) => str(s, 'collection_id') === snap.targetId);
        await audit.record(tx, {
          ...auditOf(me, origin),
          action: 'share.restored',
          target: { type: 'share', id: str(share, 'id') ?? snap.targetId, label: snap.label },
          after: { collectionId: snap.targetId, name: snap.label },
        });
        return;
      }
      case 'membership':
        await audit.record(tx, {
          ...auditOf(me, origin),
          action: 'share.member-added',
          target: { type: 'person', id: me.userId },
          details: { shareId: snap.targetId, collection: snap.label, undo: true },
        });
        return;
      case 'favorite':
        // Favorites are the person's own and were not recorded when deleted either.
        return;
      case 'change':
      case 'batch':
        // Recorded part by part.
        return;
      case 'import':
        // Recorded by removeImport.
        return;
    }
  }

  /** Runs an authorization; a refusal, or a place no longer seen, is a change no longer theirs. */
  const stillMine = async <T>(check: Promise<T>): Promise<T> => {
    try {
      return await check;
    } catch (error) {
      if (error instanceof AppError && (error.statusCode === 404 || error.statusCode === 403)) {
        throw forbidden(CHANGE_NOT_YOURS);
      }
      throw error;
    }
  };

  /**
   * Undoes a change (decision 0076): every row it changed must still be there, and the
   * person must still be allowed each part of going back — to edit what was edited, to take
   * what moved out of where it is and add it where it was, to reorder where only the order
   * changed. Then the rows' fields are written back, and each part is audited as the change
   * it makes, marked as an undo.
   */
  async function revertChange(
    tx: Executor,
    me: AuthContext,
    origin: AuditOrigin,
    snap: SnapshotRow,
  ) {
    const was = snap.rows;
    const now = await repo.currentRows(tx, was);
    if (
      now.links.length !== was.links.length ||
      now.collections.length !== was.collections.length ||
      now.favorites.length !== was.favorites.length
    ) {
      throw conflict(CHANGED_GONE);
    }
    const nowById = new Map(
      [...now.links, ...now.collections, ...now.favorites].map((row) => [str(row, 'id')!, row]),
    );
    const differs = (row: Record<string, unknown>, keys: readonly string[]) =>
      keys.filter((key) => (row[key] ?? null) !== (nowById.get(str(row, 'id')!)?.[key] ?? null));
    const reordered = new Set<string>();
    const audits: (() => Promise<void>)[] = [];
    // Only what the change changed goes back: a link renamed since a new order keeps its name.
    const revert = was.revert ?? ['edit', 'place'];
    const editsBack = revert.includes('edit');
    const placeBack = revert.includes('place');
    /** Where a row stands after the undo: as it was when the change moved it, else as now. */
    const placed = (row: Record<string, unknown>, column: string) =>
      str(placeBack ? row : nowById.get(str(row, 'id')!), column);

    for (const link of was.links) {
      const id = str(link, 'id')!;
      const current = nowById.get(id)!;
      const { in: source } = await stillMine(access.changeableLink(tx, me, id));
      const fields = editsBack ? differs(link, ['name', 'description', 'url', 'app_name']) : [];
      const from = str(current, 'collection_id')!;
      const to = placed(link, 'collection_id')!;
      if (from !== to) {
        if (!(await repo.collectionExists(tx, to))) throw conflict(PLACE_GONE);
        await stillMine(access.contributable(tx, me, to));
        await access.hold(tx, to);
        audits.push(() =>
          audit.recordContentChange(tx, me, origin, source, {
            action: 'content.link-moved',
            target: { type: 'link', id, label: str(link, 'name')! },
            before: { collectionId: from },
            after: { collectionId: to },
            details: { undo: true },
          }),
        );
      } else if (placeBack && link.position !== current.position) {
        reordered.add(to);
      }
      if (fields.length > 0) {
        const pick = (row: Record<string, unknown>) =>
          Object.fromEntries(
            fields.map((key) => [key === 'app_name' ? 'appName' : key, row[key] ?? null]),
          );
        audits.push(() =>
          audit.recordContentChange(tx, me, origin, source, {
            action: 'content.link-updated',
            target: { type: 'link', id, label: str(link, 'name')! },
            before: pick(current),
            after: pick(link),
            details: { undo: true },
          }),
        );
      }
    }

    for (const collection of was.collections) {
      const id = str(collection, 'id')!;
      const current = nowById.get(id)!;
      const fields = editsBack ? differs(collection, ['name', 'description', 'color']) : [];
      const from = str(current, 'parent_id');
      const to = placed(collection, 'parent_id');
      if (fields.length === 0 && from === to) {
        if (placeBack && collection.position !== current.position && to) reordered.add(to);
        continue;
      }
      const source = await stillMine(access.allowed(tx, me, id, 'edit'));
      if (from !== to && to) {
        if (!(await repo.collectionExists(tx, to))) throw conflict(PLACE_GONE);
        if (!source.can.move) throw forbidden(CHANGE_NOT_YOURS);
        await stillMine(access.allowed(tx, me, to, 'addCollection'));
        if (await access.isSelfOrAncestor(tx, id, to)) {
          throw conflict('It cannot be undone: the place it was in has moved into it since.');
        }
        if ((await access.depthOf(tx, to)) + 1 + (await repo.heightBelow(tx, id)) > MAX_DEPTH) {
          throw conflict(
            `It cannot be undone: collections nest at most ${MAX_DEPTH} levels below My Space.`,
          );
        }
        await access.hold(tx, to);
        audits.push(() =>
          audit.recordContentChange(tx, me, origin, source, {
            action: 'content.collection-moved',
            target: { type: 'collection', id, label: str(collection, 'name')! },
            before: { parentId: from },
            after: { parentId: to },
            details: { undo: true },
          }),
        );
      } else if (from !== to) {
        // Top-level collections do not move (decision 0008): no change kept one.
        throw conflict(CHANGED_GONE);
      }
      if (fields.length > 0) {
        const pick = (row: Record<string, unknown>) =>
          Object.fromEntries(fields.map((key) => [key, row[key] ?? null]));
        audits.push(() =>
          audit.recordContentChange(tx, me, origin, source, {
            action: 'content.collection-updated',
            target: { type: 'collection', id, label: str(collection, 'name')! },
            before: pick(current),
            after: pick(collection),
            details: { undo: true },
          }),
        );
      }
    }

    for (const favorite of placeBack ? was.favorites : []) {
      const current = nowById.get(str(favorite, 'id')!)!;
      const from = str(current, 'collection_id')!;
      const to = str(favorite, 'collection_id')!;
      if (from === to) {
        if (favorite.position !== current.position) reordered.add(to);
        continue;
      }
      if (!(await repo.collectionExists(tx, to))) throw conflict(PLACE_GONE);
      const place = await stillMine(access.collection(tx, me, to));
      if (place.relation !== 'owner' || place.collection.shareId) throw forbidden(CHANGE_NOT_YOURS);
      await access.hold(tx, to);
    }

    for (const collectionId of reordered) {
      const place = await stillMine(access.allowed(tx, me, collectionId, 'reorder'));
      await access.hold(tx, collectionId);
      audits.push(() =>
        audit.recordContentChange(tx, me, origin, place, {
          action: 'content.collection-reordered',
          target: { type: 'collection', id: collectionId, label: place.collection.name },
          details: { undo: true },
        }),
      );
    }

    await repo.revert(tx, was);
    for (const write of audits) await write();
  }

  /** Undoes one snapshot (not a batch) inside the caller's transaction. */
  /**
   * Undoes an import (decision 0087): takes away what it made, while the person may still
   * delete it and nothing was put into it since (409: that would go too).
   */
  async function removeImport(
    tx: Executor,
    me: AuthContext,
    origin: AuditOrigin,
    snap: SnapshotRow,
  ) {
    const made = snap.rows.imported;
    if (!made) throw conflict(SOMETHING_GONE);
    if (await repo.importHoldsOthers(tx, made.collections, made.links)) {
      throw conflict(
        'It cannot be undone: something was added to the imported collections since. Delete what you no longer want instead.',
      );
    }
    let place: CollectionAccess | null = null;
    for (const id of made.top.collections) {
      if (!(await repo.collectionExists(tx, id))) continue;
      place = await stillMine(access.allowed(tx, me, id, 'delete'));
    }
    for (const id of made.top.links) {
      if (!(await repo.linkExists(tx, id))) continue;
      place = (await stillMine(access.changeableLink(tx, me, id))).in;
    }
    await repo.deleteImported(tx, made.collections, made.links);
    await repo.markUndone(tx, snap.id);
    if (place) {
      await audit.recordContentChange(tx, me, origin, place, {
        action: 'content.bookmarks-import-undone',
        target: { type: 'collection', id: snap.targetId, label: snap.label },
        before: { links: made.links.length, collections: made.collections.length },
      });
    }
  }

  async function restoreOne(tx: Executor, me: AuthContext, origin: AuditOrigin, snap: SnapshotRow) {
    if (snap.kind === 'import') {
      await removeImport(tx, me, origin, snap);
      return;
    }
    if (snap.kind === 'change') {
      await revertChange(tx, me, origin, snap);
      await repo.markUndone(tx, snap.id);
      return;
    }
    const place = await checkPlace(tx, me, snap);
    try {
      await repo.restore(tx, snap.rows);
    } catch (error) {
      if (isForeignKeyViolation(error)) throw conflict(SOMETHING_GONE);
      throw error;
    }
    await repo.markUndone(tx, snap.id);
    await record(tx, me, origin, snap, place);
  }

  return {
    /**
     * Restores what a deletion of the caller's removed, in one transaction, with the same
     * ids: 404 for an id that is not theirs, 410 once it expired or was undone, and the
     * place it goes back to is authorized again (409 when it has gone, 403 when the person
     * may no longer change it).
     */
    async undo(me: AuthContext, id: string, origin: AuditOrigin): Promise<void> {
      await db.transaction(async (tx) => {
        // First, as every change to the shape of a person's tree (db/locks.ts).
        await lockPerson(tx, me.userId);
        const snap = await repo.findOwnForUpdate(tx, me.organizationId, me.userId, id);
        if (!snap) throw notFound(NOTHING_TO_UNDO(id));
        if (snap.undoneAt) throw gone(ALREADY_UNDONE);
        if (snap.expired) throw gone(TOO_LATE);
        if (snap.kind === 'batch') {
          // Each deletion of the several, last first, in this one transaction; one already
          // undone on its own is back, and is left as it is.
          for (const childId of [...(snap.rows.batch ?? [])].reverse()) {
            const child = await repo.findOwnForUpdate(tx, me.organizationId, me.userId, childId);
            if (!child || child.undoneAt) continue;
            if (child.expired) throw gone(TOO_LATE);
            await restoreOne(tx, me, origin, child);
          }
          await repo.markUndone(tx, snap.id);
          return;
        }
        await restoreOne(tx, me, origin, snap);
      });
    },

    /** Before a link is deleted: it, and everyone's favorites of it. */
    keepLink: (tx: Executor, me: AuthContext, linkId: string, label: string) =>
      keep(repo, tx, me, 'link', linkId, label, linkRows(linkId)),

    /**
     * Before a collection is deleted (`share`: a shared collection, by its owner): it, every
     * collection, link and favorite inside it, everyone's favorites of those links, shares with
     * their members, suggestions.
     */
    keepCollection: (
      tx: Executor,
      me: AuthContext,
      kind: 'collection' | 'share',
      collectionId: string,
      label: string,
    ) => keep(repo, tx, me, kind, collectionId, label, collectionRows(collectionId)),

    /**
     * Before an edit or a move (decision 0076): the rows it is about to change, whole, so
     * that undoing it writes their fields back.
     */
    keepChange: (
      tx: Executor,
      me: AuthContext,
      targetId: string,
      label: string,
      ids: ChangedIds,
      revert: readonly Reverted[],
    ) => keep(repo, tx, me, 'change', targetId, label, changedRows(ids, revert)),

    /** Before a new order of a collection's items: every item of it, with its position. */
    keepOrder: (tx: Executor, me: AuthContext, collectionId: string, label: string) =>
      keep(repo, tx, me, 'change', collectionId, label, itemsOfRows(collectionId)),

    /** After a deletion of several items: one undo for the snapshots each of them kept. */
    keepBatch: (tx: Executor, me: AuthContext, ids: readonly string[], label: string) =>
      keep(repo, tx, me, 'batch', ids[0] ?? '', label, batchRows(ids)),

    /** Before one of the person's favorites is deleted. */
    keepFavorite: (tx: Executor, me: AuthContext, favoriteId: string, label: string) =>
      keep(repo, tx, me, 'favorite', favoriteId, label, favoriteRows(favoriteId)),

    /** Before the person leaves a share: their membership. */
    keepMembership: (tx: Executor, me: AuthContext, shareId: string, label: string) =>
      keep(repo, tx, me, 'membership', shareId, label, membershipRows(shareId, me.userId)),

    /** After an import: what it made, so that undoing it takes that away (decision 0087). */
    keepImport: (
      tx: Executor,
      me: AuthContext,
      targetId: string,
      label: string,
      ids: ImportedIds,
    ) => keep(repo, tx, me, 'import', targetId, label, importRows(ids)),

    /** Deletes expired snapshots (the periodic purge); how many went. */
    purgeExpired: (): Promise<number> => repo.purge(db),
  };
}
export type UndoService = ReturnType<typeof createUndoService>;
