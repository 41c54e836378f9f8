import type {
  AcceptSuggestionBody,
  AdminSuggestion,
  AdminSuggestionsQuery,
  AdminSuggestionsResponse,
  DeclineSuggestionBody,
  OwnSuggestion,
  OwnSuggestionsQuery,
  OwnSuggestionsResponse,
} from '@signpost/contract';
import type { Database, Executor } from '../../db/client.ts';
import { lockCollection } from '../../db/locks.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { cleanName } from '../../lib/names.ts';
import { normalizeUrl } from '../../lib/urls.ts';
import type { AdminAccess, Stewardship } from '../access/admin-access.ts';
import { auditOf, type AuditService } from '../audit/audit.service.ts';
import type { SuggestionRow, SuggestionsRepository } from './suggestions.repository.ts';
import type { AuditOrigin } from '../../lib/request-context.ts';

const DEFAULT_PAGE = 50;
const RUNS_SPACE =
  'Only the editors of this team or an administrator can decide on its suggestions.';
const iso = (value: Date | string) => new Date(value).toISOString();

function own(row: SuggestionRow): OwnSuggestion {
  return {
    id: row.id,
    name: row.name,
    url: row.url,
    description: row.description,
    status: row.status,
    reason: row.reason,
    createdAt: iso(row.createdAt),
    decidedAt: row.decidedAt === null ? null : iso(row.decidedAt),
    linkId: row.linkId,
    collection: { id: row.collectionId, name: row.collectionName },
    space: {
      type: row.ownerType === 'team' ? 'team' : 'organization',
      id: row.teamId ?? '',
      name: row.spaceName,
    },
  };
}

function forAdmin(row: SuggestionRow, organizationId: string): AdminSuggestion {
  const base = own(row);
  return {
    ...base,
    space: { ...base.space, id: row.teamId ?? organizationId },
    suggestedBy: row.suggestedBy,
    decidedBy: row.decidedBy,
  };
}

function page<T extends { id: string }>(rows: T[], limit: number) {
  const items = rows.slice(0, limit);
  return { items, next: rows.length > limit ? (items.at(-1)?.id ?? null) : null };
}

export interface SuggestionsDeps {
  db: Database;
  suggestions: SuggestionsRepository;
  adminAccess: AdminAccess;
  audit: AuditService;
}

export function createSuggestionsService({
  db,
  suggestions: repo,
  adminAccess,
  audit,
}: SuggestionsDeps) {
  /**
   * The suggestion, held for the transaction, if the caller runs its space: 404 when it
   * is not in their organization or in a team they are not in, 403 when they can see the
   * space but do not run it.
   */
  async function decidable(tx: Executor, me: AuthContext, steward: Stewardship, id: string) {
    const row = await repo.find(tx, me.organizationId, id, true);
    if (!row) throw notFound(`Suggestion ${id} was not found`);
    if (steward.admin) return row;
    if (row.teamId === null) throw forbidden(RUNS_SPACE);
    if (steward.editorOf.includes(row.teamId)) {
      // Re-read under the lock: the caller may have stopped being an editor meanwhile.
      if ((await repo.teamRole(tx, row.teamId, me.userId)) === 'editor') return row;
    }
    if (await repo.teamRole(tx, row.teamId, me.userId)) throw forbidden(RUNS_SPACE);
    throw notFound(`Suggestion ${id} was not found`);
  }

  const alreadyDecided = (row: SuggestionRow) =>
    conflict(`This suggestion was already ${row.status}; it cannot be decided again.`);

  return {
    async list(me: AuthContext, query: AdminSuggestionsQuery): Promise<AdminSuggestionsResponse> {
      const steward = await adminAccess.steward(db, me);
      const limit = query.limit ?? DEFAULT_PAGE;
      const rows = await repo.list(db, {
        organizationId: me.organizationId,
        scope: steward.admin ? 'all' : steward.editorOf,
        status: query.status ?? 'open',
        spaceId: query.spaceId,
        limit: limit + 1,
        after: query.after,
      });
      const { items, next } = page(rows, limit);
      return { items: items.map((row) => forAdmin(row, me.organizationId)), next };
    },

    /**
     * Accepts an open suggestion: its link, edited if the body says so, is added at the
     * end of the collection it was suggested for. Deciding twice is 409 for the second.
     */
    async accept(
      me: AuthContext,
      origin: AuditOrigin,
      id: string,
      body: AcceptSuggestionBody,
    ): Promise<AdminSuggestion> {
      const by = auditOf(me, origin);
      const steward = await adminAccess.steward(db, me);
      const name = body.name === undefined ? undefined : cleanName(body.name);
      for (const field of ['name', 'url', 'description'] as const) {
        if (body[field]?.includes('\u0000')) {
          throw badRequest(`body.${field} must not contain a NUL character`);
        }
      }
      return db.transaction(async (tx) => {
        const row = await decidable(tx, me, steward, id);
        if (row.status !== 'open') throw alreadyDecided(row);
        const link = {
          id: newId(),
          organizationId: me.organizationId,
          collectionId: row.collectionId,
          name: name ?? row.name,
          description: body.description ?? row.description,
          url: normalizeUrl(body.url ?? row.url, 'body.url'),
          createdBy: me.userId,
        };
        if (!(await lockCollection(tx, row.collectionId))) {
          throw notFound(`Suggestion ${id} was not found`);
        }
        await repo.insertLink(tx, link);
        if (
          !(await repo.decide(tx, id, {
            status: 'accepted',
            decidedBy: me.userId,
            reason: '',
            linkId: link.id,
          }))
        ) {
          throw alreadyDecided(row);
        }
        await audit.record(tx, {
          ...by,
          action: 'suggestion.accepted',
          target: { type: 'suggestion', id, label: row.name },
          before: { status: 'open', name: row.name, url: row.url, description: row.description },
          after: {
            status: 'accepted',
            name: link.name,
            url: link.url,
            description: link.description,
          },
          details: {
            linkId: link.id,
            collectionId: row.collectionId,
            suggestedBy: row.suggestedBy?.id ?? null,
          },
        });
        return forAdmin((await repo.find(tx, me.organizationId, id))!, me.organizationId);
      });
    },

    /** Declines an open suggestion, with an optional reason the person who made it sees. */
    async decline(
      me: AuthContext,
      origin: AuditOrigin,
      id: string,
      body: DeclineSuggestionBody,
    ): Promise<AdminSuggestion> {
      const by = auditOf(me, origin);
      const steward = await adminAccess.steward(db, me);
      const reason = (body.reason ?? '').trim();
      if (reason.includes('\u0000'))
        throw badRequest('body.reason must not contain a NUL character');
      return db.transaction(async (tx) => {
        const row = await decidable(tx, me, steward, id);
        if (row.status !== 'open') throw alreadyDecided(row);
        if (
          !(await repo.decide(tx, id, {
            status: 'declined',
            decidedBy: me.userId,
            reason,
            linkId: null,
          }))
        ) {
          throw alreadyDecided(row);
        }
        await audit.record(tx, {
          ...by,
          action: 'suggestion.declined',
          target: { type: 'suggestion', id, label: row.name },
          before: { status: 'open' },
          after: { status: 'declined', reason },
          details: { collectionId: row.collectionId, suggestedBy: row.suggestedBy?.id ?? null },
        });
        return forAdmin((await repo.find(tx, me.organizationId, id))!, me.organizationId);
      });
    },

    /** The caller's own suggestions, newest first, with what became of them. */
    async mine(me: AuthContext, query: OwnSuggestionsQuery): Promise<OwnSuggestionsResponse> {
      const limit = query.limit ?? DEFAULT_PAGE;
      const rows = await repo.list(db, {
        organizationId: me.organizationId,
        scope: 'all',
        suggestedBy: me.userId,
        limit: limit + 1,
        after: query.after,
      });
      const { items, next } = page(rows, limit);
      return {
        items: items.map((row) => ({
          ...own(row),
          space: { ...own(row).space, id: row.teamId ?? me.organizationId },
        })),
        next,
      };
    },
  };
}
export type SuggestionsService = ReturnType<typeof createSuggestionsService>;
