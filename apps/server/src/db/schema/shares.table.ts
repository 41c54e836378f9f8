import { boolean, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { collections } from './collections.table.ts';
import { organizations } from './organizations.table.ts';
import { teams } from './teams.table.ts';
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
    /** Added by name (the owner, people the owner chose); false: only through a team. */
    direct: boolean('direct').notNull().default(true),
  },
  (t) => [primaryKey({ columns: [t.shareId, t.userId] })],
);

/** The teams a share is for (decision 0086); their members are kept in share_members. */
export const shareTeams = pgTable(
  'share_teams',
  {
    shareId: text('share_id')
      .notNull()
      .references(() => collectionShares.id, { onDelete: 'cascade' }),
    teamId: text('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    addedBy: text('added_by').references(() => users.id, { onDelete: 'set null' }),
    addedAt: timestamp('added_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.shareId, t.teamId] })],
);

/** People who left a share they saw through a team: the team does not bring them back. */
export const shareOptOuts = pgTable(
  'share_opt_outs',
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
    leftAt: timestamp('left_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.shareId, t.userId] })],
);
