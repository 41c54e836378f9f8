import type { Executor } from '../../db/client.ts';
import { auditLog } from '../../db/schema/index.ts';

export type AuditRow = typeof auditLog.$inferInsert;

export function createAuditRepository(db: Executor) {
  return {
    async insert(row: AuditRow): Promise<void> {
      await db.insert(auditLog).values(row);
    },
  };
}
export type AuditRepository = ReturnType<typeof createAuditRepository>;
