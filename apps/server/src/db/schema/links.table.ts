import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { collections } from './collections.table.ts';
import { organizations } from './organizations.table.ts';
import { users } from './users.table.ts';

export const links = pgTable('links', {
  id: text('id').primaryKey(),
  organizationId: text('organization_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  collectionId: text('collection_id')
    .notNull()
    .references(() => collections.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  url: text('url').notNull(),
  icon: text('icon'),
  appName: text('app_name'),
  /** The short name its bookmark file gave it (Firefox keywords), for go links (0024). */
  keyword: text('keyword'),
  position: integer('position').notNull().default(0),
  createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const linkSuggestions = pgTable('link_suggestions', {
  id: text('id').primaryKey(),
  organizationId: text('organization_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  collectionId: text('collection_id')
    .notNull()
    .references(() => collections.id, { onDelete: 'cascade' }),
  suggestedBy: text('suggested_by').references(() => users.id, { onDelete: 'set null' }),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  url: text('url').notNull(),
  status: text('status').$type<'open' | 'accepted' | 'declined'>().notNull().default('open'),
  decidedBy: text('decided_by').references(() => users.id, { onDelete: 'set null' }),
  decidedAt: timestamp('decided_at', { withTimezone: true }),
  reason: text('reason').notNull().default(''),
  linkId: text('link_id').references(() => links.id, { onDelete: 'set null' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
