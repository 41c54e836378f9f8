// The audit log's entries about one target, as the services' tests read them.
import { asc, eq } from 'drizzle-orm';
import type { Database } from '../../src/db/client.ts';
import { auditLog } from '../../src/db/schema/index.ts';

/** The audit entries about one target, oldest first. */
export const auditEntriesAbout = (db: Database, targetId: string) =>
  db
    .select()
    .from(auditLog)
    .where(eq(auditLog.targetId, targetId))
    .orderBy(asc(auditLog.occurredAt));
