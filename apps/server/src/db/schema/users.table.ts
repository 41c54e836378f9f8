import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';
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
});
