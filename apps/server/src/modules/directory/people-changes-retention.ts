import type { FastifyInstance } from 'fastify';
import { startPeriodic } from '../../lib/periodic.ts';
import { createDirectoryRepository } from './directory.repository.ts';

const PURGE_EVERY_MS = 60 * 60_000;

/**
 * Deletes old change notes of the people directory (migration 0008) once the server is
 * ready and then every hour.
 */
export function startPeopleChangesRetention(app: FastifyInstance): void {
  const repository = createDirectoryRepository(app.database.db);
  startPeriodic(
    app,
    PURGE_EVERY_MS,
    async () => {
      await repository.purgeOldChanges();
    },
    'people change notes purge failed',
  );
}
