import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { links } from './links.table.ts';
import { organizations } from './organizations.table.ts';
import { users } from './users.table.ts';

/**
 * Where each link's address stands, kept by triggers on `links` (0015_link_checks.sql,
 * decision 0069). `movedTo` is set exactly when the state is `moved`.
 */
export const linkChecks = pgTable('link_checks', {
  linkId: text('link_id')
    .primaryKey()
    .references(() => links.id, { onDelete: 'cascade' }),
  organizationId: text('organization_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  url: text('url').notNull(),
  state: text('state')
    .$type<'fine' | 'moved' | 'broken' | 'unknown'>()
    .notNull()
    .default('unknown'),
  failures: integer('failures').notNull().default(0),
  status: integer('status'),
  failureKind: text('failure_kind'),
  failure: text('failure'),
  movedTo: text('moved_to'),
  checkedAt: timestamp('checked_at', { withTimezone: true }),
  stateChangedAt: timestamp('state_changed_at', { withTimezone: true }).notNull().defaultNow(),
  tries: integer('tries').notNull().default(0),
  dueAt: timestamp('due_at', { withTimezone: true }).notNull().defaultNow(),
  /** The instance whose round holds the link (0020_instances.sql). */
  takenBy: text('taken_by'),
  /** A broken finding marked wrong, for this address (0018_link_check_dismissals.sql). */
  dismissedUrl: text('dismissed_url'),
  dismissedAt: timestamp('dismissed_at', { withTimezone: true }),
  dismissedBy: text('dismissed_by').references(() => users.id, { onDelete: 'set null' }),
});
