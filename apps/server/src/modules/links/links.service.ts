import type { CreateLinkBody, SuggestLinkBody, UpdateLinkBody } from '@signpost/contract';
import type { Database, Executor } from '../../db/client.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { conflict } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { cleanName } from '../../lib/names.ts';
import { normalizeUrl } from '../../lib/urls.ts';
import { createAccessService } from '../access/access.service.ts';
import { createAuditService, type auditContext } from '../audit/audit.service.ts';
import { createLinksRepository } from './links.repository.ts';

function tools(tx: Executor) {
  return {
    access: createAccessService(tx),
    links: createLinksRepository(tx),
  };
}

export function createLinksService(db: Database) {
  return {
    /** Adds a link at the end of a collection the caller owns or that is shared with them. */
    async createLink(me: AuthContext, collectionId: string, body: CreateLinkBody): Promise<void> {
      const name = cleanName(body.name);
      await db.transaction(async (tx) => {
        const { access, links } = tools(tx);
        await access.contributable(me, collectionId);
        const url = normalizeUrl(body.url, 'body.url');
        await access.hold(collectionId);
        await links.insertAtEnd({
          id: newId(),
          organizationId: me.organizationId,
          collectionId,
          name,
          description: body.description ?? '',
          url,
          createdBy: me.userId,
        });
      });
    },

    /** Edits a link in the caller's own collections, or one they added to a share. */
    async updateLink(me: AuthContext, id: string, body: UpdateLinkBody): Promise<void> {
      const name = body.name === undefined ? undefined : cleanName(body.name);
      await db.transaction(async (tx) => {
        const { access, links } = tools(tx);
        await access.changeableLink(me, id);
        const url = body.url === undefined ? undefined : normalizeUrl(body.url, 'body.url');
        await links.update(id, { name, description: body.description, url });
      });
    },

    async deleteLink(me: AuthContext, id: string): Promise<void> {
      await db.transaction(async (tx) => {
        const { access, links } = tools(tx);
        await access.changeableLink(me, id);
        await links.delete(id);
      });
    },

    /**
     * Moves a link to the end of another collection. Both ids are authorized: the caller
     * must be allowed to take the link out and to add to the target.
     */
    async moveLink(me: AuthContext, id: string, collectionId: string): Promise<void> {
      await db.transaction(async (tx) => {
        const { access, links } = tools(tx);
        const { link } = await access.changeableLink(me, id);
        await access.contributable(me, collectionId);
        // Already there: a repeated PUT changes nothing, not even the position.
        if (link.collectionId === collectionId) return;
        await access.hold(collectionId);
        await links.moveToEnd(id, collectionId);
      });
    },

    /** Stores a suggested link for the people who run a team or organization space. */
    async suggestLink(
      me: AuthContext,
      collectionId: string,
      body: SuggestLinkBody,
      by: ReturnType<typeof auditContext>,
    ) {
      const name = cleanName(body.name);
      const { access } = tools(db);
      const { space } = await access.collection(me, collectionId);
      if (space === 'personal') {
        throw conflict(
          'Suggestions are for team and organization collections; add the link instead.',
        );
      }
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
