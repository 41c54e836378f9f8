import type { PeriodicTask } from '../../jobs/periodic.ts';
import type { AuditService } from './audit.service.ts';

/** How often expired audit entries are deleted. */
export const PURGE_EVERY_MS = 60 * 60_000;

/** Deletes expired audit entries at start and then every hour. */
export const auditRetention = (audit: AuditService): PeriodicTask => ({
  name: 'audit retention',
  everyMs: PURGE_EVERY_MS,
  async run(log) {
    const deleted = await audit.purgeExpired();
    if (deleted > 0) log.info({ deleted }, 'expired audit entries deleted');
  },
});
