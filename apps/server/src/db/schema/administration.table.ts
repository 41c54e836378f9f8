import { jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { organizations } from './organizations.table.ts';
import { users } from './users.table.ts';

export type InvitationKind = 'invitation' | 'password-reset';

/** What became of an invitation's mail (0021_invitation_mail.sql); null: none was queued. */
export type InvitationMailState = 'queued' | 'retrying' | 'sent' | 'failed';

/** A single-use link that lets a person choose their password (0005_administration.sql). */
export const invitations = pgTable('invitations', {
  id: text('id').primaryKey(),
  organizationId: text('organization_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  userId: text('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  kind: text('kind').$type<InvitationKind>().notNull().default('invitation'),
  tokenHash: text('token_hash').notNull().unique(),
  createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  revokedAt: timestamp('revoked_at', { withTimezone: true }),
  mailState: text('mail_state').$type<InvitationMailState>(),
  mailStateAt: timestamp('mail_state_at', { withTimezone: true }),
});

/** The hash of each first-run setup code a server printed while there was no organization. */
export const setupCodes = pgTable('setup_codes', {
  codeHash: text('code_hash').primaryKey(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/** Append-only: the database refuses changes and early deletions (0005_administration.sql). */
export const auditLog = pgTable('audit_log', {
  id: text('id').primaryKey(),
  organizationId: text('organization_id').references(() => organizations.id, {
    onDelete: 'cascade',
  }),
  occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull().defaultNow(),
  actorId: text('actor_id'),
  actorName: text('actor_name'),
  actorEmail: text('actor_email'),
  action: text('action').notNull(),
  targetType: text('target_type'),
  targetId: text('target_id'),
  targetLabel: text('target_label'),
  ip: text('ip'),
  userAgent: text('user_agent'),
  before: jsonb('before'),
  after: jsonb('after'),
  details: jsonb('details'),
});
