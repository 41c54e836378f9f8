import { sql } from 'drizzle-orm';
import { customType, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** A transaction id (xid8), which Drizzle has no column for; read and compared as text. */
const xid8 = customType<{ data: string }>({ dataType: () => 'xid8' });

/**
 * What changed in the people list, with the transaction that changed it: written by
 * triggers, read by the people directories (0008_people_changes.sql, decision 0046).
 */
export const peopleChanges = pgTable('people_changes', {
  organizationId: text('organization_id').notNull(),
  /** Null when the organization's team names changed. */
  userId: text('user_id'),
  xid: xid8('xid')
    .notNull()
    .default(sql`pg_current_xact_id()`),
  changedAt: timestamp('changed_at', { withTimezone: true })
    .notNull()
    .default(sql`clock_timestamp()`),
});
