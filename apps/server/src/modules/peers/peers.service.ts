import type { PeersQuery, PeersResponse } from '@signpost/contract';
import { LIMITS } from '@signpost/contract';
import type { Database } from '../../db/client.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import type { PeopleDirectory } from '../directory/directory.service.ts';
import type { PeersRepository } from './peers.repository.ts';

export interface PeersDeps {
  db: Database;
  peers: PeersRepository;
  /** The people directory (decision 0072), built once and swept by the root. */
  directory: Pick<PeopleDirectory, 'searchPeers'>;
}

export function createPeersService({ db, peers, directory }: PeersDeps) {
  return {
    /**
     * People of the caller's organization to share with, a page at a time: from the
     * organization's people directory in memory (decisions 0060 and 0072), or from the
     * statement while there is none. Both give the same rows in the same order.
     */
    async listPeers(me: AuthContext, query: PeersQuery): Promise<PeersResponse> {
      // No stored text can hold a NUL character, and PostgreSQL refuses one in a parameter:
      // such a query matches nobody.
      if (query.query?.includes('\u0000')) return { items: [] };
      // The schema fills in the defaults; these only guard a call from elsewhere.
      const limit = Math.min(query.limit ?? LIMITS.peersPage.default, LIMITS.peersPage.max);
      const offset = query.offset ?? 0;
      const text = query.query ?? '';
      const found = await directory.searchPeers(me, text, offset, limit);
      if (found) return { items: found };
      const items = await peers.search(db, {
        organizationId: me.organizationId,
        excludeUserId: me.userId,
        limit,
        offset,
        query: text,
      });
      return { items };
    },
  };
}
export type PeersService = ReturnType<typeof createPeersService>;
