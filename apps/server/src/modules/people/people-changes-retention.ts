import type { FastifyInstance } from 'fastify';
import { startPeriodic } from '../../lib/periodic.ts';
import { purgeOldChanges } from './people-directories.ts';

const PURGE_EVERY_MS = 60 * 60_000;

/**
 * Deletes old change notes of the people directory (migration 0008) once the server is
 * ready and then every hour.
 */
export function startPeopleChangesRetention(app: FastifyInstance): void {
  startPeriodic(
    app,
    PURGE_EVERY_MS,
    async () => {
      await purgeOldChanges(app.database.db);
    },
    'people change notes purge failed',
  );
}
