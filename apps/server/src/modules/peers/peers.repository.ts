import { sql } from 'drizzle-orm';
import { selectRows, type Executor } from '../../db/client.ts';

export interface PeerRow {
  id: string;
  name: string;
  email: string;
}

export interface PeerSearch {
  organizationId: string;
  excludeUserId: string;
  limit: number;
  offset: number;
  query: string;
}

/** Makes `%`, `_` and `\` match themselves in a LIKE pattern with ESCAPE '\'. */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

export function createPeersRepository(db: Executor) {
  return {
    /**
     * Active people of the organization but one, by name. The search compares lower(name)
     * and lower(email) with LIKE so the trigram indexes on those expressions can answer it.
     */
    async search({ organizationId, excludeUserId, limit, offset, query }: PeerSearch) {
      // lower() runs in the database on both sides, so a name matches exactly when its
      // lowered form contains the lowered query, whatever the database's locale does.
      const pattern = sql`'%' || lower(${escapeLike(query)}) || '%'`;
      const match = query
        ? sql`AND (lower(name) LIKE ${pattern} ESCAPE '\\' OR lower(email) LIKE ${pattern} ESCAPE '\\')`
        : sql``;
      return selectRows<PeerRow>(
        db,
        sql`SELECT id, name, email FROM users
            WHERE organization_id = ${organizationId} AND status = 'active'
              AND id <> ${excludeUserId} ${match}
            ORDER BY lower(name), id
            LIMIT ${limit} OFFSET ${offset}`,
      );
    },
  };
}
export type PeersRepository = ReturnType<typeof createPeersRepository>;
