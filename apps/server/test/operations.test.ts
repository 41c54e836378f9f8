// What an operator's tools ask of the server (decision 0064): /healthz and /readyz, the one
// request log line with its id, X-Request-Id from a trusted proxy only, and the Prometheus
// metrics, served only on their own port or behind their token.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { buildApp, type App } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/client.ts';
import { JOB_STATS_TIMEOUT_MS } from '../src/jobs/queue.ts';
import { listenMetrics } from '../src/plugins/metrics.ts';
import { createTestApp } from './app.ts';
import { createOrganization, createUser, PASSWORD } from './factories.ts';

const { app, database, db, config } = await createTestApp();
const onPostgres = database.kind === 'postgres';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const METRICS_TOKEN = 'metrics-token-0123456789abcdef';

interface LogLine {
  level: number;
  msg: string;
  requestId?: string;
  [key: string]: unknown;
}

/** Another app on the same database, with these settings and its log kept. */
async function appWith(env: NodeJS.ProcessEnv, options: { webDir?: string } = {}) {
  const lines: LogLine[] = [];
  const raw: string[] = [];
  const other = await buildApp({
    config: {
      ...loadConfig({ LOG_LEVEL: 'info', ...env }),
      argon2: config.argon2,
      webDir: options.webDir ?? null,
    },
    database,
    logStream: {
      write(line: string) {
        raw.push(line);
        lines.push(JSON.parse(line) as LogLine);
      },
    },
  });
  await other.ready();
  return { app: other, lines, raw };
}

const opened: App[] = [];
afterAll(async () => {
  for (const other of opened) await other.close();
});
async function opens(env: NodeJS.ProcessEnv, options: { webDir?: string } = {}) {
  const made = await appWith(env, options);
  opened.push(made.app);
  return made;
}

async function signIn(target: App, email: string, password = PASSWORD) {
  return target.inject({
    method: 'POST',
    url: '/api/auth/sessions',
    payload: { type: 'email-password', email, password },
  });
}

describe('/healthz and /readyz', () => {
  it('answer alive and ready, never cached, with a request id', async () => {
    const alive = await app.inject({ method: 'GET', url: '/healthz' });
    expect(alive.statusCode).toBe(200);
    expect(alive.json()).toEqual({ status: 'ok' });
    expect(alive.headers['cache-control']).toBe('no-store');
    expect(alive.headers['x-request-id']).toMatch(UUID);

    const ready = await app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready' });
    expect(ready.headers['cache-control']).toBe('no-store');
  });

  it('/readyz answers 503 while a migration this version knows is not applied', async () => {
    const [last] = (
      await database.query<{ name: string }>(
        'SELECT name FROM schema_migrations ORDER BY name DESC LIMIT 1',
      )
    ).map((row) => row.name);
    expect(last).toMatch(/^\d{4}_.+\.sql$/);
    await database.query('DELETE FROM schema_migrations WHERE name = $1', [last]);
    try {
      const answer = await app.inject({ method: 'GET', url: '/readyz' });
      expect(answer.statusCode).toBe(503);
      expect(answer.json()).toEqual({
        status: 'unavailable',
        reason: `migrations not applied: ${last}`,
      });
      // Alive all the same: a process is not restarted for its database.
      expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await database.query('INSERT INTO schema_migrations (name) VALUES ($1)', [last]);
    }
    expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  });

  it('/readyz answers 503 when the database does not answer', { timeout: 20_000 }, async () => {
    // A PostgreSQL that is not there: nothing listens on port 1.
    const away = await openDatabase({ url: 'postgres://nobody@127.0.0.1:1/none', dataDir: null });
    const lonely = await buildApp({
      config: loadConfig({ LOG_LEVEL: 'silent', DEMO_DATA: 'false' }),
      database: away,
    });
    try {
      await lonely.ready();
      const answer = await lonely.inject({ method: 'GET', url: '/readyz' });
      expect(answer.statusCode).toBe(503);
      expect(answer.json()).toEqual({
        status: 'unavailable',
        reason: 'the database does not answer',
      });
      expect((await lonely.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await lonely.close();
      await away.close();
    }
  });

  it('/readyz answers 503 from the moment the instance drains, while requests are served', async () => {
    const { app: draining } = await opens({});
    expect((await draining.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    draining.health.drain();
    const answer = await draining.inject({ method: 'GET', url: '/readyz' });
    expect(answer.statusCode).toBe(503);
    expect(answer.json()).toEqual({ status: 'unavailable', reason: 'shutting down' });
    expect((await draining.inject({ method: 'GET', url: '/api/auth/methods' })).statusCode).toBe(
      200,
    );
  });
});

describe('addresses that are not pages', () => {
  let webDir = '';
  beforeAll(async () => {
    webDir = await mkdtemp(path.join(tmpdir(), 'signpost-web-'));
    await writeFile(path.join(webDir, 'index.html'), '<!doctype html><title>Signpost</title>');
  });
  afterAll(() => rm(webDir, { recursive: true, force: true }));

  it('are JSON 404s: every unknown /api address, and /metrics where it is not served', async () => {
    const { app: withWeb } = await opens({}, { webDir });
    // A page address gets the web app…
    const page = await withWeb.inject({ method: 'GET', url: '/some/page' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    // …an operator's or the API's never does.
    for (const [method, url] of [
      ['GET', '/metrics'],
      ['GET', '/metrics/'],
      ['GET', '/api/nothing-here'],
      ['GET', '/api/consumer/nothing/here?x=1'],
      ['POST', '/api/nothing-here'],
      ['DELETE', '/api/admin/nothing'],
      ['GET', '/api'],
    ] as const) {
      const answer = await withWeb.inject({ method, url });
      expect(answer.statusCode, `${method} ${url}`).toBe(404);
      expect(answer.headers['content-type'], `${method} ${url}`).toMatch(/^application\/json/);
      expect(answer.json(), `${method} ${url}`).toMatchObject({ code: 'NOT_FOUND' });
    }
    for (const url of ['/healthz', '/readyz']) {
      const answer = await withWeb.inject({ method: 'GET', url });
      expect(answer.headers['content-type'], url).toMatch(/^application\/json/);
    }
  });
});

describe('the request log', () => {
  it('writes one line per request, when it is answered, with its id, route, status, time and person', async () => {
    const organization = await createOrganization(db);
    const person = await createUser(db, organization.id, { email: 'logged@example.test' });
    const { app: logged, lines, raw } = await opens({});
    const session = await signIn(logged, 'logged@example.test');
    expect(session.statusCode).toBe(201);
    const token = session.json<{ token: string }>().token;
    const before = lines.length;
    const answer = await logged.inject({
      method: 'GET',
      url: '/api/consumer/menu?secret-looking=value',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(answer.statusCode).toBe(200);
    const id = answer.headers['x-request-id'];
    expect(id).toMatch(UUID);
    const mine = lines.slice(before).filter((line) => line.requestId === id);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      level: 30,
      msg: 'request',
      method: 'GET',
      path: '/api/consumer/menu',
      route: '/api/consumer/menu',
      status: 200,
      userId: person.id,
    });
    expect(mine[0]!.ms).toEqual(expect.any(Number));
    // The query string, the token and the password are in no line.
    const text = raw.join('');
    expect(text).not.toContain('secret-looking');
    expect(text).not.toContain(token);
    expect(text).not.toContain(PASSWORD);
    // The sign-in's own line: no person yet, its status.
    expect(lines).toContainEqual(
      expect.objectContaining({ msg: 'request', path: '/api/auth/sessions', status: 201 }),
    );
    // Nothing at info level about a request arriving, and no probe lines.
    await logged.inject({ method: 'GET', url: '/healthz' });
    await logged.inject({ method: 'GET', url: '/readyz' });
    expect(lines.filter((line) => line.msg === 'incoming request')).toEqual([]);
    expect(lines.filter((line) => /^\/(healthz|readyz)$/.test(String(line.path)))).toEqual([]);
  });

  it('takes X-Request-Id from a trusted proxy only, and only when it is well formed', async () => {
    // inject() comes from 127.0.0.1.
    const { app: direct } = await opens({});
    const { app: proxied, lines } = await opens({ TRUST_PROXY: '127.0.0.1' });
    const given = 'lb-7f3a.42';
    const untrusted = await direct.inject({
      method: 'GET',
      url: '/healthz',
      headers: { 'x-request-id': given },
    });
    expect(untrusted.headers['x-request-id']).toMatch(UUID);

    const trusted = await proxied.inject({
      method: 'GET',
      url: '/api/auth/methods',
      headers: { 'x-request-id': given },
    });
    expect(trusted.headers['x-request-id']).toBe(given);
    expect(lines).toContainEqual(expect.objectContaining({ requestId: given, msg: 'request' }));

    for (const bad of ['has space', 'x'.repeat(129), 'quote"d', '']) {
      const answer = await proxied.inject({
        method: 'GET',
        url: '/healthz',
        headers: { 'x-request-id': bad },
      });
      expect(answer.headers['x-request-id'], JSON.stringify(bad)).toMatch(UUID);
    }
  });
});

/** The value of one series in Prometheus's text, or undefined. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('metrics', () => {
  it('are not served anywhere unless a port or a token is set', async () => {
    expect(config.metrics).toBeNull();
    const answer = await app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(answer.statusCode).toBe(404);
  });

  it('behind METRICS_TOKEN: refuse without it, and count requests, sign-ins and menus', async () => {
    const organization = await createOrganization(db);
    await createUser(db, organization.id, { email: 'counted@example.test' });
    const { app: measured } = await opens({ METRICS_TOKEN });

    for (const authorization of [undefined, 'Bearer wrong', `Bearer ${METRICS_TOKEN}x`]) {
      const refused = await measured.inject({
        method: 'GET',
        url: '/metrics',
        headers: authorization ? { authorization } : {},
      });
      expect(refused.statusCode, String(authorization)).toBe(401);
      expect(refused.body).not.toContain('signpost_');
    }

    expect((await signIn(measured, 'counted@example.test', 'wrong-password')).statusCode).toBe(401);
    const session = await signIn(measured, 'counted@example.test');
    const headers = { authorization: `Bearer ${session.json<{ token: string }>().token}` };
    const menu = await measured.inject({ method: 'GET', url: '/api/consumer/menu', headers });
    expect(menu.statusCode).toBe(200);
    for (let i = 0; i < 2; i += 1) {
      const again = await measured.inject({
        method: 'GET',
        url: '/api/consumer/menu',
        headers: { ...headers, 'if-none-match': String(menu.headers.etag) },
      });
      expect(again.statusCode).toBe(304);
    }
    await measured.inject({ method: 'GET', url: `/api/consumer/links/no-such-link`, headers });

    const scraped = await measured.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(scraped.statusCode).toBe(200);
    expect(scraped.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = scraped.body;
    expect(sample(text, 'signpost_sign_ins_total{method="password",result="success"}')).toBe(1);
    expect(
      sample(text, 'signpost_sign_ins_total{method="password",result="invalid_credentials"}'),
    ).toBe(1);
    expect(sample(text, 'signpost_menu_answers_total{kind="200"}')).toBe(1);
    expect(sample(text, 'signpost_menu_answers_total{kind="304"}')).toBe(2);
    expect(
      sample(
        text,
        'signpost_http_requests_total{method="GET",route="/api/consumer/menu",status="304"}',
      ),
    ).toBe(2);
    expect(
      sample(
        text,
        'signpost_http_request_duration_seconds_count{method="GET",route="/api/consumer/menu",status="200"}',
      ),
    ).toBe(1);
    // An address that matched no route is one series, whatever the address.
    expect(text).not.toContain('no-such-link');
    expect(sample(text, 'signpost_live_streams_open')).toBe(0);
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(10_000_000);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
    if (onPostgres) {
      expect(sample(text, 'signpost_db_pool_max')).toBe(4);
      expect(sample(text, 'signpost_db_pool_connections')).toBeGreaterThan(0);
      expect(
        sample(text, 'signpost_db_query_duration_seconds_count{outcome="ok"}'),
      ).toBeGreaterThan(5);
    } else {
      // The embedded database has no pool to watch.
      expect(text).not.toContain('signpost_db_pool');
    }
  });

  it('on METRICS_PORT: served there only, behind the token when it is set too', async () => {
    const port = await freePort();
    const { app: measured } = await opens({ METRICS_PORT: String(port), METRICS_TOKEN });
    const server = await listenMetrics(measured, '127.0.0.1');
    expect(server).not.toBeNull();
    try {
      const base = `http://127.0.0.1:${port}`;
      expect((await fetch(`${base}/metrics`)).status).toBe(401);
      const scraped = await fetch(`${base}/metrics`, {
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      });
      expect(scraped.status).toBe(200);
      expect(await scraped.text()).toContain('signpost_http_requests_total');
      expect((await fetch(`${base}/anything`)).status).toBe(404);
      // Not on the main port, token or not.
      const main = await measured.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      });
      expect(main.statusCode).toBe(404);
    } finally {
      server?.close();
    }
  });
});

describe('the job queues’ metrics', () => {
  /** An app whose job queue runs (mail is configured), scraped behind the token. */
  async function queued() {
    const { app: measured, lines } = await opens({
      METRICS_TOKEN,
      SMTP_URL: 'smtp://127.0.0.1:1',
      MAIL_FROM: 'Signpost <signpost@example.test>',
    });
    const scrape = async () => {
      const answer = await measured.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      });
      expect(answer.statusCode).toBe(200);
      return answer.body;
    };
    return { measured, lines, scrape };
  }

  it('show each queue’s jobs waiting and running and how long its oldest running job has run', async () => {
    const { scrape } = await queued();
    const series = (name: string) => `${name}{queue="send-mail"}`;
    // The queue exists and holds nothing: zeros, not missing series.
    let text = await scrape();
    expect(sample(text, series('signpost_job_queue_waiting'))).toBe(0);
    expect(sample(text, series('signpost_job_queue_active'))).toBe(0);
    expect(sample(text, series('signpost_job_queue_oldest_active_seconds'))).toBe(0);

    // Jobs put in pg-boss's table as its workers leave them: two new and one to be tried
    // again (not due for an hour, so that no worker takes them meanwhile), one running for
    // five minutes and one for ten seconds, and one done long ago.
    await database.query(
      `INSERT INTO pgboss.job (name, state, start_after, started_on, expire_in, completed_on)
       VALUES ('send-mail', 'created', now() + interval '1 hour', NULL, interval '1 hour', NULL),
              ('send-mail', 'created', now() + interval '1 hour', NULL, interval '1 hour', NULL),
              ('send-mail', 'retry', now() + interval '1 hour', NULL, interval '1 hour', NULL),
              ('send-mail', 'active', now() - interval '5 minutes', now() - interval '5 minutes',
               interval '1 hour', NULL),
              ('send-mail', 'active', now() - interval '10 seconds', now() - interval '10 seconds',
               interval '1 hour', NULL),
              ('send-mail', 'completed', now() - interval '1 day', now() - interval '1 day',
               interval '1 hour', now() - interval '1 day')`,
    );
    try {
      text = await scrape();
      expect(sample(text, series('signpost_job_queue_waiting'))).toBe(3);
      expect(sample(text, series('signpost_job_queue_active'))).toBe(2);
      const oldest = sample(text, series('signpost_job_queue_oldest_active_seconds'));
      expect(oldest).toBeGreaterThanOrEqual(300);
      expect(oldest).toBeLessThan(330);
      expect(sample(text, 'signpost_job_queue_stats_failures_total')).toBe(0);
    } finally {
      await database.query(`DELETE FROM pgboss.job WHERE name = 'send-mail'`);
    }
    text = await scrape();
    expect(sample(text, series('signpost_job_queue_active'))).toBe(0);
    expect(sample(text, series('signpost_job_queue_oldest_active_seconds'))).toBe(0);
  });

  it(
    'are left out of a scrape, which still answers, when the database does not answer in time',
    { timeout: 20_000 },
    async () => {
      const { scrape, lines } = await queued();
      await scrape();
      // The job table held by another transaction: on PostgreSQL a lock no reader passes;
      // the embedded database has one connection, which a transaction holds to itself.
      let scraped: { text: string; ms: number } | null = null;
      const during = async () => {
        const started = Date.now();
        const text = await scrape();
        scraped = { text, ms: Date.now() - started };
      };
      if (onPostgres) {
        await database.withConnection(async (conn) => {
          await conn.exec('BEGIN; LOCK TABLE pgboss.job IN ACCESS EXCLUSIVE MODE');
          try {
            await during();
          } finally {
            await conn.exec('ROLLBACK');
          }
        });
      } else {
        const client = (database.db as unknown as { $client: PGlite }).$client;
        let held = () => {};
        const holding = client.transaction(async (tx) => {
          await tx.query('SELECT 1');
          await new Promise<void>((resolve) => (held = resolve));
        });
        try {
          await during();
        } finally {
          held();
          await holding;
        }
      }
      const { text, ms } = scraped!;
      // Within the limit of JOB_STATS_TIMEOUT_MS (and some room), not when the database is back.
      expect(ms).toBeGreaterThanOrEqual(JOB_STATS_TIMEOUT_MS - 100);
      expect(ms).toBeLessThan(JOB_STATS_TIMEOUT_MS + 3000);
      expect(text).not.toMatch(/^signpost_job_queue_(waiting|active|oldest_active_seconds)\{/m);
      expect(sample(text, 'signpost_job_queue_stats_failures_total')).toBe(1);
      expect(text).toContain('signpost_http_requests_total');
      expect(lines).toContainEqual(
        expect.objectContaining({ msg: 'metrics: the job queue figures could not be read' }),
      );
      // Back once the database answers.
      const after = await scrape();
      expect(sample(after, 'signpost_job_queue_waiting{queue="send-mail"}')).toBe(0);
      expect(sample(after, 'signpost_job_queue_stats_failures_total')).toBe(1);
    },
  );
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

describe('the Grafana dashboard and the alerting rules in docs/grafana', () => {
  /** The name of every series the server exposes, the pool's included on either database. */
  async function exposedNames(): Promise<Set<string>> {
    const { app: measured } = await opens({ METRICS_TOKEN });
    await measured.inject({ method: 'GET', url: '/healthz' });
    const text = (
      await measured.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      })
    ).body;
    const exposed = new Set(
      [...text.matchAll(/^# TYPE (\S+) (\w+)$/gm)].flatMap(([, name, type]) =>
        type === 'histogram'
          ? [`${name}_bucket`, `${name}_count`, `${name}_sum`]
          : type === 'summary'
            ? [name!, `${name}_count`, `${name}_sum`]
            : [name!],
      ),
    );
    // The pool's metrics exist on PostgreSQL only (the embedded database has no pool).
    if (!onPostgres) {
      for (const name of [
        'signpost_db_pool_connections',
        'signpost_db_pool_idle',
        'signpost_db_pool_waiting',
        'signpost_db_pool_max',
        'signpost_db_query_duration_seconds_bucket',
        'signpost_db_query_duration_seconds_count',
      ]) {
        expect(exposed.has(name), name).toBe(false);
        exposed.add(name);
      }
    }
    return exposed;
  }

  it('the dashboard asks only for metrics the server exposes, each panel with a query', async () => {
    const file = new URL('../../../docs/grafana/signpost-dashboard.json', import.meta.url);
    const dashboard = JSON.parse(await readFile(file, 'utf8')) as {
      panels: { title: string; targets: { expr: string }[] }[];
    };
    const exposed = await exposedNames();
    expect(dashboard.panels.length).toBeGreaterThanOrEqual(10);
    const FUNCTIONS = new Set([
      'sum',
      'max',
      'rate',
      'increase',
      'histogram_quantile',
      'topk',
      'by',
    ]);
    for (const panel of dashboard.panels) {
      expect(panel.targets.length, panel.title).toBeGreaterThan(0);
      for (const { expr } of panel.targets) {
        const names = [...expr.matchAll(/\b([a-z_][a-z0-9_]*)\s*\{/g)].map(([, name]) => name!);
        expect(names.length, expr).toBeGreaterThan(0);
        for (const name of names) {
          if (FUNCTIONS.has(name)) continue;
          expect(exposed.has(name), `${panel.title}: ${name}`).toBe(true);
        }
      }
    }
  });

  it('the alerting rules ask only for metrics the server exposes', async () => {
    const file = new URL('../../../docs/grafana/signpost-alerts.yaml', import.meta.url);
    const { groups } = parse(await readFile(file, 'utf8')) as {
      groups: { rules: { expr: string }[] }[];
    };
    const exposed = await exposedNames();
    const exprs = groups.flatMap((group) => group.rules.map((rule) => rule.expr));
    expect(exprs.length).toBeGreaterThan(0);
    for (const expr of exprs) {
      const names = [...expr.matchAll(/\b(signpost_[a-z0-9_]+)/g)].map(([, name]) => name!);
      expect(names.length, expr).toBeGreaterThan(0);
      for (const name of names) expect(exposed.has(name), `${expr}: ${name}`).toBe(true);
    }
  });
});
