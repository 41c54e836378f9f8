import { sql, type SQL } from 'drizzle-orm';
import { selectRows, type Executor } from '../../db/client.ts';
import type { PeerEntry } from './peer-index.ts';

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

/** What a peer directory's build reads first, in its snapshot. */
export interface DirectoryStart {
  /** The oldest transaction still running when the snapshot was taken (xid8, as text). */
  horizon: string;
  /** The version of the organization's people in the snapshot: any change of them raises it. */
  version: number;
  /** The database orders text by code point (decision 0060), so the directory's order is its own. */
  codePointOrder: boolean;
  /** `probe` lowered by the database. */
  lowered: string;
}

/** A noted person as the snapshot has them: `id` null when they are no longer an active person of the organization. */
export interface NotedPeer {
  noted: string;
  id: string | null;
  name: string;
  email: string;
  sortName: string;
  lowerEmail: string;
}

/** The people changed from a horizon on, and the new horizon and version, in one snapshot. */
export interface PeerChanges {
  horizon: string;
  version: number;
  people: NotedPeer[];
}

/** libc's collations that order by code point (by the bytes of UTF-8). */
const CODE_POINT_COLLATIONS = ['C', 'POSIX', 'C.UTF-8', 'C.utf8', 'C.UTF8'];

/**
 * Whether `lower(name)` sorts by code point: the column keeps the database's collation, and
 * that is one of libc's C collations, or any of the builtin provider's (PostgreSQL 17: `C`,
 * `C.UTF-8`, and 18's `PG_UNICODE_FAST`, all in code point order). ICU and libc's
 * linguistic collations (`en_US.UTF-8`) order otherwise. Without a provider (PostgreSQL
 * before 15), libc.
 */
export function ordersByCodePoint(database: {
  provider: string | null;
  collate: string | null;
  defaultCollation: boolean;
}): boolean {
  if (!database.defaultCollation) return false;
  const provider = database.provider ?? 'c';
  return (
    provider === 'b' || (provider === 'c' && CODE_POINT_COLLATIONS.includes(database.collate ?? ''))
  );
}

export function createPeersRepository() {
  return {
    /** Active people of the organization but one, by name; see peerSearchQuery. */
    async search(db: Executor, search: PeerSearch) {
      return selectRows<PeerRow>(db, peerSearchQuery(search));
    },

    /** `text` lowered by the database, as the search lowers its query. */
    async lower(db: Executor, text: string): Promise<string> {
      const [row] = await selectRows<{ lowered: string }>(
        db,
        sql`SELECT lower(${text}::text) AS lowered`,
      );
      return row!.lowered;
    },

    /**
     * The first statement of a directory's build (in its repeatable-read snapshot): the
     * horizon, the version of the organization's people (`pe:`), whether the database orders `lower(name)`
     * by code point (`pg_database` and the column's collation; `datlocprovider` is read
     * through JSON, since PostgreSQL before 15 has no such column), and `probe` lowered.
     */
    async directoryStart(
      db: Executor,
      organizationId: string,
      probe: string,
    ): Promise<DirectoryStart> {
      const [row] = await selectRows<{
        horizon: string;
        version: string | number | null;
        provider: string | null;
        collate: string | null;
        defaultCollation: boolean;
        lowered: string;
      }>(
        db,
        sql`SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS horizon,
                   (SELECT max(version) FROM menu_scopes WHERE scope = 'pe:' || ${organizationId}) AS version,
                   d.info ->> 'datlocprovider' AS provider,
                   d.info ->> 'datcollate' AS collate,
                   (SELECT a.attcollation = 'pg_catalog.default'::regcollation
                    FROM pg_attribute a
                    WHERE a.attrelid = 'users'::regclass AND a.attname = 'name') AS "defaultCollation",
                   lower(${probe}::text) AS lowered
            FROM (SELECT to_jsonb(p) AS info FROM pg_database p
                  WHERE p.datname = current_database()) d`,
      );
      if (!row) throw new Error('no row for the current database in pg_database');
      return {
        horizon: row.horizon,
        version: Number(row.version ?? 0),
        codePointOrder: ordersByCodePoint(row),
        lowered: row.lowered,
      };
    },

    /** The next active people of the organization in name order, after a place (or from the start). */
    async activePeople(
      db: Executor,
      organizationId: string,
      after: { sortName: string; id: string } | null,
      limit: number,
    ): Promise<PeerEntry[]> {
      const from = after
        ? sql`AND (lower(name), id) > (${after.sortName}::text, ${after.id}::text)`
        : sql``;
      return selectRows<PeerEntry>(
        db,
        sql`SELECT id, name, email, lower(name) AS "sortName", lower(email) AS "lowerEmail"
            FROM users
            WHERE organization_id = ${organizationId} AND status = 'active' ${from}
            ORDER BY lower(name), id LIMIT ${limit}`,
      );
    },

    /**
     * In one statement (so one snapshot): the horizon and people version now, and each person
     * noted in `people_changes` from `horizon` on, as an active person of the organization or
     * as gone (`id` null).
     */
    async changesSince(
      db: Executor,
      organizationId: string,
      horizon: string,
    ): Promise<PeerChanges> {
      const rows = await selectRows<{
        horizon: string;
        version: string | number | null;
        noted: string | null;
        id: string | null;
        name: string;
        email: string;
        sortName: string;
        lowerEmail: string;
      }>(
        db,
        sql`WITH noted AS (
              SELECT DISTINCT user_id FROM people_changes
              WHERE organization_id = ${organizationId} AND xid >= ${horizon}::xid8
                AND user_id IS NOT NULL
            )
            SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS horizon,
                   (SELECT max(version) FROM menu_scopes WHERE scope = 'pe:' || ${organizationId}) AS version,
                   n.user_id AS noted, u.id, u.name, u.email,
                   lower(u.name) AS "sortName", lower(u.email) AS "lowerEmail"
            FROM (SELECT 1) AS one
            LEFT JOIN (noted n LEFT JOIN users u
                       ON u.id = n.user_id AND u.organization_id = ${organizationId}
                          AND u.status = 'active') ON true`,
      );
      const first = rows[0]!;
      return {
        horizon: first.horizon,
        version: Number(first.version ?? 0),
        people: rows.flatMap((r) => (r.noted === null ? [] : [{ ...r, noted: r.noted }])),
      };
    },
  };
}
export type PeersRepository = ReturnType<typeof createPeersRepository>;
