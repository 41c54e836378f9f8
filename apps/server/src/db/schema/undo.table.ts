import { jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { organizations } from './organizations.table.ts';
import { users } from './users.table.ts';

export type UndoKind =
  'link' | 'favorite' | 'collection' | 'share' | 'membership' | 'change' | 'batch' | 'import';

/**
 * What a deletion in the portal removed, or the rows an edit, a move or a new order changed
 * (kind `change`, 0017_undo_of_changes.sql, decision 0076), restorable by the person who did it until it
 * expires (0011_undo.sql, decision 0052). `rows` holds each table's rows as `to_jsonb`.
 */
export const undoSnapshots = pgTable('undo_snapshots', {
  id: text('id').primaryKey(),
  organizationId: text('organization_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  userId: text('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  kind: text('kind').$type<UndoKind>().notNull(),
  targetId: text('target_id').notNull(),
  label: text('label').notNull(),
  rows: jsonb('rows').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  undoneAt: timestamp('undone_at', { withTimezone: true }),
});
