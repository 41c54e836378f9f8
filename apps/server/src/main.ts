import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { migrate } from './db/migrate.ts';
import { DEMO_EMAIL, DEMO_PASSWORD, seedDemoIfEmpty } from './db/seed/demo.ts';

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

  if (!config.databaseUrl) await mkdir(config.dataDir, { recursive: true });
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
  try {
    await migrate(database);
  } catch (error) {
    await database.close().catch(() => {});
    const where = config.databaseUrl
      ? 'PostgreSQL at DATABASE_URL'
      : `the database in ${config.dataDir}`;
    fail(`cannot open ${where}: ${(error as Error).message}`);
  }

  let demo = false;
  if (config.demoData && database.kind === 'pglite') {
    demo = await seedDemoIfEmpty(database, config.argon2);
  }

  const app = await buildApp({ config, database, periodicJobs: true });
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // Stops accepting, lets in-flight requests finish, then closes the database.
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    await database.close().catch(() => {});
    fail(`cannot listen on ${config.host}:${config.port}: ${(error as Error).message}`);
  }
  const url = `http://localhost:${config.port}`;
  const lines = [
    '',
    `  Signpost is running at ${url}`,
    `  Database: ${config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded, in ${config.dataDir}`}`,
  ];
  if (demo || (config.demoData && database.kind === 'pglite')) {
    lines.push(`  Demo sign-in: ${DEMO_EMAIL} / ${DEMO_PASSWORD}`);
  }
  process.stdout.write(`${lines.join('\n')}\n\n`);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) fail(error.message);
  fail((error as Error).message ?? String(error));
});
