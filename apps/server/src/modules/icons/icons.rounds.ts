import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import type { JobDefinition } from '../../jobs/queue.ts';
import type { Fetcher } from '../../outbound/types.ts';
import type { IconsRepository } from './icons.repository.ts';
import { iconRound, type IconLookup } from './icons.worker.ts';
import { findIcon } from './find-icon.ts';

/** The queue of icon rounds, and of the cleanup of icons no link uses. */
export const ICON_ROUNDS = 'link-icons';
export const ICON_CLEANUP = 'icons-cleanup';

/** How long an icon no link uses is kept before it goes (a link restored by undo finds it). */
const UNUSED_GRACE_SECONDS = 7 * 24 * 3600;

/** Finds an address's icon through the fetcher, in the shape a round keeps. */
export function lookupWith(fetcher: Fetcher) {
  return async (url: string): Promise<IconLookup> => {
    const found = await findIcon(fetcher, url);
    if (found.ok) {
      return { ok: true, source: found.source, images: found.images };
    }
    const tried = found.attempts.map((a) => `${a.url}: ${a.outcome}`).join('; ');
    return { ok: false, reason: tried === '' ? found.reason : `${found.reason} (${tried})` };
  };
}

export interface IconJobsOptions {
  config: Config;
  db: Database;
  icons: IconsRepository;
  fetcher: Fetcher;
  log: FastifyBaseLogger;
  /** Aborted as the server starts closing: a round stops taking links. */
  stopping: AbortSignal;
}

/**
 * Icon rounds on the job queue (decision 0068): one a minute across every instance (a
 * stately queue runs one at a time), and one soon after a link is saved (the icons service's
 * `lookSoon`); a daily cleanup. Only where the server may reach the sites links point to
 * (OUTBOUND_REQUESTS).
 */
export function iconJobs({
  config,
  db,
  icons,
  fetcher,
  log,
  stopping,
}: IconJobsOptions): JobDefinition[] {
  const lookup = lookupWith(fetcher);
  return [
    {
      queue: ICON_ROUNDS,
      policy: 'stately',
      cron: '* * * * *',
      everySeconds: 60,
      expireInSeconds: 15 * 60,
      // A round takes no new batch after 45 s (iconRound's budget) and ends before the next
      // is due; past its minute, icons of new links wait.
      budgetSeconds: 60,
      run: async () => {
        await iconRound({
          db,
          icons,
          lookup,
          log,
          refreshSeconds: config.outbound.iconRefreshHours * 3600,
          perHostIntervalMs: config.outbound.perHostIntervalMs,
          signal: stopping,
        });
      },
    },
    {
      queue: ICON_CLEANUP,
      policy: 'stately',
      cron: '17 3 * * *',
      everySeconds: 24 * 3600,
      expireInSeconds: 15 * 60,
      // One DELETE: seconds. Ten minutes leaves five before the job expires.
      budgetSeconds: 10 * 60,
      run: async () => {
        const deleted = await icons.deleteUnused(db, UNUSED_GRACE_SECONDS);
        if (deleted > 0) log.info({ deleted }, 'icons no link uses deleted');
      },
    },
  ];
}
