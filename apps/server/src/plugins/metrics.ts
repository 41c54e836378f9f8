import { timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Jobs, QueueStats } from '../jobs/queue.ts';
import { AppError } from '../lib/errors.ts';
import { pathOf } from './request-log.ts';

/** How people sign in, as the sign-in counter names it. */
export type SignInMethod = 'password' | 'sso' | 'sso-second-factor';

export interface Metrics {
  /** Prometheus's text of every metric. */
  text(): Promise<string>;
  readonly contentType: string;
  /** A sign-in that ended: `success`, or the error code it was refused with. */
  signIn(method: SignInMethod, result: string): void;
  /** What the menu answered: the whole menu, or 304 to a known ETag. */
  menuAnswer(kind: '200' | '304'): void;
}

/** The result label of a refused sign-in: its error code, lowercased (a short, fixed set). */
export function signInResult(error: unknown): string {
  return error instanceof AppError ? error.code.toLowerCase() : 'error';
}

// Seconds: a 304 takes about a millisecond, a cold menu of the reference data a tenth of a
// second, a sign-in (argon2id) about half of one.
const REQUEST_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const QUERY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5];

/**
 * Prometheus metrics with prom-client (decision 0064). Each app has its own registry, so
 * that several apps in one process (the tests) never share a count. `/metrics` is served
 * only when METRICS_PORT or METRICS_TOKEN is set: on its own port (`listenMetrics`), or on
 * the main port behind the token; anyone else gets the 404 of an unknown address.
 */
export interface MetricsOptions {
  /** The live-update streams open on this instance (modules/live). */
  live: { readonly size: number };
  /** The job queue, whose queues' figures are read at each scrape. */
  jobs: Pick<Jobs, 'stats'>;
}

export const metricsPlugin = fp(async (app: FastifyInstance, { live, jobs }: MetricsOptions) => {
  const register = new Registry();
  const served = app.config.metrics !== null;
  // Process metrics (CPU, memory, event-loop lag, garbage collection, handles) sample the
  // event loop all the time: only when someone can read them.
  if (served) collectDefaultMetrics({ register, eventLoopMonitoringPrecision: 20 });

  const requests = new Counter({
    name: 'signpost_http_requests_total',
    help: 'HTTP requests answered, by method, route and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [register],
  });
  const durations = new Histogram({
    name: 'signpost_http_request_duration_seconds',
    help: 'Time from a request to its answer, by method, route and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: REQUEST_BUCKETS,
    registers: [register],
  });
  const signIns = new Counter({
    name: 'signpost_sign_ins_total',
    help: 'Sign-ins that ended, by method and result (success, or the code of the refusal).',
    labelNames: ['method', 'result'] as const,
    registers: [register],
  });
  const menus = new Counter({
    name: 'signpost_menu_answers_total',
    help: 'Menu answers by kind: 200 (the menu) or 304 (unchanged since the ETag sent).',
    labelNames: ['kind'] as const,
    registers: [register],
  });
  new Gauge({
    name: 'signpost_live_streams_open',
    help: 'Live-update streams of the menu open on this instance.',
    registers: [register],
    collect() {
      this.set(live.size);
    },
  });

  // The job queues' figures (decision 0068), read once per scrape for the three gauges (they
  // are collected together), within JOB_STATS_TIMEOUT_MS. On PostgreSQL they come from the
  // queue's tables, so every instance on a database shows the same; on the embedded
  // database, mail's from its tables and the rounds' from the process that runs them. When
  // they cannot be read in time, the scrape goes on without them and the failure is counted.
  const statsFailures = new Counter({
    name: 'signpost_job_queue_stats_failures_total',
    help: 'Scrapes that went without the job queue figures: the database did not answer in time.',
    registers: [register],
    async collect() {
      await readStats();
    },
  });
  let reading: Promise<QueueStats[] | null> | null = null;
  let warned = 0;
  const readStats = () =>
    (reading ??= jobs
      .stats()
      .catch((error: unknown) => {
        statsFailures.inc();
        // Once a minute at most: a database that is away fails every scrape.
        if (Date.now() - warned > 60_000) {
          warned = Date.now();
          app.log.warn({ err: error }, 'metrics: the job queue figures could not be read');
        }
        return null;
      })
      .finally(() => {
        reading = null;
      }));
  const queueGauge = (name: string, help: string, pick: (s: QueueStats) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['queue'] as const,
      registers: [register],
      async collect() {
        const stats = await readStats();
        this.reset();
        for (const queue of stats ?? []) this.set({ queue: queue.queue }, pick(queue));
      },
    });
  queueGauge(
    'signpost_job_queue_waiting',
    'Jobs waiting to be taken, new or to be tried again, by queue.',
    (s) => s.waiting,
  );
  queueGauge('signpost_job_queue_active', 'Jobs running, by queue.', (s) => s.active);
  queueGauge(
    'signpost_job_queue_oldest_active_seconds',
    'How long the job running longest has been running, by queue (0 when none runs).',
    (s) => s.oldestActiveSeconds,
  );

  const pool = app.database.pool;
  if (pool) {
    const queries = new Histogram({
      name: 'signpost_db_query_duration_seconds',
      help: 'Time of each database statement, by outcome.',
      labelNames: ['outcome'] as const,
      buckets: QUERY_BUCKETS,
      registers: [register],
    });
    const stats = () => pool.stats();
    const poolGauge = (name: string, help: string, pick: (s: ReturnType<typeof stats>) => number) =>
      new Gauge({
        name,
        help,
        registers: [register],
        collect() {
          this.set(pick(stats()));
        },
      });
    poolGauge('signpost_db_pool_connections', 'Database connections open.', (s) => s.total);
    poolGauge('signpost_db_pool_idle', 'Database connections open and idle.', (s) => s.idle);
    poolGauge('signpost_db_pool_waiting', 'Requests waiting for a connection.', (s) => s.waiting);
    poolGauge('signpost_db_pool_max', 'The bound of the connection pool.', (s) => s.max);
    if (served) {
      pool.observe((seconds, failed) =>
        queries.observe({ outcome: failed ? 'error' : 'ok' }, seconds),
      );
      app.addHook('onClose', async () => pool.observe(null));
    }
  }

  if (served) {
    app.addHook('onResponse', async (request, reply) => {
      // The route's pattern, never the address itself: ids and unknown paths would make a
      // series each.
      const route = request.routeOptions.url ?? 'unknown';
      const labels = { method: request.method, route, status: String(reply.statusCode) };
      requests.inc(labels);
      durations.observe(labels, reply.elapsedTime / 1000);
    });
  }

  const metrics: Metrics = {
    text: () => register.metrics(),
    contentType: register.contentType,
    signIn: (method, result) => signIns.inc({ method, result }),
    menuAnswer: (kind) => menus.inc({ kind }),
  };
  app.decorate('metrics', metrics);

  const token = app.config.metrics?.token ?? null;
  // On the main port only behind the token; with a port of its own, there.
  if (token !== null && app.config.metrics?.port === null) {
    app.get('/metrics', { logLevel: 'warn', schema: { hide: true } }, async (request, reply) => {
      if (!bearerMatches(request, token)) {
        return reply
          .status(401)
          .header('WWW-Authenticate', 'Bearer realm="metrics"')
          .send({ status: 'unauthorized' });
      }
      return reply.type(metrics.contentType).send(await metrics.text());
    });
  }
});

function bearerMatches(request: Pick<FastifyRequest, 'headers'>, token: string): boolean {
  const given = request.headers.authorization ?? '';
  const expected = Buffer.from(`Bearer ${token}`);
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/**
 * Serves `/metrics` on METRICS_PORT (bound to HOST, as the main port is), behind
 * METRICS_TOKEN when it is set too. Returns the server, already listening; null when the
 * metrics have no port of their own.
 */
export async function listenMetrics(app: FastifyInstance, host: string): Promise<Server | null> {
  const settings = app.config.metrics;
  if (!settings || settings.port === null) return null;
  const { token } = settings;
  const server = createServer((request, response) => {
    const path = pathOf(request.url ?? '/');
    if (request.method !== 'GET' || path !== '/metrics') {
      response.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found\n');
      return;
    }
    if (token !== null && !bearerMatches(request, token)) {
      response
        .writeHead(401, { 'WWW-Authenticate': 'Bearer realm="metrics"' })
        .end('Unauthorized\n');
      return;
    }
    app.metrics.text().then(
      (text) => response.writeHead(200, { 'Content-Type': app.metrics.contentType }).end(text),
      () => response.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(settings.port ?? 0, host, () => resolve());
  });
  app.log.info({ port: (server.address() as AddressInfo).port }, 'metrics listening');
  return server;
}

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Metrics;
  }
}
