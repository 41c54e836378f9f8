import type { CreateLinkBody, SuggestLinkBody, UpdateLinkBody } from '@signpost/contract';
import type { Database } from '../../db/client.ts';
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

    /** Edits a link in the caller's own collections, one they added to a share, or of a space they run. */
    async updateLink(
      me: AuthContext,
      id: string,
      body: UpdateLinkBody,
      origin?: AuditOrigin,
    ): Promise<void> {
      const name = body.name === undefined ? undefined : cleanName(body.name);
      await db.transaction(async (tx) => {
        const { link, in: source } = await access.changeableLink(tx, me, id);
        const url = body.url === undefined ? undefined : normalizeUrl(body.url, 'body.url');
        const fields = { name, description: body.description, url };
        const changed = changes(
          { name: link.name, description: link.description, url: link.url },
          fields,
        );
        // Sent back as it is: nothing is written, so no one's menu is told of a change.
        if (!changed) return;
        await links.update(tx, id, fields);
        await audit.recordContentChange(tx, me, origin, source, {
          action: 'content.link-updated',
          target: { type: 'link', id, label: name ?? link.name },
          ...changed,
        });
      });
      icons.lookSoon();
    },

    /** Deletes a link, with everyone's favorites of it; restorable for a while (decision 0052). */
    async deleteLink(me: AuthContext, id: string, origin?: AuditOrigin): Promise<UndoTicket> {
      return db.transaction(async (tx) => {
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
        const { link, in: source } = await access.changeableLink(tx, me, id);
        const target = await access.contributable(tx, me, collectionId);
        // Already there: a repeated PUT changes nothing, not even the position.
        if (link.collectionId === collectionId) return;
        access.sameSpace(source, target);
        await access.hold(tx, collectionId);
        await links.moveToEnd(tx, id, collectionId);
        await audit.recordContentChange(tx, me, origin, source, {
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
