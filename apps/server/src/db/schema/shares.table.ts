import { pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { collections } from './collections.table.ts';
import { organizations } from './organizations.table.ts';
import { users } from './users.table.ts';

export const collectionShares = pgTable('collection_shares', {
  id: text('id').primaryKey(),
  organizationId: text('organization_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  collectionId: text('collection_id')
    .notNull()
    .unique()
    .references(() => collections.id, { onDelete: 'cascade' }),
  createdBy: text('created_by')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const shareMembers = pgTable(
  'share_members',
  {
    shareId: text('share_id')
      .notNull()
      .references(() => collectionShares.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    addedAt: timestamp('added_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.shareId, t.userId] })],
);
