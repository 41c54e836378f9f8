import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.ts';
import { ICON_ROUNDS_QUEUE } from '../../jobs/queues.ts';
import { roundClock, runInBatches } from '../../outbound/host-pace.ts';
import type { DueLink, IconImage, IconsRepository } from './icons.repository.ts';

/** What looking for one address's icon answered. */
export type IconLookup =
  { ok: true; images: IconImage[]; source: string } | { ok: false; reason: string };

export interface IconRoundOptions {
  db: Database;
  icons: IconsRepository;
  /** Finds the icon of an address, through the guarded fetcher; stops when `signal` aborts. */
  lookup: (url: string, signal?: AbortSignal) => Promise<IconLookup>;
  log: FastifyBaseLogger;
  /** When a found icon is looked for again. */
  refreshSeconds: number;
  perHostIntervalMs: number;
  /** How many hosts are asked at once. */
  hosts?: number;
  /** How many due links a batch takes. */
  batch?: number;
  /**
   * A round stops after this long: what it took and did not get to is given back, and the
   * lookups under way are cut (the next round goes on).
   */
  budgetMs?: number;
  signal?: AbortSignal;
  /** The instance running the round, named on the links it takes (decision 0082). */
  takenBy?: string | null;
}

/** How long a round runs at most: it stops taking links, and cuts the lookups under way. */
export const ICON_ROUND_BUDGET_MS = 45_000;

/**
 * How long a taken link stays with its round before another may take it: the round's
 * budget, and time for the round to write down the lookups it cut. No link is held longer;
 * when the instance dies, another gives its links back sooner (decision 0082).
 */
export const ICON_LEASE_SECONDS = ICON_ROUNDS_QUEUE.expireInSeconds;

/**
 * When a link without an icon is looked at again: an hour after the first miss, doubling,
 * and never later than the refresh. A site down for a moment gets its icon soon; a site that
 * has none is not asked every minute.
 */
export function retryAfterSeconds(tries: number, refreshSeconds: number): number {
  const hours = 2 ** Math.min(Math.max(tries - 1, 0), 10);
  return Math.min(hours * 3600, refreshSeconds);
}

/**
 * One round of icon finding (decision 0068): takes the due links in batches, asks each host
 * at its pace, keeps what is found. Safe with several instances: a link is taken by one round
 * (icons.repository.ts takeDue), and the queue runs one round at a time.
 */
export async function iconRound({
  db,
  icons,
  lookup,
  log,
  refreshSeconds,
  perHostIntervalMs,
  hosts = 4,
  batch = 200,
  budgetMs = ICON_ROUND_BUDGET_MS,
  signal,
  takenBy = null,
}: IconRoundOptions): Promise<{ looked: number; found: number; released: number }> {
  let looked = 0;
  let found = 0;
  const clock = roundClock(budgetMs, signal);
  let released: number;
  try {
    released = await runInBatches({
      signal: clock.signal,
      take: (size) => icons.takeDue(db, size, ICON_LEASE_SECONDS, takenBy),
      addressOf: (link) => link.url,
      work: async (link: DueLink) => {
        looked += 1;
        try {
          const result = await lookup(link.url, clock.signal);
          // Cut by the end of the round: not the site's answer; given back.
          if (clock.signal.aborted) return false;
          if (result.ok) {
            if (await icons.found(db, link, result.images, result.source, refreshSeconds))
              found += 1;
          } else {
            await icons.notFound(
              db,
              link,
              result.reason,
              retryAfterSeconds(link.tries, refreshSeconds),
            );
          }
        } catch (error) {
          // A fault of ours, not the site's: logged, and the link is due again after its lease.
          log.error({ err: error, linkId: link.linkId }, 'looking for an icon failed');
        }
        return true;
      },
      release: (links) => icons.release(db, links),
      size: batch,
      pace: { intervalMs: perHostIntervalMs, hosts },
    });
  } finally {
    clock.end();
  }
  if (looked > 0) log.info({ looked, found, released }, 'icon round');
  return { looked, found, released };
}
