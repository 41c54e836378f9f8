import { sql, type SQL } from 'drizzle-orm';
import type { PeopleQuery } from '@signpost/contract';

/** Makes `%`, `_` and `\` match themselves in a LIKE pattern with ESCAPE '\'. */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Where a page starts: after this name (lowered) and id. */
export interface PeopleCursor {
  name: string;
  id: string;
}

export const encodeCursor = (cursor: PeopleCursor) =>
  Buffer.from(JSON.stringify([cursor.name, cursor.id])).toString('base64url');

/** The cursor of a page, or null when it is not one the server gave out. */
export function decodeCursor(text: string): PeopleCursor | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      typeof value[0] === 'string' &&
      typeof value[1] === 'string'
    ) {
      return { name: value[0], id: value[1] };
    }
  } catch {
    // Falls through: not a cursor.
  }
  return null;
}

/**
 * How many people the search reads in name order before it collects every match through
 * an index instead (the same two ways as the peer search, decision 0042).
 */
export const NAME_ORDER_WINDOW = 8000;

export interface PeopleFilter extends Omit<PeopleQuery, 'cursor' | 'limit'> {
  organizationId: string;
  cursor: PeopleCursor | null;
  limit: number;
}

/**
 * The ids of one page of the people list, in (lower(name), id) order after the cursor,
 * with one row more than the page to tell whether there is a next page.
 *
 * Without a search it reads the organization's name index from the cursor on and filters.
 * With one, it first reads at most a window of people in name order and keeps the
 * matches; only when that window came up short it collects every match through the
 * trigram (three characters or more) or substrings index (one or two) and sorts them.
 * Both ways give the same rows.
 */
export function peoplePageQuery(filter: PeopleFilter, window = NAME_ORDER_WINDOW): SQL {
  const conditions: SQL[] = [sql`u.organization_id = ${filter.organizationId}`];
  if (filter.role) conditions.push(sql`u.role = ${filter.role}`);
  if (filter.status) conditions.push(sql`u.status = ${filter.status}`);
  if (filter.signIn === 'password') conditions.push(sql`u.password_hash IS NOT NULL`);
  if (filter.signIn === 'sso') {
    conditions.push(sql`EXISTS (SELECT 1 FROM identities i WHERE i.user_id = u.id)`);
  }
  if (filter.signIn === 'never') conditions.push(sql`u.last_sign_in_at IS NULL`);
  const filters = sql.join(conditions, sql` AND `);
  const after = (sortName: SQL) =>
    filter.cursor
      ? sql` AND (${sortName}, u.id) > (${filter.cursor.name}::text, ${filter.cursor.id}::text)`
      : sql``;
  const where = sql`${filters}${after(sql`lower(u.name)`)}`;
  // The same, on `sort_name` (lower(name), kept by the database: migration 0007), for the
  // reading in name order of its covering index.
  const whereSorted = sql`${filters}${after(sql`u.sort_name`)}`;
  const need = filter.limit + 1;
  const query = filter.q?.trim() ?? '';
  const pattern = sql`('%' || lower(${escapeLike(query)}::text) || '%')`;
  // `search_text` is the lowered name and e-mail, one line each (migration 0007).
  const match = sql`u.search_text LIKE ${pattern} ESCAPE '\\'`;
  if (filter.team) {
    // A team's people are read from the team, then sorted: a team is far smaller than the
    // organization, and reading the organization in name order for them would be slow.
    // Each member is looked up by id (OFFSET 0 keeps the lookup per member, where the
    // planner would otherwise hash the whole organization).
    return sql`SELECT u.id FROM team_memberships tm
               CROSS JOIN LATERAL (
                 SELECT u.id, u.name FROM users u
                 WHERE u.id = tm.user_id AND ${where} ${query === '' ? sql`` : sql`AND ${match}`}
                 OFFSET 0
               ) u
               WHERE tm.team_id = ${filter.team}
               ORDER BY lower(u.name), u.id LIMIT ${need}`;
  }
  if (query === '') {
    return sql`SELECT u.id FROM users u WHERE ${where} ORDER BY lower(u.name), u.id LIMIT ${need}`;
  }
  const short = Array.from(query).length < 3;
  const indexed = short
    ? sql`peer_search_grams(u.name, u.email) @> ARRAY[lower(${query}::text)] AND ${match}`
    : match;
  return sql`
    WITH first_hits AS MATERIALIZED (
      SELECT id, sort_name FROM (
        SELECT u.id, u.search_text, u.sort_name FROM users u WHERE ${whereSorted}
        ORDER BY u.sort_name, u.id LIMIT ${window}
      ) u
      WHERE ${match}
      ORDER BY sort_name, id
      LIMIT ${need}
    )
    SELECT id FROM (
      SELECT id, sort_name FROM first_hits WHERE (SELECT count(*) FROM first_hits) >= ${need}
      UNION ALL
      SELECT id, sort_name FROM (
        SELECT u.id, lower(u.name) AS sort_name FROM users u WHERE ${where} AND ${indexed} OFFSET 0
      ) all_hits
      WHERE (SELECT count(*) FROM first_hits) < ${need}
    ) hits
    ORDER BY sort_name, id
    LIMIT ${need}`;
}

/**
 * The rows of the people list for the people `ids` (a subquery of ids), in name order, each
 * with its lowered name as the database lowers it (a page's cursor). Their teams are counted
 * and named in one grouping over the page's memberships, not person by person.
 */
function peopleRows(ids: SQL, teamNames: number): SQL {
  return sql`
    SELECT u.id, u.name, u.email, u.role, u.status, u.last_sign_in_at AS "lastSignInAt",
           u.created_at AS "createdAt", u.password_hash IS NOT NULL AS "hasPassword",
           EXISTS (SELECT 1 FROM identities i WHERE i.user_id = u.id) AS "hasSso",
           EXISTS (SELECT 1 FROM second_factors f WHERE f.user_id = u.id AND f.enabled_at IS NOT NULL) AS "secondFactor",
           coalesce(t.count, 0) AS "teamCount", coalesce(t.names, '{}') AS teams,
           u.sort_name AS "sortName"
    FROM users u
    LEFT JOIN (
      SELECT tm.user_id, count(*)::int AS count,
             (array_agg(t.name ORDER BY lower(t.name), t.id))[1:${teamNames}::int] AS names
      FROM team_memberships tm JOIN teams t ON t.id = tm.team_id
      WHERE tm.user_id IN (${ids})
      GROUP BY tm.user_id
    ) t ON t.user_id = u.id
    WHERE u.id IN (${ids})
    ORDER BY lower(u.name), u.id`;
}

/** The rows of the people list for these people, in name order. */
export function peopleRowsQuery(ids: string[], teamNames: number): SQL {
  return peopleRows(sql`SELECT unnest(${sql.param(ids)}::text[])`, teamNames);
}

/**
 * One page of the people list in ONE statement: the page of ids (`peoplePageQuery`, one
 * more than the page) and their rows. One round trip and one plan instead of two.
 */
export function peopleListQuery(
  filter: PeopleFilter,
  teamNames: number,
  window = NAME_ORDER_WINDOW,
): SQL {
  return sql`
    WITH page AS MATERIALIZED (${peoplePageQuery(filter, window)})
    ${peopleRows(sql`SELECT id FROM page`, teamNames)}`;
}
