import type { FastifyInstance } from 'fastify';
import type { Fetcher } from '../../outbound/types.ts';
import { createIconsRepository } from './icons.repository.ts';
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

/**
 * Icon rounds on the job queue (decision 0068): one a minute across every instance (a
 * stately queue runs one at a time), and one soon after a link is saved; a daily cleanup.
 * Only where the server may reach the sites links point to (OUTBOUND_REQUESTS).
 */
export function startIconRounds(
  app: FastifyInstance,
  fetcher: Fetcher,
  stopping: AbortSignal,
): void {
  const { config, database, jobs, log } = app;
  const icons = createIconsRepository(database.db);
  const lookup = lookupWith(fetcher);
  jobs.define({
    queue: ICON_ROUNDS,
    policy: 'stately',
    cron: '* * * * *',
    everySeconds: 60,
    expireInSeconds: 15 * 60,
    run: async () => {
      await iconRound({
        icons,
        lookup,
        log,
        refreshSeconds: config.outbound.iconRefreshHours * 3600,
        perHostIntervalMs: config.outbound.perHostIntervalMs,
        signal: stopping,
      });
    },
  });
  jobs.define({
    queue: ICON_CLEANUP,
    policy: 'stately',
    cron: '17 3 * * *',
    everySeconds: 24 * 3600,
    expireInSeconds: 15 * 60,
    run: async () => {
      const deleted = await icons.deleteUnused(UNUSED_GRACE_SECONDS);
      if (deleted > 0) log.info({ deleted }, 'icons no link uses deleted');
    },
  });
  // A saved link's icon is looked for at once, not at the next minute.
  app.addHook('onResponse', async (request, reply) => {
    if (reply.statusCode >= 300 || !request.routeOptions.url) return;
    if (!SAVES_A_LINK.has(`${request.method} ${request.routeOptions.url}`)) return;
    await jobs.runSoon(ICON_ROUNDS).catch((error: unknown) => {
      log.warn({ err: error }, 'could not ask for an icon round');
    });
  });
}

/** The routes whose success saves a link's address. */
const SAVES_A_LINK = new Set([
  'POST /api/consumer/collections/:id/links',
  'PATCH /api/consumer/links/:id',
]);
