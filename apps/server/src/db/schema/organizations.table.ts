import { boolean, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

export const organizations = pgTable('organizations', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  feedbackUrl: text('feedback_url'),
  consentUrl: text('consent_url'),
  personalIntro: text('personal_intro').notNull().default(''),
  teamIntro: text('team_intro').notNull().default(''),
  organizationIntro: text('organization_intro').notNull().default(''),
  passwordSignIn: boolean('password_sign_in').notNull().default(true),
  ssoDomains: text('sso_domains').array().notNull().default([]),
  auditRetentionDays: integer('audit_retention_days').notNull().default(365),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
