import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users.table.ts';

/** The running server processes on this database (0020_instances.sql, decision 0082). */
export const instances = pgTable('instances', {
  id: text('id').primaryKey(),
  host: text('host').notNull(),
  pid: integer('pid').notNull(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
  seenAt: timestamp('seen_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The queue's jobs each instance is running. */
export const instanceJobs = pgTable('instance_jobs', {
  jobId: text('job_id').primaryKey(),
  queue: text('queue').notNull(),
  instanceId: text('instance_id')
    .notNull()
    .references(() => instances.id, { onDelete: 'cascade' }),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The live update streams open on each instance, counted across all of them. */
export const liveStreams = pgTable('live_streams', {
  id: text('id').primaryKey(),
  instanceId: text('instance_id')
    .notNull()
    .references(() => instances.id, { onDelete: 'cascade' }),
  userId: text('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  credential: text('credential').notNull(),
  openedAt: timestamp('opened_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Mails the SMTP server accepted, by the job that sent them. */
export const mailAccepted = pgTable('mail_accepted', {
  jobId: text('job_id').primaryKey(),
  acceptedAt: timestamp('accepted_at', { withTimezone: true }).notNull().defaultNow(),
});
