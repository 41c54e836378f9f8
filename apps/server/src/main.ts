import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { migrate } from './db/migrate.ts';
import { prepareDatabase, startupBanner } from './startup.ts';

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

  const startup = await prepareDatabase(database, config);

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
  process.stdout.write(startupBanner(config, database.kind, startup));
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) fail(error.message);
  fail((error as Error).message ?? String(error));
});
