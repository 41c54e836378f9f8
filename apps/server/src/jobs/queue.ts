import type PgBoss from 'pg-boss';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import { DatabasePool, type DatabaseHandle } from '../db/client.ts';
import { createMailer, type MailMessage, type Mailer } from './mailer.ts';

/** The queue of outgoing mail. */
export const SEND_MAIL = 'send-mail';

/** How often a mail is tried again, and how long the first wait is (it doubles each time). */
export const MAIL_RETRIES = { limit: 6, delaySeconds: 20 };

/**
 * Work the queue does besides mail (decision 0068): a queue, how it takes jobs, and when it
 * runs on its own. Defined before the queue starts.
 */
export interface JobDefinition {
  queue: string;
  /**
   * `stately`: at most one job waiting and one running, across every instance — a round that
   * must never run twice at once, and asks for another collapse into one.
   */
  policy: 'standard' | 'stately';
  /** A cron schedule (UTC): pg-boss makes one job per tick, whatever the instances. */
  cron: string;
  /** The same schedule as a period, for the embedded database, where jobs run in process. */
  everySeconds: number;
  /** How long a job may run before it is counted failed. */
  expireInSeconds: number;
  run(): Promise<void>;
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
}

export interface JobsOptions {
  config: Config;
  database: DatabaseHandle;
  log: FastifyBaseLogger;
  /** Replaces the SMTP mailer (tests of failures). */
  mailer?: Mailer;
  /** How often an idle worker looks for jobs. */
  pollingIntervalSeconds?: number;
  /** The first wait before a failed mail is tried again (doubling each time). */
  retryDelaySeconds?: number;
  /** How many times a failed mail is tried again. */
  retryLimit?: number;
}

/**
 * Background jobs on pg-boss (decision 0046). On PostgreSQL the queue has its own small
 * pool — a DatabasePool, whose connections never take the process down when PostgreSQL
 * drops them (decision 0050), rather than the plain pool pg-boss would make; on the embedded database it runs on the app's PGlite through pg-boss's `db` option.
 * The queue starts only when there is work for it: today, sending mail (SMTP_URL).
 */
export function createJobs({
  config,
  database,
  log,
  mailer: givenMailer,
  pollingIntervalSeconds = 1,
  retryDelaySeconds = MAIL_RETRIES.delaySeconds,
  retryLimit = MAIL_RETRIES.limit,
}: JobsOptions): Jobs {
  const mailConfig = config.mail;
  let boss: PgBoss | null = null;
  let pool: DatabasePool | null = null;
  let mailer: Mailer | null = null;
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
      if (!boss || !definitions.some((d) => d.queue === queue)) return;
      // A stately queue refuses a second waiting job: that is the point, not a failure.
      await boss.send(queue, {});
    },

    async start() {
      started = true;
      if (database.kind === 'pglite' && local.size === 0) {
        for (const definition of definitions) {
          const job = localJob(definition, log);
          local.set(definition.queue, job);
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
      let executeSql: (text: string, values?: unknown[]) => Promise<{ rows: unknown[] }>;
      if (database.kind === 'postgres' && config.databaseUrl) {
        const own = new DatabasePool({
          connectionString: config.databaseUrl,
          max: 2,
          application_name: 'pgboss',
          connectionTimeoutMillis: 3000,
        });
        pool = own;
        executeSql = async (text, values) => await own.query(text, values);
      } else {
        executeSql = async (text, values) => ({ rows: await database.script(text, values ?? []) });
      }
      boss = new PgBoss({ db: { executeSql }, schema: 'pgboss', migrate: true });
      boss.on('error', (error) => log.error({ err: error }, 'job queue error'));
      await boss.start();
      const running = boss;
      for (const definition of queued) {
        await running.createQueue(definition.queue, {
          name: definition.queue,
          policy: definition.policy,
          expireInSeconds: definition.expireInSeconds,
          retryLimit: 0,
        });
        await running.work(definition.queue, { pollingIntervalSeconds }, async () => {
          await definition.run();
        });
        await running.schedule(definition.queue, definition.cron, {});
      }
      if (!mailer) return;
      await boss.createQueue(SEND_MAIL, {
        name: SEND_MAIL,
        retryLimit,
        retryDelay: retryDelaySeconds,
        retryBackoff: true,
        expireInSeconds: 120,
      });
      const send = mailer;
      await boss.work<QueuedMail>(
        SEND_MAIL,
        { pollingIntervalSeconds, includeMetadata: true },
        async (jobs) => {
          for (const job of jobs) {
            const { about, ...message } = job.data;
            try {
              await send.send(message);
            } catch (error) {
              const last = job.retryCount >= job.retryLimit;
              log.warn(
                { job: job.id, err: error },
                last ? 'mail not sent; no more tries' : 'mail not sent; it will be tried again',
              );
              await tell(about, last ? 'failed' : 'retrying', job.id);
              throw error;
            }
            log.info({ job: job.id, to: message.to }, 'mail sent');
            await tell(about, 'sent', job.id);
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
  };
}

interface LocalJob {
  start(): void;
  /** Runs it now, or once more right after the run under way. */
  soon(): void;
  /** No new run; waits for the one under way. */
  stop(): Promise<void>;
}

/** The first run of a job in process waits this long, so that it does not slow the start. */
const FIRST_RUN_MS = 5_000;

function localJob(definition: JobDefinition, log: FastifyBaseLogger): LocalJob {
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  const timers: NodeJS.Timeout[] = [];
  const run = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = definition
      .run()
      .catch((error: unknown) => log.error({ err: error, job: definition.queue }, 'job failed'))
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
    async stop() {
      stopped = true;
      again = false;
      for (const timer of timers) clearTimeout(timer);
      await running;
    },
  };
}
