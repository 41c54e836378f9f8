import { boolean, integer, pgTable, text, timestamp, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { organizations } from './organizations.table.ts';
import { teams } from './teams.table.ts';
import { users } from './users.table.ts';

export type CollectionOwnerType = 'user' | 'team' | 'organization';

export const collections = pgTable('collections', {
  id: text('id').primaryKey(),
  organizationId: text('organization_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  ownerType: text('owner_type').$type<CollectionOwnerType>().notNull(),
  ownerUserId: text('owner_user_id').references(() => users.id, { onDelete: 'cascade' }),
  ownerTeamId: text('owner_team_id').references(() => teams.id, { onDelete: 'cascade' }),
  parentId: text('parent_id').references((): AnyPgColumn => collections.id, {
    onDelete: 'cascade',
  }),
  isRoot: boolean('is_root').notNull().default(false),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  color: text('color'),
  position: integer('position').notNull().default(0),
  createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
