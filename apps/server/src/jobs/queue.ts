import { hostname } from 'node:os';
import type pg from 'pg';
import type PgBoss from 'pg-boss';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import { DatabasePool, type DatabaseHandle } from '../db/client.ts';
import { withStartupLock } from '../db/migrate.ts';
import type { HeldJob, InstanceRegistry } from './instances.ts';
import { createMailer, type MailMessage, type Mailer } from './mailer.ts';
import { QUEUES, SEND_MAIL_QUEUE, queueOptions, type QueueSpec } from './queues.ts';

/** The queue of outgoing mail. */
export const SEND_MAIL = SEND_MAIL_QUEUE.name;

/** How often a mail is tried again, and how long the first wait is (it doubles each time). */
export const MAIL_RETRIES = {
  limit: SEND_MAIL_QUEUE.retryLimit,
  delaySeconds: SEND_MAIL_QUEUE.retryDelaySeconds,
};

/**
 * How often pg-boss looks for jobs active past their queue's limit (a backstop: the jobs of
 * a gone instance are failed sooner by the instance registry, decision 0082).
 */
const MAINTENANCE_SECONDS = 15;

/** How long a mail's acceptance is remembered, against sending it twice. */
const ACCEPTED_DAYS = 7;

/** How long sending one mail may take before pg-boss counts it failed (and tries again). */
export const MAIL_EXPIRE_SECONDS = SEND_MAIL_QUEUE.expireInSeconds;

/** How long sending one mail takes at most when all is well (jobs/queues.ts). */
export const MAIL_BUDGET_SECONDS = SEND_MAIL_QUEUE.budgetSeconds;

/** The most a reading of the queues' figures (`Jobs.stats`) waits for the database. */
export const JOB_STATS_TIMEOUT_MS = 2000;

/**
 * The connections of the queue's own pool on PostgreSQL: its workers' polls, its schedules
 * and maintenance, and the metrics' reading of its tables, each a short statement.
 */
export const JOB_QUEUE_POOL_SIZE = 2;

/**
 * Work the queue does besides mail (decision 0068): a queue, how it takes jobs, and when it
 * runs on its own. Defined before the queue starts.
 */
export interface JobDefinition {
  /** The queue, of jobs/queues.ts: its policy and its jobs' limit. */
  spec: QueueSpec;
  /** A cron schedule (UTC): pg-boss makes one job per tick, whatever the instances. */
  cron: string;
  /** The same schedule as a period, for the embedded database, where jobs run in process. */
  everySeconds: number;
  run(): Promise<void>;
}

/** A queue this instance works, and how long its jobs may take. */
export interface QueueBudget {
  queue: string;
  budgetSeconds: number;
  expireInSeconds: number;
}

/** What a queue holds now. */
export interface QueueStats {
  queue: string;
  /** Jobs waiting to be taken: new, or to be tried again. */
  waiting: number;
  /** Jobs running. */
  active: number;
  /** How long the job that has run longest has been running, in seconds; 0 when none runs. */
  oldestActiveSeconds: number;
}

/** What a mail is about, for whoever follows what became of it (an invitation's id). */
export interface MailAbout {
  kind: string;
  id: string;
}

/**
 * What became of a try to send a mail: the mail server accepted it; refused it or could not
 * be reached, and it is tried again; or the last try failed, and nothing more is tried.
 */
export type MailOutcome = 'sent' | 'retrying' | 'failed';

/** A job of the mail queue: the mail, and what it is about when someone follows it. */
type QueuedMail = MailMessage & { about?: MailAbout };

export interface Jobs {
  /** True when mail is configured: `sendMail` then really sends. */
  readonly mailEnabled: boolean;
  /** Adds work to the queue; before `start` only. */
  define(definition: JobDefinition): void;
  /**
   * Asks for a run of a defined queue soon (a `stately` queue keeps one waiting at most).
   * Does nothing when the queue is not running: its schedule does the work then.
   */
  runSoon(queue: string): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
  /**
   * Puts a mail on the queue; it is sent by a worker, tried again with backoff. With
   * `about`, each try's outcome is told to the listener of its kind (`onMailOutcome`), on
   * whichever instance's worker made it.
   */
  sendMail(message: MailMessage, about?: MailAbout): Promise<void>;
  /**
   * Follows the mails about one kind of thing: `listener` hears each try's outcome. Set
   * before `start`. A listener that fails is logged; the mail is not sent again for it.
   */
  onMailOutcome(kind: string, listener: (id: string, outcome: MailOutcome) => Promise<void>): void;
  /**
   * Deletes the mail server's acceptances older than a week (a retry comes within minutes);
   * how many went. A periodic task of every instance.
   */
  forgetOldAcceptances(): Promise<number>;
  /** The queues this instance works: mail when it is configured, and the defined work. */
  queues(): QueueBudget[];
  /**
   * What each queue this instance works holds now, for metrics: on pg-boss, read from its
   * tables in one query (the same figures on every instance of a database); for the
   * rounds run in process on the embedded database, from the process. Queues not running
   * here yet are left out. Rejects when the database does not answer within
   * JOB_STATS_TIMEOUT_MS.
   */
  stats(): Promise<QueueStats[]>;
}

export interface JobsOptions {
  config: Config;
  database: DatabaseHandle;
  log: FastifyBaseLogger;
  /**
   * This instance among the others (decision 0082): the jobs it runs are noted there, so that
   * another instance fails them at once if this one dies, and this one fails theirs.
   */
  instances?: InstanceRegistry | null;
  /** Replaces the SMTP mailer (tests of failures). */
  mailer?: Mailer;
  /** How often an idle worker looks for jobs. */
  pollingIntervalSeconds?: number;
  /** The first wait before a failed mail is tried again (doubling each time). */
  retryDelaySeconds?: number;
  /** How many times a failed mail is tried again. */
  retryLimit?: number;
}

type ExecuteSql = (text: string, values?: unknown[]) => Promise<{ rows: unknown[] }>;

/**
 * Creates the queues that do not exist yet and brings the others' options up to date
 * (an upgrade that changes a limit), under the startup lock: pg-boss's `create_queue` run by
 * two instances at once deadlocks (each attaches a table to the same parent).
 */
async function ensureQueues(boss: PgBoss, specs: readonly QueueSpec[]): Promise<string[]> {
  const changed: string[] = [];
  for (const spec of specs) {
    const options = queueOptions(spec);
    const existing = (await boss.getQueue(spec.name)) as Partial<
      ReturnType<typeof queueOptions>
    > | null;
    if (!existing) {
      await boss.createQueue(spec.name, options);
      changed.push(spec.name);
    } else if (
      existing.expireInSeconds !== options.expireInSeconds ||
      existing.retryLimit !== options.retryLimit ||
      existing.retryDelay !== options.retryDelay ||
      existing.retryBackoff !== options.retryBackoff
    ) {
      await boss.updateQueue(spec.name, options);
      changed.push(spec.name);
    }
  }
  return changed;
}

/**
 * What `admin migrate` does for the job queue on PostgreSQL, after the migrations and under
 * the same lock: pg-boss's schema, its own scheduling queue, and every queue of
 * jobs/queues.ts — so that instances started afterwards find everything there and create
 * nothing. Returns what it created or changed.
 */
export async function prepareJobQueue(database: DatabaseHandle, url: string): Promise<string[]> {
  const { default: PgBoss } = await import('pg-boss');
  const pool = new DatabasePool({ connectionString: url, max: 1, application_name: 'pgboss' });
  try {
    const executeSql: ExecuteSql = async (text, values) => await pool.query(text, values);
    return await withStartupLock(database, async () => {
      const hadSchema =
        (await pool.query("SELECT to_regclass('pgboss.version') AS name")).rows[0]?.name != null;
      const boss = new PgBoss({
        db: { executeSql },
        schema: 'pgboss',
        migrate: true,
        supervise: false,
        // Its scheduler makes pg-boss's own queue as it starts.
        schedule: true,
      });
      boss.on('error', () => {});
      await boss.start();
      try {
        const changed = await ensureQueues(boss, QUEUES);
        return [...(hadSchema ? [] : ['pgboss']), ...changed.map((name) => `queue ${name}`)];
      } finally {
        await boss.stop({ graceful: false, wait: true, timeout: 5_000 });
      }
    });
  } finally {
    await pool.end();
  }
}

/** A mail's Message-ID: the same on every try of one job, so a copy sent twice is one mail. */
function messageIdOf(jobId: string, from: string): string {
  const domain = /@([^>\s]+)>?\s*$/.exec(from)?.[1] ?? hostname();
  return `<${jobId}@${domain}>`;
}

/**
 * Background jobs on pg-boss (decision 0046). On PostgreSQL the queue has its own small
 * pool — a DatabasePool, whose connections never take the process down when PostgreSQL
 * drops them (decision 0050), rather than the plain pool pg-boss would make; on the embedded
 * database it runs on the app's PGlite through pg-boss's `db` option.
 * The queue starts only when there is work for it: sending mail (SMTP_URL), and on
 * PostgreSQL the rounds. Its setup runs under the startup lock, and the jobs of an instance
 * that dies are failed by another within seconds (decision 0082).
 */
export function createJobs({
  config,
  database,
  log,
  instances = null,
  mailer: givenMailer,
  pollingIntervalSeconds = 1,
  retryDelaySeconds = MAIL_RETRIES.delaySeconds,
  retryLimit = MAIL_RETRIES.limit,
}: JobsOptions): Jobs {
  const mailConfig = config.mail;
  let boss: PgBoss | null = null;
  let pool: DatabasePool | null = null;
  let mailer: Mailer | null = null;
  // Runs SQL text of several statements on the queue's database, answering the last one's rows.
  let readScript: (<T>(text: string) => Promise<T[]>) | null = null;
  const definitions: JobDefinition[] = [];
  // On the embedded database there is one process: its jobs run here, on timers, one run of
  // each at a time, with no queue to poll (decision 0068); pg-boss stays for mail.
  const local = new Map<string, LocalJob>();
  let started = false;
  const mailListeners = new Map<string, (id: string, outcome: MailOutcome) => Promise<void>>();

  /** Tells the listener of a mail's kind what became of a try; never fails the job. */
  const tell = async (about: MailAbout | undefined, outcome: MailOutcome, job: string) => {
    const listener = about && mailListeners.get(about.kind);
    if (!about || !listener) return;
    try {
      await listener(about.id, outcome);
    } catch (error) {
      log.warn({ job, err: error, about: about.kind }, 'what became of a mail was not recorded');
    }
  };

  /** Runs one job of the queue, noted as this instance's while it runs. */
  const tracked = async (jobId: string, queue: string, work: () => Promise<void>) => {
    await instances?.jobStarted(jobId, queue);
    try {
      await work();
    } finally {
      await instances
        ?.jobEnded(jobId)
        .catch((error: unknown) => log.warn({ err: error, job: jobId }, 'job not forgotten'));
    }
  };

  /** Asks the queue for a run of a defined round (a stately queue keeps one waiting at most). */
  const askFor = async (queue: string) => {
    if (!boss || !definitions.some((d) => d.spec.name === queue)) return;
    await boss.send(queue, {});
  };

  /** Fails the jobs of gone instances: a mail is tried again, a round's queue is free again. */
  const failGone = async (jobs: HeldJob[]) => {
    const running = boss;
    if (!running || jobs.length === 0) return;
    const byQueue = new Map<string, string[]>();
    for (const job of jobs) byQueue.set(job.queue, [...(byQueue.get(job.queue) ?? []), job.jobId]);
    for (const [queue, ids] of byQueue) {
      await running.fail(queue, ids);
      log.warn({ queue, jobs: ids.length }, 'jobs of a gone instance failed, to run again');
      // A round starts again at once rather than at its next tick.
      await askFor(queue).catch(() => {});
    }
  };

  return {
    mailEnabled: mailConfig !== null,

    define(definition) {
      if (started) throw new Error('jobs are defined before the queue starts');
      definitions.push(definition);
    },

    onMailOutcome(kind, listener) {
      if (started) throw new Error('mail is followed from before the queue starts');
      mailListeners.set(kind, listener);
    },

    async runSoon(queue) {
      const here = local.get(queue);
      if (here) {
        here.soon();
        return;
      }
      await askFor(queue);
    },

    async forgetOldAcceptances() {
      const gone = await database.query(
        `DELETE FROM mail_accepted WHERE accepted_at < now() - interval '${ACCEPTED_DAYS} days'
         RETURNING job_id`,
      );
      return gone.length;
    },

    async start() {
      started = true;
      if (database.kind === 'pglite' && local.size === 0) {
        for (const definition of definitions) {
          const job = localJob(definition, log);
          local.set(definition.spec.name, job);
          job.start();
        }
      }
      const queued = database.kind === 'pglite' ? [] : definitions;
      if ((!mailConfig && queued.length === 0) || boss) return;
      // pg-boss and nodemailer load here, when the queue starts, not with the app: a server
      // without mail or other work never loads them (decision 0061).
      const [{ default: PgBoss }, newMailer] = await Promise.all([
        import('pg-boss'),
        mailConfig ? (givenMailer ?? createMailer(mailConfig)) : null,
      ]);
      if (boss) return;
      mailer = newMailer;
      let executeSql: ExecuteSql;
      if (database.kind === 'postgres' && config.databaseUrl) {
        const own = new DatabasePool({
          connectionString: config.databaseUrl,
          max: JOB_QUEUE_POOL_SIZE,
          application_name: 'pgboss',
          connectionTimeoutMillis: 3000,
        });
        pool = own;
        executeSql = async (text, values) => await own.query(text, values);
        readScript = async <T>(text: string) => {
          // Several statements answer one result each.
          const results = (await own.query(text)) as unknown as pg.QueryResult | pg.QueryResult[];
          const last = Array.isArray(results) ? results.at(-1) : results;
          return (last?.rows ?? []) as T[];
        };
      } else {
        executeSql = async (text, values) => ({ rows: await database.script(text, values ?? []) });
        readScript = <T>(text: string) => database.script<T>(text);
      }
      const created = new PgBoss({
        db: { executeSql },
        schema: 'pgboss',
        migrate: true,
        maintenanceIntervalSeconds: MAINTENANCE_SECONDS,
      });
      boss = created;
      created.on('error', (error) => log.error({ err: error }, 'job queue error'));
      // The mail queue keeps the spec's tries; each mail carries this instance's (sendMail).
      const specs = [...queued.map((d) => d.spec), ...(mailer ? [SEND_MAIL_QUEUE] : [])];
      // Several instances may start at once: pg-boss's schema and queues are made by one at
      // a time (nothing is left to make after `admin migrate`).
      await withStartupLock(database, async () => {
        await created.start();
        await ensureQueues(created, specs);
      });
      instances?.whenGone(failGone);
      const running = created;
      for (const definition of queued) {
        const queue = definition.spec.name;
        await running.work(queue, { pollingIntervalSeconds }, async ([job]) => {
          if (job) await tracked(job.id, queue, () => definition.run());
        });
        await running.schedule(queue, definition.cron, {});
      }
      if (!mailer) return;
      const send = mailer;
      const from = mailConfig?.from ?? '';
      await created.work<QueuedMail>(
        SEND_MAIL,
        { pollingIntervalSeconds, includeMetadata: true },
        async (jobs) => {
          for (const job of jobs) {
            const { about, ...message } = job.data;
            await tracked(job.id, SEND_MAIL, async () => {
              // Accepted by the SMTP server on an earlier try whose end was not recorded (its
              // instance died): not sent again.
              const accepted = await database.query(
                'SELECT 1 FROM mail_accepted WHERE job_id = $1',
                [job.id],
              );
              if (accepted.length > 0) {
                log.info(
                  { job: job.id },
                  'mail already accepted by the mail server; not sent again',
                );
                await tell(about, 'sent', job.id);
                return;
              }
              try {
                await send.send({ ...message, messageId: messageIdOf(job.id, from) });
              } catch (error) {
                const last = job.retryCount >= job.retryLimit;
                log.warn(
                  { job: job.id, err: error },
                  last ? 'mail not sent; no more tries' : 'mail not sent; it will be tried again',
                );
                await tell(about, last ? 'failed' : 'retrying', job.id);
                throw error;
              }
              await database.query(
                'INSERT INTO mail_accepted (job_id) VALUES ($1) ON CONFLICT DO NOTHING',
                [job.id],
              );
              log.info({ job: job.id, to: message.to }, 'mail sent');
              await tell(about, 'sent', job.id);
            });
          }
        },
      );
    },

    async stop() {
      const here = [...local.values()];
      local.clear();
      await Promise.all(here.map((job) => job.stop()));
      const running = boss;
      boss = null;
      if (running) await running.stop({ graceful: true, wait: true, timeout: 10_000 });
      readScript = null;
      const ownPool = pool;
      pool = null;
      await ownPool?.end();
      mailer?.close();
      mailer = null;
    },

    async sendMail(message, about) {
      if (!boss) throw new Error('mail is not configured');
      const job: QueuedMail = about ? { ...message, about } : message;
      // Each job carries its tries, so that they hold whatever the queue was made with.
      await boss.send(SEND_MAIL, job, {
        retryLimit,
        retryDelay: retryDelaySeconds,
        retryBackoff: true,
      });
    },

    queues() {
      return [
        ...(mailConfig
          ? [
              {
                queue: SEND_MAIL,
                budgetSeconds: MAIL_BUDGET_SECONDS,
                expireInSeconds: MAIL_EXPIRE_SECONDS,
              },
            ]
          : []),
        ...definitions.map(({ spec }) => ({
          queue: spec.name,
          budgetSeconds: spec.budgetSeconds,
          expireInSeconds: spec.expireInSeconds,
        })),
      ];
    },

    async stats() {
      const figures = new Map<string, QueueStats>();
      const now = Date.now();
      for (const [queue, job] of local) figures.set(queue, { queue, ...job.stats(now) });
      const read = readScript;
      if (!boss || !read) return [...figures.values()];
      // The queues on pg-boss: mail, and on PostgreSQL the defined work. Each is reported,
      // with zeros when it holds nothing.
      const queued = [
        ...(mailer ? [SEND_MAIL] : []),
        ...definitions.map((d) => d.spec.name).filter((queue) => !local.has(queue)),
      ];
      for (const queue of queued) {
        figures.set(queue, { queue, waiting: 0, active: 0, oldestActiveSeconds: 0 });
      }
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(
          () => reject(new Error(`the job queue's figures took over ${JOB_STATS_TIMEOUT_MS} ms`)),
          JOB_STATS_TIMEOUT_MS,
        );
      });
      try {
        const rows = await Promise.race([read<StatsRow>(STATS_SQL), late]);
        for (const row of rows) {
          if (!queued.includes(row.name)) continue;
          figures.set(row.name, {
            queue: row.name,
            waiting: Number(row.waiting),
            active: Number(row.active),
            oldestActiveSeconds: Math.max(0, Number(row.oldest_active_seconds)),
          });
        }
      } finally {
        clearTimeout(timer);
      }
      return [...figures.values()];
    },
  };
}

interface StatsRow {
  name: string;
  waiting: number;
  active: number;
  oldest_active_seconds: number;
}

/**
 * Every queue's jobs waiting and running, and the age of its oldest running one, from
 * pg-boss's tables (pgboss.job: a job is `created`, `retry`, `active`, then done). One
 * query, whose SELECT the server cancels past the limit too, so that a slow database never
 * holds a scrape nor keeps working for it.
 */
const STATS_SQL = `
  SET LOCAL statement_timeout = ${JOB_STATS_TIMEOUT_MS};
  SELECT name,
         count(*) FILTER (WHERE state IN ('created', 'retry'))::int AS waiting,
         count(*) FILTER (WHERE state = 'active')::int AS active,
         COALESCE(EXTRACT(epoch FROM now() - min(started_on) FILTER (WHERE state = 'active')), 0)::float8
           AS oldest_active_seconds
    FROM pgboss.job
   WHERE state IN ('created', 'retry', 'active')
   GROUP BY name`;

interface LocalJob {
  start(): void;
  /** Its figures: a run under way, and one more asked for after it. */
  stats(now: number): Omit<QueueStats, 'queue'>;
  /** Runs it now, or once more right after the run under way. */
  soon(): void;
  /** No new run; waits for the one under way. */
  stop(): Promise<void>;
}

/** The first run of a job in process waits this long, so that it does not slow the start. */
const FIRST_RUN_MS = 5_000;

function localJob(definition: JobDefinition, log: FastifyBaseLogger): LocalJob {
  let running: Promise<void> | null = null;
  let runningSince = 0;
  let again = false;
  let stopped = false;
  const timers: NodeJS.Timeout[] = [];
  const run = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    runningSince = Date.now();
    running = definition
      .run()
      .catch((error: unknown) => log.error({ err: error, job: definition.spec.name }, 'job failed'))
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          run();
        }
      });
  };
  return {
    start() {
      timers.push(setTimeout(run, FIRST_RUN_MS).unref());
      timers.push(setInterval(run, definition.everySeconds * 1000).unref());
    },
    soon: run,
    stats: (now) => ({
      waiting: again ? 1 : 0,
      active: running ? 1 : 0,
      oldestActiveSeconds: running ? Math.max(0, (now - runningSince) / 1000) : 0,
    }),
    async stop() {
      stopped = true;
      again = false;
      for (const timer of timers) clearTimeout(timer);
      await running;
    },
  };
}
