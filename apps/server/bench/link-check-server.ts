// The server of the link check rows (bench/link-checks.ts): the application as main.ts
// builds it — same configuration from the environment, migrations, periodic jobs, one
// process — that also runs link check rounds when the benchmark asks over IPC, in the same
// process and on the same database pool as the requests it serves, as the job queue runs
// them in production. Its rounds reach the benchmark's slow server through a fetcher whose
// resolver answers 127.0.0.1 for every name, allowed to that one port (`testOnlyAllow`).
// Run with OUTBOUND_REQUESTS=false, so that the application schedules no round of its own.
//
// `node --import tsx bench/link-check-server.ts`, with an IPC channel (child_process.fork).
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';
import { createLinkHealthRepository } from '../src/modules/link-health/link-health.repository.ts';
import { linkCheckRound, type RoundCounts } from '../src/modules/link-health/link-health.worker.ts';
import { createFetcher, SIGNPOST_VERSION } from '../src/outbound/fetcher.ts';
import { prepareStartup, seedDemo } from '../src/startup.ts';

/** What the benchmark asks for. */
export interface RoundRequest {
  type: 'round';
  /** The slow server's port on 127.0.0.1. */
  slowPort: number;
  budgetMs: number;
}

/** What the server answers when the round is over. */
export type RoundReply =
  | {
      type: 'round-done';
      counts: RoundCounts;
      ms: number;
      perHostIntervalMs: number;
      hosts: number;
    }
  | { type: 'round-failed'; message: string };

/** How many hosts a round asks at once: `linkCheckRound`'s default, which the server uses. */
export const ROUND_HOSTS = 4;

async function main() {
  const config = loadConfig({ ...process.env, WEB_DIR: '' }, []);
  if (config.outbound.enabled) {
    throw new Error('run with OUTBOUND_REQUESTS=false: the rounds here are the benchmark’s');
  }
  const database = await openDatabase({
    url: config.databaseUrl ?? null,
    dataDir: config.databaseUrl ? null : config.dataDir,
  });
  await migrate(database);
  const demo = await seedDemo(database, config);
  const app = await buildApp({ config, database, periodicJobs: true });
  await prepareStartup(demo, app.services.setup, app.services.auth);
  await app.listen({ port: config.port, host: config.host });

  process.on('message', (message: RoundRequest) => {
    if (message?.type !== 'round') return;
    const fetcher = createFetcher({
      version: SIGNPOST_VERSION,
      publicUrl: config.publicUrl,
      resolve: async () => [{ address: '127.0.0.1', family: 4 }],
      testOnlyAllow: [`127.0.0.1:${message.slowPort}`],
    });
    const started = performance.now();
    linkCheckRound({
      db: database.db,
      checks: createLinkHealthRepository(),
      fetcher,
      log: app.log,
      intervalSeconds: config.outbound.linkCheckHours * 3600,
      perHostIntervalMs: config.outbound.perHostIntervalMs,
      // `hosts` left to its default, as link-health.rounds.ts leaves it.
      budgetMs: message.budgetMs,
    })
      .then((counts) => {
        const reply: RoundReply = {
          type: 'round-done',
          counts,
          ms: performance.now() - started,
          perHostIntervalMs: config.outbound.perHostIntervalMs,
          hosts: ROUND_HOSTS,
        };
        process.send?.(reply);
      })
      .catch((error: unknown) => {
        const reply: RoundReply = { type: 'round-failed', message: String(error) };
        process.send?.(reply);
      })
      .finally(() => void fetcher.close());
  });

  const shutdown = () => {
    void app
      .close()
      .then(() => database.close())
      .finally(() => process.exit(0));
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    process.stderr.write(`link-check-server: ${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  });
}
