import type { FastifyInstance } from 'fastify';
import { startPeriodic } from '../../lib/periodic.ts';
import { purgeExpired } from './audit.service.ts';

/** How often expired audit entries are deleted. */
export const PURGE_EVERY_MS = 60 * 60_000;

/** Deletes expired audit entries once the server is ready and then every hour. */
export function startAuditRetention(app: FastifyInstance): void {
  startPeriodic(
    app,
    PURGE_EVERY_MS,
    async () => {
      const deleted = await purgeExpired(app.database.db);
      if (deleted > 0) app.log.info({ deleted }, 'expired audit entries deleted');
    },
    'audit retention failed',
  );
}
