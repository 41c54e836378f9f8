import type { FastifyInstance } from 'fastify';
import { startPeriodic } from '../../lib/periodic.ts';
import { purgeExpiredUndo } from './undo.service.ts';

const PURGE_EVERY_MS = 60 * 60_000;

/**
 * Deletes the snapshots of deletions that can no longer be undone (decision 0052) once the
 * server is ready and then every hour.
 */
export function startUndoRetention(app: FastifyInstance): void {
  startPeriodic(
    app,
    PURGE_EVERY_MS,
    async () => {
      const deleted = await purgeExpiredUndo(app.database.db);
      if (deleted > 0) app.log.info({ deleted }, 'expired undo snapshots deleted');
    },
    'undo snapshot purge failed',
  );
}
