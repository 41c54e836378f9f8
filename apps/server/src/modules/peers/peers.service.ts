import type { PeersQuery, PeersResponse } from '@signpost/contract';
import { LIMITS } from '@signpost/contract';
import type { Database } from '../../db/client.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { createPeersRepository } from './peers.repository.ts';

export function createPeersService(db: Database) {
  const peers = createPeersRepository(db);
  return {
    /** People of the caller's organization to share with, a page at a time. */
    async listPeers(me: AuthContext, query: PeersQuery): Promise<PeersResponse> {
      // No stored text can hold a NUL character, and PostgreSQL refuses one in a parameter:
      // such a query matches nobody.
      if (query.query?.includes('\u0000')) return { items: [] };
      const items = await peers.search({
        organizationId: me.organizationId,
        excludeUserId: me.userId,
        // The schema fills in the defaults; these only guard a call from elsewhere.
        limit: Math.min(query.limit ?? LIMITS.peersPage.default, LIMITS.peersPage.max),
        offset: query.offset ?? 0,
        query: query.query ?? '',
      });
      return { items };
    },
  };
}
export type PeersService = ReturnType<typeof createPeersService>;
