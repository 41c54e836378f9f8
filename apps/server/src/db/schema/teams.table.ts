import { boolean, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { organizations } from './organizations.table.ts';
import { users } from './users.table.ts';

export type TeamRole = 'member' | 'editor';

export const teams = pgTable('teams', {
  id: text('id').primaryKey(),
  organizationId: text('organization_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  buddyId: text('buddy_id').references(() => users.id, { onDelete: 'set null' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  /** SCIM (0022_scim.sql): the identity system's id of the group. */
  externalId: text('external_id'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  /** When SCIM deleted the group while the team held content: a team, no longer a group. */
  scimDeletedAt: timestamp('scim_deleted_at', { withTimezone: true }),
});

export const teamMemberships = pgTable(
  'team_memberships',
  {
    teamId: text('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    role: text('role').$type<TeamRole>().notNull().default('member'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Where the membership came from; it lasts while one of them holds it (0022_scim.sql). */
    fromConsole: boolean('from_console').notNull().default(true),
    fromScim: boolean('from_scim').notNull().default(false),
    fromSignIn: boolean('from_sign_in').notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.userId] })],
);
