import { integer, pgTable, text, timestamp, unique } from 'drizzle-orm/pg-core';
import { collections } from './collections.table.ts';
import { links } from './links.table.ts';
import { organizations } from './organizations.table.ts';
import { users } from './users.table.ts';

export const favorites = pgTable(
  'favorites',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    linkId: text('link_id')
      .notNull()
      .references(() => links.id, { onDelete: 'cascade' }),
    collectionId: text('collection_id')
      .notNull()
      .references(() => collections.id, { onDelete: 'cascade' }),
    position: integer('position').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique().on(t.userId, t.linkId)],
);
