import { sql } from 'drizzle-orm';
import { boolean, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { organizations } from './organizations.table.ts';

export type OrganizationRole = 'member' | 'admin';
export type UserStatus = 'active' | 'disabled' | 'invited';

export const users = pgTable('users', {
  id: text('id').primaryKey(),
  organizationId: text('organization_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  email: text('email').notNull(),
  passwordHash: text('password_hash'),
  role: text('role').$type<OrganizationRole>().notNull().default('member'),
  status: text('status').$type<UserStatus>().notNull().default('active'),
  lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  /** What the people list sorts and searches by, kept by the database (0007_people_list.sql). */
  sortName: text('sort_name')
    .notNull()
    .generatedAlwaysAs(sql`lower(name)`),
  searchText: text('search_text')
    .notNull()
    .generatedAlwaysAs(sql`lower(name) || E'\\n' || lower(email)`),
  /** SCIM (0022_scim.sql): the identity system's `userName` when it is not the e-mail address. */
  scimUserName: text('scim_user_name'),
  externalId: text('external_id'),
  /** What SCIM sent that has no column (name parts, title, extensions), given back as sent. */
  scimAttributes: jsonb('scim_attributes').$type<Record<string, unknown>>(),
  /** When SCIM disabled the person: SCIM enables again only whom it disabled. */
  scimDisabledAt: timestamp('scim_disabled_at', { withTimezone: true }),
  /** When SCIM deleted the person: disabled, and no longer a SCIM resource. */
  scimDeletedAt: timestamp('scim_deleted_at', { withTimezone: true }),
  /** An administrator by a sign-in's groups, not by hand (0022_scim.sql). */
  adminFromSignIn: boolean('admin_from_sign_in').notNull().default(false),
});
