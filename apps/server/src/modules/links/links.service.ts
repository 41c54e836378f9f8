import type { CreateLinkBody, SuggestLinkBody, UpdateLinkBody } from '@signpost/contract';
import type { Database, Executor } from '../../db/client.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { conflict, forbidden } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { cleanName } from '../../lib/names.ts';
import { normalizeUrl } from '../../lib/urls.ts';
import { createAccessService } from '../access/access.service.ts';
import { auditOf, changes, createAuditService } from '../audit/audit.service.ts';
import { recordContentChange } from '../audit/content-audit.ts';
import { keepLinkForUndo, type UndoTicket } from '../undo/undo.service.ts';
import { createLinksRepository } from './links.repository.ts';
import { type AuditOrigin } from '../../lib/request-context.ts';

function tools(tx: Executor) {
  return {
    access: createAccessService(tx),
    links: createLinksRepository(tx),
  };
}

export function createLinksService(db: Database) {
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
        const { access, links } = tools(tx);
        const target = await access.contributable(me, collectionId);
        const url = normalizeUrl(body.url, 'body.url');
        await access.hold(collectionId);
        const id = newId();
        const description = body.description ?? '';
        await links.insertAtEnd({
          id,
          organizationId: me.organizationId,
          collectionId,
          name,
          description,
          url,
          createdBy: me.userId,
        });
        await recordContentChange(tx, me, origin, target.space, {
          action: 'content.link-created',
          target: { type: 'link', id, label: name },
          after: { name, description, url, collectionId },
        });
      });
    },

    /** Edits a link in the caller's own collections, one they added to a share, or of a space they run. */
    async updateLink(
      me: AuthContext,
      id: string,
      body: UpdateLinkBody,
      origin?: AuditOrigin,
    ): Promise<void> {
      const name = body.name === undefined ? undefined : cleanName(body.name);
      await db.transaction(async (tx) => {
        const { access, links } = tools(tx);
        const { link, in: source } = await access.changeableLink(me, id);
        const url = body.url === undefined ? undefined : normalizeUrl(body.url, 'body.url');
        const fields = { name, description: body.description, url };
        await links.update(id, fields);
        const changed = changes(
          { name: link.name, description: link.description, url: link.url },
          fields,
        );
        if (changed) {
          await recordContentChange(tx, me, origin, source.space, {
            action: 'content.link-updated',
            target: { type: 'link', id, label: name ?? link.name },
            ...changed,
          });
        }
      });
    },

    /** Deletes a link, with everyone's favorites of it; restorable for a while (0052). */
    async deleteLink(me: AuthContext, id: string, origin?: AuditOrigin): Promise<UndoTicket> {
      return db.transaction(async (tx) => {
        const { access, links } = tools(tx);
        const { link, in: source } = await access.changeableLink(me, id);
        const ticket = await keepLinkForUndo(tx, me, id, link.name);
        await links.delete(id);
        await recordContentChange(tx, me, origin, source.space, {
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
      });
    },

    /**
     * Moves a link to the end of another collection. Both ids are authorized: the caller
     * must be allowed to take the link out and to add to the target, and team and
     * organization links stay in their space (409).
     */
    async moveLink(
      me: AuthContext,
      id: string,
      collectionId: string,
      origin?: AuditOrigin,
    ): Promise<void> {
      await db.transaction(async (tx) => {
        const { access, links } = tools(tx);
        const { link, in: source } = await access.changeableLink(me, id);
        const target = await access.contributable(me, collectionId);
        // Already there: a repeated PUT changes nothing, not even the position.
        if (link.collectionId === collectionId) return;
        access.sameSpace(source, target);
        await access.hold(collectionId);
        await links.moveToEnd(id, collectionId);
        await recordContentChange(tx, me, origin, source.space, {
          action: 'content.link-moved',
          target: { type: 'link', id, label: link.name },
          before: { collectionId: link.collectionId },
          after: { collectionId },
        });
      });
    },

    /** Stores a suggested link for the people who run a team or organization space. */
    async suggestLink(
      me: AuthContext,
      collectionId: string,
      body: SuggestLinkBody,
      origin: AuditOrigin,
    ) {
      const by = auditOf(me, origin);
      const name = cleanName(body.name);
      const { access } = tools(db);
      const { space, can } = await access.collection(me, collectionId);
      if (space === 'personal') {
        throw conflict(
          'Suggestions are for team and organization collections; add the link instead.',
        );
      }
      if (!can.suggest) throw forbidden('Suggestions come from the members of the team.');
      const id = newId();
      const url = normalizeUrl(body.url, 'body.url');
      await db.transaction(async (tx) => {
        await createLinksRepository(tx).insertSuggestion({
          id,
          organizationId: me.organizationId,
          collectionId,
          suggestedBy: me.userId,
          name,
          description: body.description ?? '',
          url,
        });
        await createAuditService(tx).record({
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
