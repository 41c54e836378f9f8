import type { AttentionResponse, BrokenLinksResponse } from '@signpost/contract';
import type { Database } from '../../db/client.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import type { AuditOrigin } from '../../lib/request-context.ts';
import type { AdminAccess } from '../access/admin-access.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { LinkHealthRepository } from './link-health.repository.ts';

const iso = (value: Date | null) => (value === null ? null : value.toISOString());

export interface LinkHealthDeps {
  db: Database;
  linkHealth: LinkHealthRepository;
  adminAccess: AdminAccess;
  audit: AuditService;
}

export function createLinkHealthService({
  db,
  linkHealth: checks,
  adminAccess,
  audit,
}: LinkHealthDeps) {
  return {
    /**
     * The links that need the person (decision 0069): broken or moved among those they may
     * change, and those of the shares they are a member of, marked as not theirs to fix.
     */
    async attention(me: AuthContext): Promise<AttentionResponse> {
      const items = await checks.needingAttention(db, {
        userId: me.userId,
        organizationId: me.organizationId,
        role: me.role,
      });
      return {
        items: items.map((item) => ({
          ...item,
          since: item.since.toISOString(),
          checkedAt: iso(item.checkedAt),
        })),
      };
    },

    /**
     * The broken links of the spaces the person runs: every team and the organization's for
     * an administrator, their teams' for an editor (403 for anyone else).
     */
    async broken(me: AuthContext): Promise<BrokenLinksResponse> {
      const steward = await adminAccess.steward(db, me);
      const items = await checks.brokenInOrganization(
        db,
        me.organizationId,
        steward.admin ? 'all' : steward.editorOf,
      );
      return {
        items: items.map((item) => ({
          ...item,
          brokenSince: item.brokenSince.toISOString(),
          checkedAt: iso(item.checkedAt),
        })),
      };
    },

    /**
     * Marks a broken finding wrong (a site that refuses robots, but people reach): the link
     * is no longer listed as broken, in the console nor on the portal's marks, until its
     * address changes. For the people who run its space: an administrator, or an editor of
     * its team (anyone else who runs something gets 404 for it, as for every id outside their
     * teams; someone who runs nothing, 403). 409 when the link is not listed as broken.
     * Audited in the same transaction.
     */
    async dismissBroken(me: AuthContext, linkId: string, origin?: AuditOrigin): Promise<void> {
      await db.transaction(async (tx) => {
        const steward = await adminAccess.steward(tx, me);
        const found = await checks.finding(tx, me.organizationId, linkId, me.userId);
        const runs =
          found !== null &&
          found.ownerType !== 'user' &&
          (steward.admin || (found.teamId !== null && steward.editorOf.includes(found.teamId)));
        if (!found || !runs) throw notFound(`Link ${linkId} was not found`);
        if (found.state !== 'broken' || found.dismissed) {
          throw conflict(`${found.name} is not listed as broken; there is nothing to mark.`);
        }
        await checks.dismiss(tx, linkId, me.userId);
        const space = found.ownerType === 'team' ? 'team' : 'organization';
        const outside = space === 'team' && found.teamRole === null;
        await audit.recordContentChange(
          tx,
          me,
          origin,
          { space, relation: outside ? 'team-admin' : undefined },
          {
            action: 'content.link-check-dismissed',
            target: { type: 'link', id: linkId, label: found.name },
            details: { url: found.url },
          },
        );
      });
    },
  };
}
export type LinkHealthService = ReturnType<typeof createLinkHealthService>;
