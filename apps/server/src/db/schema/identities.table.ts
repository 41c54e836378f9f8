import { integer, pgTable, text, timestamp, unique } from 'drizzle-orm/pg-core';
import { sessions } from './sessions.table.ts';
import { users } from './users.table.ts';

export const identities = pgTable(
  'identities',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    providerId: text('provider_id').notNull(),
    issuer: text('issuer').notNull(),
    subject: text('subject').notNull(),
    email: text('email'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique().on(t.issuer, t.subject)],
);

export const ssoAttempts = pgTable('sso_attempts', {
  id: text('id').primaryKey(),
  providerId: text('provider_id').notNull(),
  state: text('state').notNull().unique(),
  nonce: text('nonce').notNull(),
  codeVerifier: text('code_verifier').notNull(),
  browserHash: text('browser_hash').notNull(),
  returnTo: text('return_to').notNull().default('/'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  /** Set when the sign-in re-authenticates this session instead of opening one (decision 0048). */
  sessionId: text('session_id').references(() => sessions.id, { onDelete: 'cascade' }),
});

/** A single sign-on waiting for the person's second factor (decision 0048). */
export const ssoSecondFactorTickets = pgTable('sso_second_factor_tickets', {
  id: text('id').primaryKey(),
  ticketHash: text('ticket_hash').notNull().unique(),
  browserHash: text('browser_hash').notNull(),
  userId: text('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  providerId: text('provider_id').notNull(),
  idToken: text('id_token').notNull(),
  attempts: integer('attempts').notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
});

export const sessionSso = pgTable('session_sso', {
  sessionId: text('session_id')
    .primaryKey()
    .references(() => sessions.id, { onDelete: 'cascade' }),
  providerId: text('provider_id').notNull(),
  idToken: text('id_token').notNull(),
});
