// The alerting rules in docs/grafana/signpost-alerts.yaml against the server's code: every
// queue the server defines has its "late" rule, at its budget, and the rule for waiting jobs
// covers every queue and waits longer than any round may run. A budget changed in the code
// (or a queue added) fails here until the rule file follows.
import { readFile } from 'node:fs/promises';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { openDatabase } from '../src/db/client.ts';
import { SEND_MAIL, type QueueBudget } from '../src/jobs/queue.ts';
import { ICON_CLEANUP, ICON_ROUNDS } from '../src/modules/icons/icons.rounds.ts';
import { ICON_ROUND_BUDGET_MS } from '../src/modules/icons/icons.worker.ts';
import { CHECK_TIMEOUT_MS } from '../src/modules/link-health/check.ts';
import {
  LINK_CHECK_QUEUE,
  LINK_CHECK_ROUND_BUDGET_MS,
} from '../src/modules/link-health/link-health.worker.ts';
import type { Fetcher } from '../src/outbound/types.ts';
import { composeServer } from '../src/root.ts';
import { testConfig } from './app.ts';

interface Rule {
  alert?: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

const file = new URL('../../../docs/grafana/signpost-alerts.yaml', import.meta.url);
const { groups } = parse(await readFile(file, 'utf8')) as {
  groups: { name: string; rules: Rule[] }[];
};
const rules = groups.flatMap((group) => group.rules);

/**
 * Every queue the server works when all its work is on: mail configured, and the rounds on
 * the sites links point to. Composed by the real root, on a PostgreSQL pool that never
 * connects (nothing here touches the database).
 */
async function serverQueues(): Promise<QueueBudget[]> {
  const database = await openDatabase({ url: 'postgres://nobody@127.0.0.1:1/none', dataDir: null });
  afterAll(() => database.close());
  const fetcher: Fetcher = {
    fetch: () => Promise.reject(new Error('no request in this test')),
    close: async () => {},
  };
  const root = composeServer({
    config: testConfig({
      OUTBOUND_REQUESTS: 'true',
      SMTP_URL: 'smtp://127.0.0.1:1',
      MAIL_FROM: 'Signpost <signpost@example.test>',
    }),
    database,
    log: pino({ level: 'silent' }),
    fetcher,
    periodicJobs: true,
  });
  return root.services.jobs.queues();
}
const queues = await serverQueues();

/** Prometheus's duration ("90s", "15m", "1h") in seconds. */
function seconds(duration: string): number {
  const match = /^(\d+)(s|m|h)$/.exec(duration);
  if (!match) throw new Error(`not a duration this test reads: ${duration}`);
  return Number(match[1]) * { s: 1, m: 60, h: 3600 }[match[2] as 's' | 'm' | 'h'];
}

const LATE =
  /^max by \(queue\) \(signpost_job_queue_oldest_active_seconds\{queue="([^"]+)"\}\) > (\d+)$/;

describe('the alerting rules of the job queues', () => {
  it('are read from the server: mail and every round', () => {
    expect(queues.map((q) => q.queue).sort()).toEqual(
      [SEND_MAIL, ICON_ROUNDS, ICON_CLEANUP, LINK_CHECK_QUEUE].sort(),
    );
  });

  it('have one "late" rule per queue the server defines, at that queue’s budget', () => {
    const late = rules
      .map((rule) => ({ rule, match: LATE.exec(rule.expr) }))
      .filter(({ rule }) => rule.expr.includes('signpost_job_queue_oldest_active_seconds'));
    // Every rule on the age has the one shape this test reads.
    for (const { rule, match } of late) expect(match, rule.expr).not.toBeNull();
    const thresholds = new Map<string, number[]>();
    for (const { match } of late) {
      const [, queue, threshold] = match!;
      thresholds.set(queue!, [...(thresholds.get(queue!) ?? []), Number(threshold)]);
    }
    for (const { queue, budgetSeconds } of queues) {
      expect(thresholds.get(queue), queue).toEqual([budgetSeconds]);
    }
    // And none for a queue the server does not have.
    expect([...thresholds.keys()].sort()).toEqual(queues.map((q) => q.queue).sort());
    for (const { rule } of late) {
      expect(rule.alert, rule.expr).toMatch(/^Signpost[A-Za-z]+$/);
      expect(rule.labels?.severity, rule.expr).toBe('warning');
      expect(rule.annotations?.summary, rule.expr).toBeTruthy();
    }
    // Names are unique (Grafana's import wants one title per rule).
    const names = rules.map((rule) => rule.alert);
    expect(new Set(names).size).toBe(names.length);
  });

  it('fire before the queue gives up on a job, and after a healthy round has ended', () => {
    for (const { queue, budgetSeconds, expireInSeconds } of queues) {
      // At least 30 s (a 15 s scrape and evaluation, twice) above the budget before pg-boss
      // fails the job past its expiry (looked for every 15 s), and the figure drops.
      expect(expireInSeconds - budgetSeconds, queue).toBeGreaterThanOrEqual(30);
    }
    const budget = (name: string) => queues.find((q) => q.queue === name)!.budgetSeconds;
    // An icon round takes no new batch after its budget.
    expect(budget(ICON_ROUNDS) * 1000).toBeGreaterThan(ICON_ROUND_BUDGET_MS);
    // A link check round takes no new check after its budget; one under way per host (a
    // HEAD, then a GET) finishes after it.
    expect(budget(LINK_CHECK_QUEUE) * 1000).toBeGreaterThanOrEqual(
      LINK_CHECK_ROUND_BUDGET_MS + 2 * CHECK_TIMEOUT_MS,
    );
  });

  it('have a rule for waiting jobs of every queue, longer than any round may run', () => {
    const waiting = rules.filter((rule) => rule.expr.includes('signpost_job_queue_waiting'));
    expect(waiting).toHaveLength(1);
    const [rule] = waiting;
    // No queue left out: the rule names none.
    expect(rule!.expr).toBe('max by (queue) (signpost_job_queue_waiting) > 0');
    // A round's next job waits while one runs: up to its budget, when all is well.
    const longest = Math.max(...queues.map((q) => q.budgetSeconds));
    expect(seconds(rule!.for ?? '0s')).toBeGreaterThan(longest);
  });
});
