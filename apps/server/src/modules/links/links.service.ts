import type { CreateLinkBody, SuggestLinkBody, UpdateLinkBody } from '@signpost/contract';
import type { Database, Executor } from '../../db/client.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { conflict, forbidden } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { cleanName } from '../../lib/names.ts';
import { normalizeUrl } from '../../lib/urls.ts';
import type { AccessService } from '../access/access.service.ts';
import { auditOf, changes, type AuditService } from '../audit/audit.service.ts';
import type { IconsService } from '../icons/icons.service.ts';
import type { UndoService, UndoTicket } from '../undo/undo.service.ts';
import type { LinksRepository } from './links.repository.ts';
import { type AuditOrigin } from '../../lib/request-context.ts';

export interface LinksDeps {
  db: Database;
  links: LinksRepository;
  access: AccessService;
  audit: AuditService;
  undo: UndoService;
  /** Asked for a round soon once a link's address is saved, so that its icon comes at once. */
  icons: Pick<IconsService, 'lookSoon'>;
}

export function createLinksService({ db, links, access, audit, undo, icons }: LinksDeps) {
  /** Deletes a link inside the caller's transaction, keeping it for an undo. */
  async function deleteIn(
    tx: Executor,
    me: AuthContext,
    id: string,
    origin?: AuditOrigin,
  ): Promise<UndoTicket> {
    const { link, in: source } = await access.changeableLink(tx, me, id);
    const ticket = await undo.keepLink(tx, me, id, link.name);
    await links.delete(tx, id);
    await audit.recordContentChange(tx, me, origin, source, {
      action: 'content.link-deleted',
      target: { type: 'link', id, label: link.name },
      before: {
        name: link.name,
        description: link.description,
        url: link.url,
        collectionId: link.collectionId,
      },
    });
    return ticket;
  }

  /**
   * Moves a link inside the caller's transaction; `keep`: kept for an undo of its own (a
   * move of several keeps them all first). Null when it is there already; else the move,
   * with its undo when kept.
   */
  async function moveIn(
    tx: Executor,
    me: AuthContext,
    id: string,
    collectionId: string,
    origin: AuditOrigin | undefined,
    keep: boolean,
  ): Promise<{ ticket: UndoTicket | null } | null> {
    const { link, in: source } = await access.changeableLink(tx, me, id);
    const target = await access.contributable(tx, me, collectionId);
    // Already there: a repeated PUT changes nothing, not even the position.
    if (link.collectionId === collectionId) return null;
    access.sameSpace(source, target);
    await access.hold(tx, collectionId);
    const ticket = keep
      ? await undo.keepChange(tx, me, id, link.name, { links: [id] }, ['place'])
      : null;
    await links.moveToEnd(tx, id, collectionId);
    await audit.recordContentChange(tx, me, origin, source, {
      action: 'content.link-moved',
      target: { type: 'link', id, label: link.name },
      before: { collectionId: link.collectionId },
      after: { collectionId },
    });
    return { ticket };
  }

  return {
    /**
     * Adds a link at the end of a collection the caller owns, that is shared with them, or
     * of a space they run (audited).
     */
    async createLink(
      me: AuthContext,
      collectionId: string,
      body: CreateLinkBody,
      origin?: AuditOrigin,
    ): Promise<void> {
      const name = cleanName(body.name);
      await db.transaction(async (tx) => {
        const target = await access.contributable(tx, me, collectionId);
        const url = normalizeUrl(body.url, 'body.url');
        await access.hold(tx, collectionId);
        const id = newId();
        const description = body.description ?? '';
        await links.insertAtEnd(tx, {
          id,
          organizationId: me.organizationId,
          collectionId,
          name,
          description,
          url,
          createdBy: me.userId,
        });
        await audit.recordContentChange(tx, me, origin, target, {
          action: 'content.link-created',
          target: { type: 'link', id, label: name },
          after: { name, description, url, collectionId },
        });
      });
      icons.lookSoon();
    },

    /**
     * Edits a link in the caller's own collections, one they added to a share, or of a space
     * they run; undoable for a while (decision 0076). Null when nothing changed: nothing is
     * written, and there is nothing to undo.
     */
    async updateLink(
      me: AuthContext,
      id: string,
      body: UpdateLinkBody,
      origin?: AuditOrigin,
    ): Promise<UndoTicket | null> {
      const name = body.name === undefined ? undefined : cleanName(body.name);
      const appName =
        body.appName === undefined ? undefined : body.appName?.trim() ? body.appName.trim() : null;
      const ticket = await db.transaction(async (tx) => {
        const { link, in: source } = await access.changeableLink(tx, me, id);
        const url = body.url === undefined ? undefined : normalizeUrl(body.url, 'body.url');
        const fields = { name, description: body.description, url, appName };
        const changed = changes(
          { name: link.name, description: link.description, url: link.url, appName: link.appName },
          fields,
        );
        // Sent back as it is: nothing is written, so no one's menu is told of a change.
        if (!changed) return null;
        const kept = await undo.keepChange(tx, me, id, name ?? link.name, { links: [id] }, [
          'edit',
        ]);
        await links.update(tx, id, fields);
        await audit.recordContentChange(tx, me, origin, source, {
          action: 'content.link-updated',
          target: { type: 'link', id, label: name ?? link.name },
          ...changed,
        });
        return kept;
      });
      // A new address is looked at again: its icon (and its health, by the same trigger).
      if (ticket && body.url !== undefined) icons.lookSoon();
      return ticket;
    },

    /** Deletes a link, with everyone's favorites of it; restorable for a while (decision 0052). */
    deleteLink: (me: AuthContext, id: string, origin?: AuditOrigin): Promise<UndoTicket> =>
      db.transaction((tx) => deleteIn(tx, me, id, origin)),

    /**
     * Moves a link to the end of another collection. Both ids are authorized: the caller
     * must be allowed to take the link out and to add to the target, and team and
     * organization links stay in their space (409).
     */
    moveLink: (
      me: AuthContext,
      id: string,
      collectionId: string,
      origin?: AuditOrigin,
    ): Promise<UndoTicket | null> =>
      db.transaction(
        async (tx) => (await moveIn(tx, me, id, collectionId, origin, true))?.ticket ?? null,
      ),

    deleteIn,
    moveIn,

    /** Stores a suggested link for the people who run a team or organization space. */
    async suggestLink(
      me: AuthContext,
      collectionId: string,
      body: SuggestLinkBody,
      origin: AuditOrigin,
    ) {
      const by = auditOf(me, origin);
      const name = cleanName(body.name);
      await db.transaction(async (tx) => {
        const { space, can } = await access.collection(tx, me, collectionId);
        if (space === 'personal') {
          throw conflict(
            'Suggestions are for team and organization collections; add the link instead.',
          );
        }
        if (!can.suggest) throw forbidden('Suggestions come from the members of the team.');
        const id = newId();
        const url = normalizeUrl(body.url, 'body.url');
        // Held while the suggestion is written: a collection deleted meanwhile is a 404.
        await access.hold(tx, collectionId);
        await links.insertSuggestion(tx, {
          id,
          organizationId: me.organizationId,
          collectionId,
          suggestedBy: me.userId,
          name,
          description: body.description ?? '',
          url,
        });
        await audit.record(tx, {
          ...by,
          action: 'suggestion.created',
          target: { type: 'suggestion', id, label: name },
          after: { name, url, collectionId },
        });
      });
    },
  };
}
export type LinksService = ReturnType<typeof createLinksService>;
