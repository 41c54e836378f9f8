import { boolean, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { organizations } from './organizations.table.ts';
import { teams } from './teams.table.ts';

/** Per provider, the claim that lists a person's groups (0022_scim.sql). */
export const ssoGroupClaims = pgTable(
  'sso_group_claims',
  {
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    providerId: text('provider_id').notNull(),
    claim: text('claim').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.providerId] })],
);

/** Which group of a sign-in gives which team, or the administrator role. */
export const ssoGroupMappings = pgTable('sso_group_mappings', {
  id: text('id').primaryKey(),
  organizationId: text('organization_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  providerId: text('provider_id').notNull(),
  groupValue: text('group_value').notNull(),
  teamId: text('team_id').references(() => teams.id, { onDelete: 'cascade' }),
  teamRole: text('team_role').$type<'member' | 'editor'>(),
  grantsAdmin: boolean('grants_admin').notNull().default(false),
});
