import type { AttentionResponse, BrokenLinksResponse } from '@signpost/contract';
import type { Database } from '../../db/client.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { createAdminAccess } from '../access/admin-access.ts';
import { createLinkHealthRepository } from './link-health.repository.ts';

const iso = (value: Date | null) => (value === null ? null : value.toISOString());

export function createLinkHealthService(db: Database) {
  const checks = createLinkHealthRepository(db);
  return {
    /**
     * The links that need the person (decision 0069): broken or moved among those they may
     * change, and those of the shares they are a member of, marked as not theirs to fix.
     */
    async attention(me: AuthContext): Promise<AttentionResponse> {
      const items = await checks.needingAttention({
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
      const steward = await createAdminAccess(db).steward(me);
      const items = await checks.brokenInOrganization(
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
