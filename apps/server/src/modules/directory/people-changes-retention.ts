import type { PeriodicTask } from '../../jobs/periodic.ts';
import type { PeopleDirectory } from './directory.service.ts';

const PURGE_EVERY_MS = 60 * 60_000;

/**
 * Deletes old change notes of the people directory (migration 0008) at start and then
 * every hour.
 */
export const peopleChangesRetention = (directory: PeopleDirectory): PeriodicTask => ({
  name: 'people change notes purge',
  everyMs: PURGE_EVERY_MS,
  async run() {
    await directory.purgeOldChanges();
  },
});
