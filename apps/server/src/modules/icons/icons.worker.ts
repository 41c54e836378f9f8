import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.ts';
import { runPacedByHost } from '../../outbound/host-pace.ts';
import type { DueLink, IconImage, IconsRepository } from './icons.repository.ts';

/** What looking for one address's icon answered. */
export type IconLookup =
  { ok: true; images: IconImage[]; source: string } | { ok: false; reason: string };

export interface IconRoundOptions {
  db: Database;
  icons: IconsRepository;
  /** Finds the icon of an address, through the guarded fetcher. */
  lookup: (url: string) => Promise<IconLookup>;
  log: FastifyBaseLogger;
  /** When a found icon is looked for again. */
  refreshSeconds: number;
  perHostIntervalMs: number;
  /** How many hosts are asked at once. */
  hosts?: number;
  /** How many due links a batch takes. */
  batch?: number;
  /** A round takes no new batch after this long (the next round goes on). */
  budgetMs?: number;
  signal?: AbortSignal;
}

/** How long a round takes new batches: the next round is due a minute after it began. */
export const ICON_ROUND_BUDGET_MS = 45_000;

/** How long a taken link stays with its round before another may take it. */
export const ICON_LEASE_SECONDS = 15 * 60;

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
}: IconRoundOptions): Promise<{ looked: number; found: number }> {
  const started = Date.now();
  let looked = 0;
  let found = 0;
  while (!signal?.aborted && Date.now() - started < budgetMs) {
    const due = await icons.takeDue(db, batch, ICON_LEASE_SECONDS);
    if (due.length === 0) break;
    await runPacedByHost(
      due,
      (link) => link.url,
      async (link: DueLink) => {
        looked += 1;
        try {
          const result = await lookup(link.url);
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
      },
      { intervalMs: perHostIntervalMs, hosts, signal },
    );
    if (due.length < batch) break;
  }
  if (looked > 0) log.info({ looked, found }, 'icon round');
  return { looked, found };
}
