import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { selectRows } from '../db/client.ts';
import type { MailMessage } from './mailer.ts';
import { createTestApp } from '../../test/app.ts';
import { createJobs, MAIL_BUDGET_SECONDS, MAIL_EXPIRE_SECONDS, SEND_MAIL } from './queue.ts';

const { app, database, config } = await createTestApp();

describe('the job queue', () => {
  it('runs a defined job one run at a time, soon when asked, and waits for it on stop', async () => {
    // In process on the embedded database; on PostgreSQL, on a stately pg-boss queue.
    const jobs = createJobs({ config, database, log: app.log, pollingIntervalSeconds: 0.5 });
    let runs = 0;
    let active = 0;
    let most = 0;
    let release = () => {};
    const spec = {
      name: 'test-rounds',
      policy: 'stately' as const,
      expireInSeconds: 60,
      budgetSeconds: 30,
      retryLimit: 0,
      retryDelaySeconds: 0,
      retryBackoff: false,
    };
    const job = { spec, cron: '0 0 1 1 *', everySeconds: 3600 };
    jobs.define({
      ...job,
      run: async () => {
        runs += 1;
        active += 1;
        most = Math.max(most, active);
        await new Promise<void>((resolve) => (release = resolve));
        active -= 1;
      },
    });
    expect(jobs.queues()).toEqual([
      { queue: 'test-rounds', budgetSeconds: 30, expireInSeconds: 60 },
    ]);
    // Not running yet: no figures.
    expect(await jobs.stats()).toEqual([]);
    await jobs.start();
    expect(() =>
      jobs.define({ ...job, spec: { ...spec, name: 'late' }, run: async () => {} }),
    ).toThrow();
    expect(await jobs.stats()).toEqual([
      { queue: 'test-rounds', waiting: 0, active: 0, oldestActiveSeconds: 0 },
    ]);
    const until = async (done: () => boolean) => {
      for (let i = 0; i < 100 && !done(); i++) await new Promise((r) => setTimeout(r, 100));
    };
    // Asked three times while one runs: one more run after it, not three.
    await jobs.runSoon('test-rounds');
    await until(() => runs === 1);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const [running] = await jobs.stats();
    expect(running).toMatchObject({ queue: 'test-rounds', waiting: 0, active: 1 });
    // Running for a second or so (pg-boss notes the start when it takes the job).
    expect(running!.oldestActiveSeconds).toBeGreaterThanOrEqual(0.9);
    expect(running!.oldestActiveSeconds).toBeLessThan(10);
    await jobs.runSoon('test-rounds');
    await jobs.runSoon('test-rounds');
    await jobs.runSoon('test-rounds');
    // One run waits, however often it was asked for.
    expect(await jobs.stats()).toEqual([
      expect.objectContaining({ queue: 'test-rounds', waiting: 1, active: 1 }),
    ]);
    release();
    await until(() => runs === 2);
    const stopping = jobs.stop();
    let stopped = false;
    void stopping.then(() => (stopped = true));
    await new Promise((resolve) => setTimeout(resolve, 300));
    // The second run is under way: stop waits for it.
    expect(stopped).toBe(false);
    release();
    await stopping;
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect({ runs, most }).toEqual({ runs: 2, most: 1 });
  });

  it('does not start without mail to send', async () => {
    const jobs = createJobs({ config, database, log: app.log });
    await jobs.start();
    expect(jobs.mailEnabled).toBe(false);
    await expect(
      jobs.sendMail({ to: 'a@example.test', subject: 's', text: 't' }),
    ).rejects.toThrow();
    await jobs.stop();
  });

  it('tries a failed mail again, with backoff, until it is sent; stops gracefully', async () => {
    const sent: MailMessage[] = [];
    let failures = 0;
    const mailer = {
      async send(message: MailMessage) {
        if (failures < 1) {
          failures += 1;
          throw new Error('the SMTP server is away');
        }
        sent.push(message);
      },
      close() {},
    };
    const jobs = createJobs({
      config: { ...config, mail: { smtpUrl: 'smtp://127.0.0.1:1', from: 'a@example.test' } },
      database,
      log: app.log,
      mailer,
      pollingIntervalSeconds: 0.5,
      retryDelaySeconds: 1,
    });
    expect(jobs.queues()).toEqual([
      {
        queue: SEND_MAIL,
        budgetSeconds: MAIL_BUDGET_SECONDS,
        expireInSeconds: MAIL_EXPIRE_SECONDS,
      },
    ]);
    await jobs.start();
    const [queue] = await selectRows<{ expire_seconds: number }>(
      database.db,
      sql`SELECT expire_seconds FROM pgboss.queue WHERE name = ${SEND_MAIL}`,
    );
    expect(queue?.expire_seconds).toBe(MAIL_EXPIRE_SECONDS);
    await jobs.sendMail({ to: 'retry@example.test', subject: 'Hello', text: 'Body' });
    await expect.poll(() => sent.length, { timeout: 15_000, interval: 200 }).toBe(1);
    expect(failures).toBe(1);
    const [job] = await selectRows<{ id: string; retry_count: number; state: string }>(
      database.db,
      sql`SELECT id, retry_count, state FROM pgboss.job WHERE name = 'send-mail' ORDER BY created_on DESC LIMIT 1`,
    );
    // Every try of one job carries the same Message-ID, so that a copy sent twice is one mail.
    expect(sent[0]).toEqual({
      to: 'retry@example.test',
      subject: 'Hello',
      text: 'Body',
      messageId: `<${job?.id}@example.test>`,
    });
    expect(job?.retry_count).toBe(1);
    await jobs.stop();
  }, 30_000);

  it('does not send again a mail the SMTP server accepted on a try whose end was lost', async () => {
    // The first try is accepted by the mail server, and its instance dies before the job is
    // marked done (here: the acceptance is written, and the try then fails).
    const calls: string[] = [];
    const mailer = {
      async send(message: MailMessage & { messageId?: string }) {
        calls.push(message.messageId ?? '');
        const jobId = /^<([^@]+)@/.exec(message.messageId ?? '')?.[1] ?? '';
        await database.query('INSERT INTO mail_accepted (job_id) VALUES ($1)', [jobId]);
        throw new Error('the instance died after the mail server said yes');
      },
      close() {},
    };
    const jobs = createJobs({
      config: { ...config, mail: { smtpUrl: 'smtp://127.0.0.1:1', from: 'a@example.test' } },
      database,
      log: app.log,
      mailer,
      pollingIntervalSeconds: 0.5,
      retryDelaySeconds: 1,
    });
    await jobs.start();
    await jobs.sendMail({ to: 'once@example.test', subject: 'Once', text: 'Body' });
    await expect
      .poll(
        async () =>
          (
            await selectRows<{ state: string }>(
              database.db,
              sql`SELECT state FROM pgboss.job WHERE name = 'send-mail' AND data->>'to' = 'once@example.test'`,
            )
          )[0]?.state,
        { timeout: 15_000, interval: 200 },
      )
      .toBe('completed');
    expect(calls).toHaveLength(1);
    await jobs.stop();
  }, 30_000);

  it("forgets the mail server's acceptances after a week, and keeps the newer", async () => {
    const jobs = createJobs({ config, database, log: app.log });
    await database.query(
      `INSERT INTO mail_accepted (job_id, accepted_at)
       VALUES ('week-old', now() - interval '8 days'), ('recent', now() - interval '6 days')`,
    );
    expect(await jobs.forgetOldAcceptances()).toBe(1);
    const left = await database.query<{ job_id: string }>(
      `SELECT job_id FROM mail_accepted WHERE job_id IN ('week-old', 'recent')`,
    );
    expect(left.map((row) => row.job_id)).toEqual(['recent']);
  });

  it('tells what became of each try of a mail about something, and nothing for others', async () => {
    let failures = 0;
    const sent: MailMessage[] = [];
    const mailer = {
      async send(message: MailMessage) {
        // Nora's first try and every try of Otto's fail.
        if (
          message.to === 'otto@example.test' ||
          (message.to === 'nora@example.test' && failures++ === 0)
        ) {
          throw new Error('550 mailbox unavailable');
        }
        sent.push(message);
      },
      close() {},
    };
    const jobs = createJobs({
      config: { ...config, mail: { smtpUrl: 'smtp://127.0.0.1:1', from: 'a@example.test' } },
      database,
      log: app.log,
      mailer,
      pollingIntervalSeconds: 0.5,
      retryDelaySeconds: 1,
      retryLimit: 1,
    });
    const told: string[] = [];
    jobs.onMailOutcome('invitation', async (id, outcome) => {
      told.push(`${id} ${outcome}`);
      // A listener that fails is logged; the mail is not sent again for it.
      if (id === 'for-pia') throw new Error('the database is away');
    });
    await jobs.start();
    expect(() => jobs.onMailOutcome('late', async () => {})).toThrow();
    const mail = (to: string) => ({ to, subject: 'Hello', text: 'Body' });
    await jobs.sendMail(mail('nora@example.test'), { kind: 'invitation', id: 'for-nora' });
    await jobs.sendMail(mail('otto@example.test'), { kind: 'invitation', id: 'for-otto' });
    await jobs.sendMail(mail('pia@example.test'), { kind: 'invitation', id: 'for-pia' });
    await jobs.sendMail(mail('quiet@example.test'));
    await expect
      .poll(() => told.filter((t) => !t.endsWith('retrying')).sort(), {
        timeout: 20_000,
        interval: 200,
      })
      .toEqual(['for-nora sent', 'for-otto failed', 'for-pia sent']);
    expect(told.filter((t) => t.endsWith('retrying')).sort()).toEqual([
      'for-nora retrying',
      'for-otto retrying',
    ]);
    // What a mail is about never reaches the mail server; the mail with none went as well.
    await expect.poll(() => sent.length, { timeout: 10_000, interval: 200 }).toBe(3);
    expect(sent.map((m) => m.to).sort()).toEqual([
      'nora@example.test',
      'pia@example.test',
      'quiet@example.test',
    ]);
    expect(sent.find((m) => m.to === 'nora@example.test')).toMatchObject(mail('nora@example.test'));
    expect(sent.find((m) => m.to === 'nora@example.test')).not.toHaveProperty('about');
    await jobs.stop();
  }, 40_000);
});
