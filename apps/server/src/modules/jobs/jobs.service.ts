import PgBoss from 'pg-boss';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { DatabaseHandle } from '../../db/client.ts';
import { createMailer, type MailMessage, type Mailer } from '../../lib/mail.ts';

/** The queue of outgoing mail. */
export const SEND_MAIL = 'send-mail';

/** How often a mail is tried again, and how long the first wait is (it doubles each time). */
export const MAIL_RETRIES = { limit: 6, delaySeconds: 20 };

export interface Jobs {
  /** True when mail is configured: `sendMail` then really sends. */
  readonly mailEnabled: boolean;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Puts a mail on the queue; it is sent by a worker, tried again with backoff. */
  sendMail(message: MailMessage): Promise<void>;
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
}

/**
 * Background jobs on pg-boss (decision 0046). On PostgreSQL the queue has its own small
 * pool; on the embedded database it runs on the app's PGlite through pg-boss's `db` option.
 * The queue starts only when there is work for it: today, sending mail (SMTP_URL).
 */
export function createJobs({
  config,
  database,
  log,
  mailer: givenMailer,
  pollingIntervalSeconds = 1,
  retryDelaySeconds = MAIL_RETRIES.delaySeconds,
}: JobsOptions): Jobs {
  const mailConfig = config.mail;
  let boss: PgBoss | null = null;
  let mailer: Mailer | null = null;

  return {
    mailEnabled: mailConfig !== null,

    async start() {
      if (!mailConfig || boss) return;
      mailer = givenMailer ?? createMailer(mailConfig);
      const options =
        database.kind === 'postgres' && config.databaseUrl
          ? { connectionString: config.databaseUrl, max: 2 }
          : {
              db: {
                executeSql: async (text: string, values?: unknown[]) => ({
                  rows: await database.script(text, values ?? []),
                }),
              },
            };
      boss = new PgBoss({ ...options, schema: 'pgboss', migrate: true });
      boss.on('error', (error) => log.error({ err: error }, 'job queue error'));
      await boss.start();
      await boss.createQueue(SEND_MAIL, {
        name: SEND_MAIL,
        retryLimit: MAIL_RETRIES.limit,
        retryDelay: retryDelaySeconds,
        retryBackoff: true,
        expireInSeconds: 120,
      });
      const send = mailer;
      await boss.work<MailMessage>(SEND_MAIL, { pollingIntervalSeconds }, async (jobs) => {
        for (const job of jobs) {
          try {
            await send.send(job.data);
            log.info({ job: job.id, to: job.data.to }, 'mail sent');
          } catch (error) {
            log.warn({ job: job.id, err: error }, 'mail not sent; it will be tried again');
            throw error;
          }
        }
      });
    },

    async stop() {
      const running = boss;
      boss = null;
      if (running) await running.stop({ graceful: true, wait: true, timeout: 10_000 });
      mailer?.close();
      mailer = null;
    },

    async sendMail(message) {
      if (!boss) throw new Error('mail is not configured');
      await boss.send(SEND_MAIL, message);
    },
  };
}
