import { sql, type SQL } from 'drizzle-orm';
import { organizations, users } from './schema/index.ts';

// What the session lookup reads for the routes that ask (migration 0013, decisions 0057 and
// 0060), over its join of the person and their organization. Each is evaluated only when
// `when` holds, so that other routes pay nothing for it.

/** The versions of every scope the person's menu is built from ("scope=version …"). */
export const menuScopesWhen = (when: SQL) =>
  sql<
    string | null
  >`CASE WHEN ${when} THEN signpost_menu_scopes(${organizations.id}, ${users.id}, ${users.role} = 'admin') END`;

/** The version of the organization's people as peer search shows them (`pe:`), a number. */
export const peopleVersionWhen = (when: SQL) =>
  sql<number | null>`CASE WHEN ${when} THEN (
      SELECT coalesce(max(ms.version), 0) FROM menu_scopes ms
      WHERE ms.scope = 'pe:' || ${organizations.id}) END`.mapWith(Number);
