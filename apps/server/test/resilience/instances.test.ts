// Several instances on one PostgreSQL (decision 0082), on a cluster this file starts itself:
// instances that start together on an empty database, and on one a migration and a queue
// behind; an instance killed (SIGKILL) in the middle of an icon round, a link check round
// and a mail, whose work the other instance takes over within 60 s; and the caps on live
// streams, per person and per session, counted across instances.
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import PgBoss from 'pg-boss';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.ts';
import { bootServer, listenServer } from '../../src/boot.ts';
import { loadConfig } from '../../src/config.ts';
import { openDatabase, selectRows, type DatabaseHandle } from '../../src/db/client.ts';
import { migrate, MIGRATIONS_DIR, sqlFiles } from '../../src/db/migrate.ts';
import { prepareJobQueue } from '../../src/jobs/queue.ts';
import { ICON_ROUNDS_QUEUE, LINK_CHECKS_QUEUE, QUEUES } from '../../src/jobs/queues.ts';
import {
  createCollection,
  createLink,
  createOrganization,
  createUser,
  signIn,
} from '../factories.ts';
import { openStream, type OpenedStream } from '../support/live-stream.ts';
import { startCluster, type Cluster } from './cluster.ts';

const main = fileURLToPath(new URL('../../src/main.ts', import.meta.url));

/** Starts together, on each kind of database, in process (the race is the database's). */
const ROUNDS = 20;
const INSTANCES = 4;
/** Within how long the work of a killed instance must be going on elsewhere. */
const TAKEOVER_MS = 60_000;

let cluster: Cluster;
let admin: pg.Client;

beforeAll(async () => {
  cluster = await startCluster();
  admin = new pg.Client({ connectionString: cluster.url });
  await admin.connect();
}, 120_000);

afterAll(async () => {
  await admin?.end().catch(() => {});
  await cluster?.destroy();
}, 60_000);

let databases = 0;
/** A new database on the cluster (from `template` when given); its URL. */
async function newDatabase(template?: string): Promise<{ name: string; url: string }> {
  databases += 1;
  const name = `instances_${databases}`;
  await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  const url = new URL(cluster.url);
  url.pathname = `/${name}`;
  return { name, url: url.toString() };
}

/** The settings of every instance: the rounds and mail on, so that every queue is made. */
function settings(url: string, extra: Record<string, string> = {}) {
  return {
    DATABASE_URL: url,
    LOG_LEVEL: 'silent',
    HOST: '127.0.0.1',
    PORT: '0',
    SMTP_URL: 'smtp://127.0.0.1:9',
    MAIL_FROM: 'signpost@acme.example',
    PUBLIC_URL: 'https://links.acme.example',
    OUTBOUND_REQUESTS: 'true',
    ...extra,
  };
}

/** Starts `count` instances in this process at the same moment; what each answered. */
async function startTogether(url: string, count: number) {
  const config = loadConfig(settings(url), []);
  const started = await Promise.allSettled(
    Array.from({ length: count }, async () => {
      const booted = await bootServer(config);
      await listenServer(booted.app, config);
      return booted;
    }),
  );
  const up = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failures = started.flatMap((s) =>
    s.status === 'rejected' ? [String((s.reason as Error).message)] : [],
  );
  await Promise.all(
    up.map(async ({ app, database }) => {
      await app.close();
      await database.close();
    }),
  );
  return { up: up.length, failures, codes: up.map((b) => b.startup.setupCode) };
}

async function queuesOf(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string; expire_seconds: number }>(
      'SELECT name, expire_seconds FROM pgboss.queue ORDER BY name',
    );
    return rows;
  } finally {
    await client.end();
  }
}

let behindName: string | null = null;
/**
 * The previous release's database, as a template: every migration but the last, its job
 * queue with one queue it did not have yet missing, and an older limit on another.
 */
async function behindTemplate(): Promise<{ name: string }> {
  if (behindName) return { name: behindName };
  const migrations = await sqlFiles(MIGRATIONS_DIR);
  const older = await mkdtemp(path.join(tmpdir(), 'signpost-older-'));
  for (const file of migrations.slice(0, -1)) {
    await copyFile(path.join(MIGRATIONS_DIR, file), path.join(older, file));
  }
  const behind = await newDatabase();
  const database = await openDatabase({ url: behind.url, dataDir: null, poolSize: 2 });
  try {
    await migrate(database, older);
    await prepareJobQueue(database, behind.url);
    await database.query(`SELECT pgboss.delete_queue($1)`, [LINK_CHECKS_QUEUE.name]);
    await database.query(`UPDATE pgboss.queue SET expire_seconds = 900 WHERE name = $1`, [
      'link-icons',
    ]);
  } finally {
    await database.close();
    await rm(older, { recursive: true, force: true });
  }
  behindName = behind.name;
  return behind;
}

describe('instances that start together', () => {
  it(
    `all ${INSTANCES} start, ${ROUNDS} times, on an empty database`,
    { timeout: 600_000 },
    async () => {
      for (let round = 0; round < ROUNDS; round += 1) {
        const { url } = await newDatabase();
        const result = await startTogether(url, INSTANCES);
        expect(result.failures, `round ${round + 1}`).toEqual([]);
        expect(result.up).toBe(INSTANCES);
        // Each printed a setup code of its own, and each one works.
        expect(new Set(result.codes).size).toBe(INSTANCES);
        const names = (await queuesOf(url)).map((q) => q.name);
        expect(names).toEqual(expect.arrayContaining(QUEUES.map((q) => q.name)));
      }
    },
  );

  it(
    `all ${INSTANCES} start, ${ROUNDS} times, on a database a migration and a queue behind`,
    { timeout: 600_000 },
    async () => {
      const behind = await behindTemplate();
      for (let round = 0; round < ROUNDS; round += 1) {
        const { url } = await newDatabase(behind.name);
        const result = await startTogether(url, INSTANCES);
        expect(result.failures, `round ${round + 1}`).toEqual([]);
        expect(result.up).toBe(INSTANCES);
        const queues = await queuesOf(url);
        expect(queues.map((q) => q.name)).toContain(LINK_CHECKS_QUEUE.name);
        expect(queues.find((q) => q.name === 'link-icons')?.expire_seconds).toBe(
          ICON_ROUNDS_QUEUE.expireInSeconds,
        );
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        const applied = await client.query('SELECT name FROM schema_migrations');
        await client.end();
        expect(applied.rowCount).toBe((await sqlFiles(MIGRATIONS_DIR)).length);
      }
    },
  );

  for (const kind of ['an empty database', 'a database a migration and a queue behind']) {
    it(
      `as processes: four servers started at once on ${kind} all serve`,
      { timeout: 180_000 },
      async () => {
        const { url } = kind.startsWith('an empty')
          ? await newDatabase()
          : await newDatabase((await behindTemplate()).name);
        const servers = await Promise.all(
          Array.from({ length: INSTANCES }, () => startProcess(url)),
        );
        try {
          for (const server of servers) {
            const answer = await fetch(`http://127.0.0.1:${server.port}/api/auth/methods`);
            expect(answer.status).toBe(200);
          }
        } finally {
          for (const server of servers) server.child.kill('SIGKILL');
        }
      },
    );
  }
});

interface Process {
  child: ChildProcessByStdio<null, Readable, Readable>;
  port: number;
  pid: number;
  output: () => string;
}

/** The server as its own process on `url`; resolves once it says it runs. */
async function startProcess(url: string, extra: Record<string, string> = {}): Promise<Process> {
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const child = spawn(process.execPath, ['--import', 'tsx', main], {
    env: {
      ...process.env,
      ...settings(url, { PORT: String(port), LOG_LEVEL: 'warn', ...extra }),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', () => output.includes('Signpost is running') && resolve());
    child.on('exit', (code) => reject(new Error(`exited with ${code}: ${output}`)));
  });
  return { child, port, pid: child.pid!, output: () => output };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `probe` every 250 ms until it answers a value, for at most `ms`; null if never. */
async function within<T>(ms: number, probe: () => Promise<T | null>): Promise<T | null> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const value = await probe();
    if (value !== null) return value;
    await sleep(250);
  }
  return null;
}

describe('an instance killed in the middle of its work', () => {
  let url = '';
  let db: DatabaseHandle;
  let boss: PgBoss;
  let smtp: SMTPServer;
  let smtpPort = 0;
  /** Mails the SMTP server accepted, by Message-ID; and the sessions it saw. */
  const accepted: { messageId: string; at: number }[] = [];
  let sessions = 0;
  let stallFirst = true;
  const servers: Process[] = [];

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onConnect(_session, callback) {
        sessions += 1;
        callback();
      },
      onData(stream, _session, callback) {
        let text = '';
        stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
        stream.on('end', () => {
          // The first mail is never answered: the instance sending it is killed meanwhile.
          if (stallFirst) {
            stallFirst = false;
            return;
          }
          const messageId = /^Message-ID: *(.+)$/im.exec(text)?.[1]?.trim() ?? '';
          accepted.push({ messageId, at: Date.now() });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    smtpPort = (smtp.server.address() as { port: number }).port;

    ({ url } = await newDatabase());
    db = await openDatabase({ url, dataDir: null, poolSize: 4 });
    await migrate(db);
    await prepareJobQueue(db, url);
    // Links on three hosts that take a long while between two requests: a round asks each
    // host once, then waits, holding what it took, until its budget ends or it is killed.
    const org = await createOrganization(db.db);
    const user = await createUser(db.db, org.id);
    const collection = await createCollection(db.db, { user });
    for (let i = 0; i < 150; i += 1) {
      await createLink(db.db, collection, {
        url: `https://host-${i % 3}.invalid/page/${i}`,
        position: i,
      });
    }
    boss = new PgBoss({ connectionString: url, supervise: false, schedule: false, migrate: false });
    boss.on('error', () => {});
    await boss.start();
    const extra = {
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      OUTBOUND_HOST_INTERVAL_MS: '600000',
    };
    servers.push(await startProcess(url, extra), await startProcess(url, extra));
  }, 180_000);

  afterAll(async () => {
    for (const server of servers) server.child.kill('SIGKILL');
    await boss?.stop({ graceful: false, wait: false }).catch(() => {});
    await db?.close();
    await new Promise<void>((resolve) => smtp?.close(() => resolve()));
  }, 60_000);

  /** The instance running a job of `queue` now, and its job: polled until there is one. */
  const holder = (queue: string) =>
    within(30_000, async () => {
      const [row] = await selectRows<{ jobId: string; instanceId: string; pid: number }>(
        db.db,
        sql`SELECT j.job_id AS "jobId", j.instance_id AS "instanceId", i.pid
            FROM instance_jobs j JOIN instances i ON i.id = j.instance_id
            WHERE j.queue = ${queue} LIMIT 1`,
      );
      return row ?? null;
    });

  /** Kills the process with `pid` with SIGKILL; the other one stays. */
  const kill = (pid: number) => {
    const index = servers.findIndex((server) => server.pid === pid);
    expect(index).toBeGreaterThanOrEqual(0);
    const [server] = servers.splice(index, 1);
    server!.child.kill('SIGKILL');
    return Date.now();
  };

  /** Starts a replacement, so that each test has two instances. */
  const replace = async () => {
    servers.push(
      await startProcess(url, {
        SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
        OUTBOUND_HOST_INTERVAL_MS: '600000',
      }),
    );
  };

  for (const [queue, table] of [
    ['link-icons', 'link_icons'],
    ['link-checks', 'link_checks'],
  ] as const) {
    it(
      `a ${queue} round: another instance fails its job, gives its links back and runs the round again within 60 s`,
      { timeout: 180_000 },
      async () => {
        await boss.send(queue, {});
        const running = await holder(queue);
        expect(running, `no ${queue} round started`).not.toBeNull();
        // It holds links: taken by its instance, due after the round's limit.
        const held = await selectRows<{ count: number }>(
          db.db,
          sql`SELECT count(*)::int AS count FROM ${sql.identifier(table)}
              WHERE taken_by = ${running!.instanceId}`,
        );
        expect(held[0]?.count).toBeGreaterThan(0);
        const killedAt = kill(running!.pid);

        // Taken over: a round of the queue runs on another instance, its job a new one.
        const again = await within(TAKEOVER_MS, async () => {
          const row = await holder(queue).then((r) =>
            r && r.instanceId !== running!.instanceId ? r : null,
          );
          return row;
        });
        const tookMs = Date.now() - killedAt;
        expect(again, `no round again within ${TAKEOVER_MS} ms`).not.toBeNull();
        expect(tookMs).toBeLessThan(TAKEOVER_MS);
        // The killed instance's job was failed, and no link is held by it any more.
        const [job] = await selectRows<{ state: string }>(
          db.db,
          sql`SELECT state::text FROM pgboss.job WHERE id = ${running!.jobId}::uuid`,
        );
        expect(job?.state).toBe('failed');
        const stillHeld = await selectRows<{ count: number }>(
          db.db,
          sql`SELECT count(*)::int AS count FROM ${sql.identifier(table)}
              WHERE taken_by = ${running!.instanceId}`,
        );
        expect(stillHeld[0]?.count).toBe(0);
        console.log(`${queue}: taken over ${tookMs} ms after the kill`);
        await replace();
      },
    );
  }

  it(
    'a mail held by a killed instance reaches its person within 60 s, once',
    { timeout: 180_000 },
    async () => {
      const jobId = await boss.send('send-mail', {
        to: 'new.person@acme.example',
        subject: 'You are invited',
        text: 'Join us.',
      });
      expect(jobId).toBeTruthy();
      const running = await holder('send-mail');
      expect(running?.jobId).toBe(jobId);
      // The mail server has its data and has not answered (the first mail stalls).
      await within(20_000, async () => (stallFirst ? null : true));
      const killedAt = kill(running!.pid);
      const arrived = await within(TAKEOVER_MS, async () => accepted[0] ?? null);
      expect(arrived, `the mail did not arrive within ${TAKEOVER_MS} ms`).not.toBeNull();
      expect(arrived!.at - killedAt).toBeLessThan(TAKEOVER_MS);
      expect(arrived!.messageId).toBe(`<${jobId}@acme.example>`);
      console.log(`mail: delivered ${arrived!.at - killedAt} ms after the kill`);
      // Once: no second copy comes, and the job is done.
      await sleep(3_000);
      expect(accepted).toHaveLength(1);
      expect(sessions).toBeGreaterThanOrEqual(2);
      const [job] = await selectRows<{ state: string }>(
        db.db,
        sql`SELECT state::text FROM pgboss.job WHERE id = ${jobId}::uuid`,
      );
      expect(job?.state).toBe('completed');
      await replace();
    },
  );
});

describe('caps on live streams across two instances', () => {
  const apps: { app: App; database: DatabaseHandle }[] = [];
  const opened: OpenedStream[] = [];

  beforeAll(async () => {
    const { url } = await newDatabase();
    const {
      SMTP_URL: _,
      MAIL_FROM: __,
      ...plain
    } = settings(url, {
      LIVE_MAX_STREAMS_PER_SESSION: '3',
      LIVE_MAX_STREAMS_PER_PERSON: '4',
      OUTBOUND_REQUESTS: 'false',
    });
    const config = loadConfig(plain, []);
    for (let i = 0; i < 2; i += 1) apps.push(await bootServer(config));
  }, 120_000);

  afterAll(async () => {
    for (const stream of opened) stream.close();
    for (const { app, database } of apps) {
      await app.close();
      await database.close();
    }
  }, 60_000);

  const open = async (app: App, headers: Record<string, string>) => {
    const stream = await openStream(app, headers);
    opened.push(stream);
    return stream;
  };

  it('counts a session and a person across both, and a stream closed or lost frees its place', async () => {
    const [first, second] = apps as [(typeof apps)[0], (typeof apps)[0]];
    const org = await createOrganization(first.database.db);
    const person = await createUser(first.database.db, org.id);
    const laptop = await signIn(first.app, person);
    const phone = await signIn(second.app, person);

    // One session: two streams on one instance and one on the other make three, its cap.
    const a = await open(first.app, laptop.headers);
    const b = await open(second.app, laptop.headers);
    const c = await open(first.app, laptop.headers);
    expect([a.status, b.status, c.status]).toEqual([200, 200, 200]);
    const fourth = await open(second.app, laptop.headers);
    expect(fourth.status).toBe(429);
    expect(JSON.parse(fourth.body).message).toMatch(/This session has 3 live update streams/);

    // The person: another session may add one more, to four in all, then no more.
    const d = await open(second.app, phone.headers);
    expect(d.status).toBe(200);
    const fifth = await open(first.app, phone.headers);
    expect(fifth.status).toBe(429);
    expect(JSON.parse(fifth.body).message).toMatch(/You have 4 live update streams open/);

    // Someone else is not touched by it.
    const other = await createUser(first.database.db, org.id);
    const theirs = await open(second.app, (await signIn(second.app, other)).headers);
    expect(theirs.status).toBe(200);

    // A stream closed frees its place, whichever instance asks next.
    a.close();
    const freed = await within(5_000, async () => {
      const again = await openStream(second.app, phone.headers);
      opened.push(again);
      return again.status === 200 ? again : null;
    });
    expect(freed?.status).toBe(200);
  });
});
