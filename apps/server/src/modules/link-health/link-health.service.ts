import type { AttentionResponse, BrokenLinksResponse } from '@signpost/contract';
import type { Database } from '../../db/client.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import type { AdminAccess } from '../access/admin-access.ts';
import type { LinkHealthRepository } from './link-health.repository.ts';

const iso = (value: Date | null) => (value === null ? null : value.toISOString());

export interface LinkHealthDeps {
  db: Database;
  linkHealth: LinkHealthRepository;
  adminAccess: AdminAccess;
}

export function createLinkHealthService({ db, linkHealth: checks, adminAccess }: LinkHealthDeps) {
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
  };
}
export type LinkHealthService = ReturnType<typeof createLinkHealthService>;
