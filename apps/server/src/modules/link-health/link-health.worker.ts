import type { Database } from '../../db/client.ts';
import type { FastifyBaseLogger } from 'fastify';
import { hostOf, runPacedByHost } from '../../outbound/host-pace.ts';
import type { Fetcher } from '../../outbound/types.ts';
import type { JobDefinition } from '../../jobs/queue.ts';
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
  /** For tests: the wait between two requests to a host. */
  sleep?: (ms: number) => Promise<void>;
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

/**
 * How long a taken link stays with its round. It covers a round's budget and one check
 * under way per host (a HEAD and a GET, each within the timeout), with room to spare; the
 * links a round does not get to are given back before it ends.
 */
export const LINK_CHECK_LEASE_SECONDS = 15 * 60;

/** How long a round takes new checks: the next round is due five minutes after it began. */
export const LINK_CHECK_ROUND_BUDGET_MS = 4 * 60_000;

/** How often a link is checked unless the configuration says otherwise: daily. */
export const LINK_CHECK_INTERVAL_SECONDS = 24 * 3600;

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

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
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), budgetMs);
  timer.unref();
  const onAbort = () => stop.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  if (signal?.aborted) stop.abort();

  // When each host was last asked, across batches: runPacedByHost paces within one.
  const lastAsked = new Map<string, number>();
  const paceHost = async (host: string) => {
    const last = lastAsked.get(host);
    if (last !== undefined) {
      const left = last + perHostIntervalMs - Date.now();
      if (left > 0) await sleep(left);
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

  const checkOne = async (link: DueCheck) => {
    const host = hostOf(link.url);
    await paceHost(host);
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
        return;
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
  };

  try {
    while (!stop.signal.aborted) {
      const due = await checks.takeDue(db, batch, LINK_CHECK_LEASE_SECONDS);
      if (due.length === 0) break;
      const done = new Set<DueCheck>();
      await runPacedByHost(
        due,
        (link) => link.url,
        async (link) => {
          done.add(link);
          await checkOne(link);
        },
        // The interval is kept by paceHost, which also spans batches and the GET fallback.
        { intervalMs: 0, hosts, signal: stop.signal, sleep },
      );
      await settleHeld();
      const left = due.filter((link) => !done.has(link));
      if (left.length > 0) {
        await checks.release(db, left);
        counts.released += left.length;
      }
      if (due.length < batch) break;
    }
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
  if (counts.checked > 0 || counts.released > 0) {
    log.info({ ...counts, ms: Date.now() - started }, 'link check round');
  }
  return counts;
}

/** The queue link check rounds run on. */
export const LINK_CHECK_QUEUE = 'link-checks';

/**
 * The job that runs the rounds (decision 0069): `stately`, so one round runs at a time across
 * every instance and a round asked for while one runs waits as one; every five minutes, so a
 * first failure is checked again within the half hour it is due in. A round ends within its
 * budget and one check per host, well before the job expires.
 */
export function linkCheckJob(options: LinkCheckRoundOptions): JobDefinition {
  return {
    queue: LINK_CHECK_QUEUE,
    policy: 'stately',
    cron: '*/5 * * * *',
    everySeconds: 300,
    expireInSeconds: LINK_CHECK_LEASE_SECONDS,
    // The round's budget (4 min), the checks under way then (a HEAD and a GET per host, each
    // within CHECK_TIMEOUT_MS) and the giving back of the rest: within the five minutes
    // before the next round is due.
    budgetSeconds: 5 * 60,
    async run() {
      await linkCheckRound(options);
    },
  };
}
