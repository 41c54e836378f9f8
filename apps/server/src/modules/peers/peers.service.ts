import type { PeersQuery, PeersResponse } from '@signpost/contract';
import { LIMITS } from '@signpost/contract';
import type { Database } from '../../db/client.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import type { PeerDirectories } from './peer-directories.ts';
import type { PeersRepository } from './peers.repository.ts';

export interface PeersDeps {
  db: Database;
  peers: PeersRepository;
  /** The organizations' peer directories in memory, built once and swept by the root. */
  directories: Pick<PeerDirectories, 'search'>;
}

export function createPeersService({ db, peers, directories }: PeersDeps) {
  return {
    /**
     * People of the caller's organization to share with, a page at a time: from the
     * organization's peer directory in memory (decision 0060), or from the statement while
     * there is none. Both give the same rows in the same order.
     */
    async listPeers(me: AuthContext, query: PeersQuery): Promise<PeersResponse> {
      // No stored text can hold a NUL character, and PostgreSQL refuses one in a parameter:
      // such a query matches nobody.
      if (query.query?.includes('\u0000')) return { items: [] };
      // The schema fills in the defaults; these only guard a call from elsewhere.
      const limit = Math.min(query.limit ?? LIMITS.peersPage.default, LIMITS.peersPage.max);
      const offset = query.offset ?? 0;
      const text = query.query ?? '';
      const found = await directories.search(me, text, offset, limit);
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
