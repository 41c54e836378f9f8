import { sql, type SQL } from 'drizzle-orm';
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

/**
 * How many people the search reads in name order before it gives up on that order and
 * collects every match through an index instead: this many, plus ten per row of the page
 * and of the rows it skips (offset + limit), so that a far page of a frequent match is
 * still found in name order.
 */
export const NAME_ORDER_WINDOW = 4000;

/**
 * The peer search as one statement: active people of the organization but one, whose
 * lower(name) or lower(email) contains the lowered query (`%`, `_`, `\` literal), ordered
 * by lower(name) then id, one page of them.
 *
 * A page of a query that many people match is found quickly by reading people in name
 * order and keeping the matches; a query that few people match, or whose matches sit late
 * in the alphabet, would read most of the organization that way. So the statement first
 * reads at most a window of people (NAME_ORDER_WINDOW) in name order and stops as soon as it
 * holds `offset + limit` matches. Only when it does not, it collects all the matches
 * through an index — the trigram indexes for three characters or more, the index of one-
 * and two-character substrings (migration 0003) for shorter queries — and sorts them. Both
 * ways give exactly the same rows; the second runs only when the first came up short (a
 * one-time filter on the count of the first). `window` is there for tests, which compare
 * both ways on small organizations.
 */
export function peerSearchQuery(
  { organizationId, excludeUserId, limit, offset, query }: PeerSearch,
  window = NAME_ORDER_WINDOW,
): SQL {
  const people = sql`organization_id = ${organizationId} AND status = 'active' AND id <> ${excludeUserId}`;
  if (query === '') {
    return sql`SELECT id, name, email FROM users WHERE ${people}
               ORDER BY lower(name), id LIMIT ${limit} OFFSET ${offset}`;
  }
  // lower() runs in the database on both sides, so a name matches exactly when its lowered
  // form contains the lowered query, whatever the database's locale does.
  const pattern = sql`('%' || lower(${escapeLike(query)}::text) || '%')`;
  const match = sql`(lower(name) LIKE ${pattern} ESCAPE '\\' OR lower(email) LIKE ${pattern} ESCAPE '\\')`;
  // Characters as PostgreSQL counts them (code points), not UTF-16 units.
  const short = Array.from(query).length < 3;
  // For one or two characters, the substrings index answers exactly; the trigram indexes
  // cannot (no trigram in the pattern). Both keep `match` as the condition that decides.
  const indexed = short
    ? sql`peer_search_grams(name, email) @> ARRAY[lower(${query}::text)] AND ${match}`
    : match;
  const need = offset + limit;
  return sql`
    WITH first_hits AS MATERIALIZED (
      SELECT id, name, email FROM (
        SELECT id, name, email, lower(name) AS sort_name FROM users WHERE ${people}
        ORDER BY sort_name, id LIMIT ${window + 10 * need}
      ) in_name_order
      WHERE ${match}
      ORDER BY sort_name, id
      LIMIT ${need}
    )
    SELECT id, name, email FROM (
      SELECT id, name, email FROM first_hits
      WHERE (SELECT count(*) FROM first_hits) >= ${need}
      UNION ALL
      SELECT id, name, email FROM (
        SELECT id, name, email FROM users WHERE ${people} AND ${indexed} OFFSET 0
      ) all_hits
      WHERE (SELECT count(*) FROM first_hits) < ${need}
    ) hits
    ORDER BY lower(name), id
    LIMIT ${limit} OFFSET ${offset}`;
}

export function createPeersRepository() {
  return {
    /** Active people of the organization but one, by name; see peerSearchQuery. */
    async search(db: Executor, search: PeerSearch) {
      return selectRows<PeerRow>(db, peerSearchQuery(search));
    },
  };
}
export type PeersRepository = ReturnType<typeof createPeersRepository>;
