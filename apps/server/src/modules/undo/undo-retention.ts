import type { PeriodicTask } from '../../jobs/periodic.ts';
import type { UndoService } from './undo.service.ts';

const PURGE_EVERY_MS = 60 * 60_000;

/**
 * Deletes the snapshots of deletions that can no longer be undone (decision 0052) at start
 * and then every hour.
 */
export const undoRetention = (undo: UndoService): PeriodicTask => ({
  name: 'undo snapshot purge',
  everyMs: PURGE_EVERY_MS,
  async run(log) {
    const deleted = await undo.purgeExpired();
    if (deleted > 0) log.info({ deleted }, 'expired undo snapshots deleted');
  },
});
