import type { Database } from '../../db/client.ts';
import type { FastifyBaseLogger } from 'fastify';
import { hostOf, roundClock, runInBatches, wait } from '../../outbound/host-pace.ts';
import type { Fetcher } from '../../outbound/types.ts';
import type { JobDefinition } from '../../jobs/queue.ts';
import { LINK_CHECKS_QUEUE } from '../../jobs/queues.ts';
import { checkAddress, CHECK_TIMEOUT_MS, type CheckOutcome } from './check.ts';
import type { DueCheck, LinkHealthRepository } from './link-health.repository.ts';

export interface LinkCheckRoundOptions {
  db: Database;
  checks: LinkHealthRepository;
  /** The guarded fetcher (decision 0067): every request of a check goes through it. */
  fetcher: Fetcher;
  log: FastifyBaseLogger;
  /** How often a link is checked, in seconds. */
  intervalSeconds: number;
  /** The least time between two requests to one host. */
  perHostIntervalMs: number;
  /** How many hosts are asked at once. */
  hosts?: number;
  /** How many due links a batch takes. */
  batch?: number;
  /**
   * A round starts no new check after this long: the links it took and did not get to are
   * given back, due at once, for the next round.
   */
  budgetMs?: number;
  /** Each request's time, redirects included. */
  timeoutMs?: number;
  /** Stops the round (shutdown): checks under way finish, the rest are given back. */
  signal?: AbortSignal;
  /** For tests: the wait between two requests to a host (ended early when the round stops). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** The instance running the round, named on the links it takes (decision 0082). */
  takenBy?: string | null;
}

/** What a round did, for its log line. */
export interface RoundCounts {
  checked: number;
  fine: number;
  moved: number;
  /** Links that became broken in this round. */
  broken: number;
  /** Failures that do not make a link broken yet (the first of a row), or keep it so. */
  failed: number;
  unknown: number;
  inconclusive: number;
  /** Checks whose link's address changed meanwhile: nothing was written. */
  stale: number;
  /** Checks that threw (a fault of ours): the link is due again when its lease ends. */
  errors: number;
  /** Links taken and given back unchecked, the round's time being up. */
  released: number;
  /**
   * Failures not counted because no site at all answered in their batch: the server's own
   * network, not the sites, was down (see `linkCheckRound`).
   */
  offline: number;
}

/** Failures that say nothing of the site when no site answers at all. */
const NETWORK_FAILURES = new Set(['dns', 'timeout', 'network']);

/** How many hosts must fail at the network in a batch where none answers, to blame our side. */
export const OFFLINE_HOSTS = 2;

/** How long a round takes links: after this it finishes the checks under way, and ends. */
export const LINK_CHECK_ROUND_BUDGET_MS = 4 * 60_000;

/**
 * How long a taken link stays with its round: the round's budget and one check under way
 * per host (a HEAD and a GET, each within the timeout, and the redirects they follow). The
 * links a round does not get to are given back before it ends; when its instance dies,
 * another gives them back sooner (decision 0082).
 */
export const LINK_CHECK_LEASE_SECONDS = LINK_CHECKS_QUEUE.expireInSeconds;

/** How often a link is checked unless the configuration says otherwise: daily. */
export const LINK_CHECK_INTERVAL_SECONDS = 24 * 3600;

/**
 * One round of link checks (decision 0069): takes the due links in batches, asks each host
 * one request at a time and `perHostIntervalMs` apart — also from one batch to the next and
 * between a HEAD and the GET that follows it — checks, and records. Safe with several
 * instances: a link is taken by one round (link-health.repository.ts `takeDue`), and the
 * queue runs one round at a time.
 */
export async function linkCheckRound({
  db,
  checks,
  fetcher,
  log,
  intervalSeconds,
  perHostIntervalMs,
  hosts = 4,
  batch = 200,
  budgetMs = LINK_CHECK_ROUND_BUDGET_MS,
  timeoutMs = CHECK_TIMEOUT_MS,
  signal,
  takenBy = null,
  sleep = wait,
}: LinkCheckRoundOptions): Promise<RoundCounts> {
  const counts: RoundCounts = {
    checked: 0,
    fine: 0,
    moved: 0,
    broken: 0,
    failed: 0,
    unknown: 0,
    inconclusive: 0,
    stale: 0,
    errors: 0,
    released: 0,
    offline: 0,
  };
  const started = Date.now();
  const clock = roundClock(budgetMs, signal);

  // When each host was last asked, across batches: runPacedByHost paces within one.
  const lastAsked = new Map<string, number>();
  const paceHost = async (host: string) => {
    const last = lastAsked.get(host);
    if (last !== undefined) {
      const left = last + perHostIntervalMs - Date.now();
      if (left > 0) await sleep(left, clock.signal);
    }
    lastAsked.set(host, Date.now());
  };

  const record = async (link: DueCheck, outcome: CheckOutcome) => {
    const next = await checks.record(db, link, outcome, { intervalSeconds });
    if (!next) counts.stale += 1;
    else if (!next.conclusive) counts.inconclusive += 1;
    else if (next.state === 'broken' && next.changed) counts.broken += 1;
    else if (outcome.kind === 'failure') counts.failed += 1;
    else if (next.state === 'fine') counts.fine += 1;
    else if (next.state === 'moved') counts.moved += 1;
    else counts.unknown += 1;
  };

  // A batch's failures at the network (no name, no connection, no answer in time) wait for
  // the end of the batch: if some site answered, they are the sites' own and count; if none
  // did, across several hosts, the server itself is cut off (a network down, a resolver
  // gone), and counting them would mark every link of the organization broken. They are then
  // inconclusive: looked at again later, and nothing changes.
  let answered = false;
  let held: { link: DueCheck; outcome: CheckOutcome }[] = [];
  const settleHeld = async () => {
    const hostsDown = new Set(held.map(({ link }) => hostOf(link.url)));
    const cutOff = !answered && hostsDown.size >= OFFLINE_HOSTS;
    if (cutOff) {
      counts.offline += held.length;
      log.warn(
        { links: held.length, hosts: hostsDown.size },
        'no site answered a link check: the server seems cut off from the network; nothing is marked broken',
      );
    }
    for (const { link, outcome } of held) {
      try {
        await record(
          link,
          cutOff
            ? {
                kind: 'inconclusive',
                status: null,
                retryAfterSeconds: null,
                message: `no site answered this round (${outcome.kind === 'failure' ? outcome.failure : outcome.kind})`,
              }
            : outcome,
        );
      } catch (error) {
        counts.errors += 1;
        log.error({ err: error, linkId: link.linkId }, 'checking a link failed');
      }
    }
    held = [];
    answered = false;
  };

  /** Checks one link; false when the round ended while it waited its turn (not asked). */
  const checkOne = async (link: DueCheck): Promise<boolean> => {
    const host = hostOf(link.url);
    await paceHost(host);
    if (clock.signal.aborted) return false;
    counts.checked += 1;
    try {
      // Every request to a host is paced from the answer of the one before: the GET after a
      // HEAD, and each redirect followed (to the host it leads to).
      let current = host;
      const outcome = await checkAddress(fetcher, link.url, {
        timeoutMs,
        beforeRetry: async () => {
          lastAsked.set(current, Date.now());
          current = host;
          await paceHost(host);
        },
        beforeRedirect: async (next) => {
          lastAsked.set(current, Date.now());
          current = hostOf(next);
          await paceHost(current);
        },
      });
      if (outcome.kind === 'failure' && NETWORK_FAILURES.has(outcome.failure)) {
        held.push({ link, outcome });
        return true;
      }
      if (outcome.kind !== 'refused') answered = true;
      await record(link, outcome);
    } catch (error) {
      // A fault of ours, not the site's: logged, and the link is due again after its lease.
      counts.errors += 1;
      log.error({ err: error, linkId: link.linkId }, 'checking a link failed');
    } finally {
      lastAsked.set(host, Date.now());
    }
    return true;
  };

  try {
    counts.released = await runInBatches({
      signal: clock.signal,
      take: (size) => checks.takeDue(db, size, LINK_CHECK_LEASE_SECONDS, takenBy),
      addressOf: (link) => link.url,
      work: checkOne,
      afterBatch: settleHeld,
      release: (links) => checks.release(db, links),
      size: batch,
      // The interval is kept by paceHost, which also spans batches and the GET fallback.
      pace: { intervalMs: 0, hosts, sleep },
    });
  } finally {
    clock.end();
  }
  if (counts.checked > 0 || counts.released > 0) {
    log.info({ ...counts, ms: Date.now() - started }, 'link check round');
  }
  return counts;
}

/** The queue link check rounds run on. */
export const LINK_CHECK_QUEUE = LINK_CHECKS_QUEUE.name;

/**
 * The job that runs the rounds (decision 0069): `stately`, so one round runs at a time across
 * every instance and a round asked for while one runs waits as one; every five minutes, so a
 * first failure is checked again within the half hour it is due in. A round ends within its
 * budget and one check per host, well before the job expires.
 */
export function linkCheckJob(options: LinkCheckRoundOptions): JobDefinition {
  return {
    spec: LINK_CHECKS_QUEUE,
    cron: '*/5 * * * *',
    everySeconds: 300,
    async run() {
      await linkCheckRound(options);
    },
  };
}
