// Faults of PostgreSQL under a running server (decision 0050), on a cluster this file starts
// itself: a backend killed in the middle of a transaction, and a restart of the whole
// cluster under write load. The process must survive both, the requests hit answer 503
// DATABASE_UNAVAILABLE (never 500), no acknowledged write is lost, and the server recovers
// by itself once the database is back. The job queue's own pool survives the same.
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { openDatabase, selectRows, type DatabaseHandle } from '../../src/db/client.ts';
import { migrate } from '../../src/db/migrate.ts';
import type { MailMessage } from '../../src/jobs/mailer.ts';
import { createJobs } from '../../src/jobs/queue.ts';
import { createOrganization, createUser, signIn, type TestUser } from '../factories.ts';
import { startCluster, type Cluster } from './cluster.ts';

const config = loadConfig({ LOG_LEVEL: 'silent' });

let cluster: Cluster;
let database: DatabaseHandle;
let app: App;
const uncaught: unknown[] = [];
const onUncaught = (error: unknown) => uncaught.push(error);

beforeAll(async () => {
  process.on('uncaughtException', onUncaught);
  cluster = await startCluster();
  database = await openDatabase({ url: cluster.url, dataDir: null, poolSize: 8 });
  await migrate(database);
  app = await buildApp({ config, database });
  await app.ready();
}, 120_000);

/**
 * Waits for a step of the teardown for at most `ms`. A step that takes longer is named on
 * the console, with the pool's counts, and left behind: the cluster is removed whatever
 * happened, so that no PostgreSQL of this file outlives the run.
 */
async function bounded(step: string, work: () => Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), ms);
  });
  const outcome = await Promise.race([work().then(() => 'done' as const), late]);
  clearTimeout(timer);
  if (outcome === 'late') {
    const pool = (database?.db as unknown as { $client?: pg.Pool } | undefined)?.$client;
    console.warn(
      `teardown: ${step} took over ${ms} ms` +
        (pool ? ` (pool: ${pool.totalCount} open, ${pool.idleCount} idle)` : ''),
    );
  }
}

afterAll(async () => {
  try {
    await bounded('closing the app', async () => app?.close(), 20_000);
    await bounded('closing the pool', async () => database?.close().catch(() => {}), 20_000);
  } finally {
    await cluster?.destroy();
    process.off('uncaughtException', onUncaught);
  }
}, 90_000);

async function person(): Promise<{ user: TestUser; headers: Record<string, string> }> {
  const org = await createOrganization(database.db);
  const user = await createUser(database.db, org.id);
  const { headers } = await signIn(app, user);
  return { user, headers };
}

function createCollection(headers: Record<string, string>, name: string) {
  return app.inject({
    method: 'POST',
    url: '/api/consumer/collections',
    headers,
    payload: { name },
  });
}

async function storedNames(userId: string): Promise<Set<string>> {
  const rows = await selectRows<{ name: string }>(
    database.db,
    sql`SELECT name FROM collections WHERE owner_user_id = ${userId}`,
  );
  return new Set(rows.map((row) => row.name));
}

describe('a backend killed while a request holds a transaction', () => {
  it('answers that request 503, keeps the process up, and serves the next one', async () => {
    const { user, headers } = await person();
    // Another connection holds the person's row: the request's transaction waits on it.
    const locker = new pg.Client({ connectionString: cluster.url });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('SELECT 1 FROM users WHERE id = $1 FOR UPDATE', [user.id]);
      const pending = createCollection(headers, 'Waits for the lock');
      let waiting: number | undefined;
      await expect
        .poll(
          async () => {
            const { rows } = await locker.query<{ pid: number }>(
              `SELECT pid FROM pg_stat_activity
                WHERE wait_event_type = 'Lock' AND pid <> pg_backend_pid()`,
            );
            waiting = rows[0]?.pid;
            return waiting;
          },
          { timeout: 10_000, interval: 50 },
        )
        .toBeTypeOf('number');
      await locker.query('SELECT pg_terminate_backend($1)', [waiting]);
      const answer = await pending;
      expect(answer.statusCode).toBe(503);
      expect(answer.json()).toMatchObject({ code: 'DATABASE_UNAVAILABLE' });
      expect(answer.headers['retry-after']).toBe('5');
      await locker.query('ROLLBACK');
    } finally {
      await locker.end();
    }
    expect(uncaught).toEqual([]);
    expect((await createCollection(headers, 'After the kill')).statusCode).toBe(204);
    const names = await storedNames(user.id);
    expect(names.has('After the kill')).toBe(true);
    expect(names.has('Waits for the lock')).toBe(false);
  });
});

describe('a restart of PostgreSQL under write load', () => {
  it('loses no acknowledged write, answers 503 meanwhile, and recovers', async () => {
    const writers = await Promise.all([person(), person(), person(), person()]);
    const acknowledged = new Map<string, string[]>(writers.map((w) => [w.user.id, []]));
    const statuses = new Map<number, number>();
    let running = true;
    let counter = 0;
    const loops = writers.map(async ({ user, headers }) => {
      while (running) {
        const name = `Write ${(counter += 1)}`;
        const answer = await createCollection(headers, name);
        statuses.set(answer.statusCode, (statuses.get(answer.statusCode) ?? 0) + 1);
        if (answer.statusCode === 204) acknowledged.get(user.id)?.push(name);
        else await new Promise((resolve) => setTimeout(resolve, 50));
      }
    });

    await new Promise((resolve) => setTimeout(resolve, 700));
    await cluster.stop('fast');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await cluster.start();
    // Writes go on until some succeed again after the restart.
    const before = statuses.get(204) ?? 0;
    await expect
      .poll(() => (statuses.get(204) ?? 0) - before, { timeout: 20_000, interval: 100 })
      .toBeGreaterThan(5);
    running = false;
    await Promise.all(loops);

    expect(uncaught).toEqual([]);
    expect(statuses.get(503) ?? 0).toBeGreaterThan(0);
    expect([...statuses.keys()].sort()).toEqual([204, 503]);
    for (const { user } of writers) {
      const stored = await storedNames(user.id);
      const lost = (acknowledged.get(user.id) ?? []).filter((name) => !stored.has(name));
      expect(lost).toEqual([]);
    }
    // And the server answers normally afterwards.
    const [{ headers }] = writers;
    expect((await createCollection(headers!, 'After the restart')).statusCode).toBe(204);
  });
});

describe('the job queue’s connections killed', () => {
  it('keeps the process up and sends mail queued afterwards', async () => {
    const sent: MailMessage[] = [];
    const jobs = createJobs({
      config: {
        ...config,
        databaseUrl: cluster.url,
        mail: { smtpUrl: 'smtp://127.0.0.1:1', from: 'a@example.test' },
      },
      database,
      log: app.log,
      mailer: {
        async send(message: MailMessage) {
          sent.push(message);
        },
        close() {},
      },
      pollingIntervalSeconds: 0.5,
    });
    await jobs.start();
    try {
      const admin = new pg.Client({ connectionString: cluster.url });
      await admin.connect();
      try {
        const { rows } = await admin.query<{ killed: boolean }>(
          `SELECT pg_terminate_backend(pid) AS killed FROM pg_stat_activity
            WHERE application_name = 'pgboss' AND pid <> pg_backend_pid()`,
        );
        expect(rows.length).toBeGreaterThan(0);
      } finally {
        await admin.end();
      }
      // A poll or two fails meanwhile; the queue's pool makes new connections.
      await expect
        .poll(
          async () => {
            try {
              await jobs.sendMail({ to: 'after@example.test', subject: 'After', text: 'Body' });
              return true;
            } catch {
              return false;
            }
          },
          { timeout: 10_000, interval: 200 },
        )
        .toBe(true);
      await expect.poll(() => sent.length, { timeout: 15_000, interval: 200 }).toBeGreaterThan(0);
      expect(uncaught).toEqual([]);
    } finally {
      await jobs.stop();
    }
  }, 40_000);
});
