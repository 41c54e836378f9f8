import type { Server } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig } from './config.ts';
import { safeMessage } from './log-errors.ts';
import { listenMetrics } from './plugins/metrics.ts';
import { BootError, bootServer, listenServer } from './boot.ts';
import { startupBanner } from './startup.ts';

const here = path.dirname(fileURLToPath(import.meta.url));

function fail(message: string): never {
  process.stderr.write(`signpost: ${message}\n`);
  process.exit(1);
}

async function main() {
  const config = loadConfig(
    { WEB_DIR: path.resolve(here, '../../web/dist'), ...process.env },
    process.argv.slice(2),
  );

  const { app, database, startup } = await bootServer(config).catch((error: unknown) =>
    fail(error instanceof BootError ? error.message : safeMessage(error)),
  );
  let metricsServer: Server | null = null;
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    // Draining first (decision 0064): /readyz answers 503 while requests are still served,
    // so that a load balancer stops sending here before the server stops accepting.
    app.health.drain();
    const drain = config.timeouts.drainSeconds;
    if (drain > 0) {
      app.log.info({ signal, drainSeconds: drain }, 'draining: /readyz answers 503');
      await new Promise((resolve) => setTimeout(resolve, drain * 1000));
    }
    const limit = config.timeouts.shutdownSeconds;
    app.log.info({ signal, limitSeconds: limit }, 'shutting down');
    // Past the limit, whatever is still open (a stalled upload, a slow client) is cut and
    // the process exits 1, so that a supervisor never waits on it (decision 0050).
    let cut = false;
    const deadline = setTimeout(() => {
      cut = true;
      app.log.warn({ limitSeconds: limit }, 'shutdown took too long; cutting open connections');
      app.server.closeAllConnections();
      setTimeout(() => process.exit(1), 500).unref();
    }, limit * 1000);
    deadline.unref();
    try {
      // Stops accepting, closes idle keep-alive connections at once, answers what is in
      // flight (with Connection: close), then stops the jobs and closes the database.
      await app.close();
      await database.close();
      metricsServer?.close();
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
    process.exit(cut ? 1 : 0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  try {
    await listenServer(app, config);
  } catch (error) {
    await app.close().catch(() => {});
    await database.close().catch(() => {});
    fail(error instanceof BootError ? error.message : safeMessage(error));
  }
  try {
    metricsServer = await listenMetrics(app, config.host);
  } catch (error) {
    await app.close().catch(() => {});
    await database.close().catch(() => {});
    fail(
      `cannot listen on ${config.host}:${config.metrics?.port ?? ''} (METRICS_PORT): ${(error as Error).message}`,
    );
  }
  process.stdout.write(startupBanner(config, startup));
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) fail(error.message);
  const message = error instanceof Error ? error.message : JSON.stringify(error);
  fail((message ?? String(error)).split('\n')[0] ?? 'failed to start');
});
