import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import type { JobDefinition } from '../../jobs/queue.ts';
import { ICON_CLEANUP_QUEUE, ICON_ROUNDS_QUEUE } from '../../jobs/queues.ts';
import type { Fetcher } from '../../outbound/types.ts';
import type { IconsRepository } from './icons.repository.ts';
import { iconRound, type IconLookup } from './icons.worker.ts';
import { findIcon } from './find-icon.ts';

/** The queue of icon rounds, and of the cleanup of icons no link uses. */
export const ICON_ROUNDS = ICON_ROUNDS_QUEUE.name;
export const ICON_CLEANUP = ICON_CLEANUP_QUEUE.name;

/** How long an icon no link uses is kept before it goes (a link restored by undo finds it). */
const UNUSED_GRACE_SECONDS = 7 * 24 * 3600;

/** Finds an address's icon through the fetcher, in the shape a round keeps. */
export function lookupWith(fetcher: Fetcher) {
  return async (url: string, signal?: AbortSignal): Promise<IconLookup> => {
    const found = await findIcon(fetcher, url, signal ? { signal } : {});
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
  /** This instance: the links its rounds take carry it (decision 0082). */
  instanceId: string | null;
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
  instanceId,
}: IconJobsOptions): JobDefinition[] {
  const lookup = lookupWith(fetcher);
  return [
    {
      spec: ICON_ROUNDS_QUEUE,
      cron: '* * * * *',
      everySeconds: 60,
      run: async () => {
        await iconRound({
          db,
          icons,
          lookup,
          log,
          refreshSeconds: config.outbound.iconRefreshHours * 3600,
          perHostIntervalMs: config.outbound.perHostIntervalMs,
          signal: stopping,
          takenBy: instanceId,
        });
      },
    },
    {
      spec: ICON_CLEANUP_QUEUE,
      cron: '17 3 * * *',
      everySeconds: 24 * 3600,
      run: async () => {
        const deleted = await icons.deleteUnused(db, UNUSED_GRACE_SECONDS);
        if (deleted > 0) log.info({ deleted }, 'icons no link uses deleted');
      },
    },
  ];
}
