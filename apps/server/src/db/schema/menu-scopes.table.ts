import { bigint, pgTable, text } from 'drizzle-orm/pg-core';

/**
 * The version of each scope a menu is built from, bumped at commit by the database
 * (0013_menu_scopes.sql, decision 0057).
 */
export const menuScopes = pgTable('menu_scopes', {
  scope: text('scope').primaryKey(),
  version: bigint('version', { mode: 'number' }).notNull(),
});
