import { buildApp, type App } from './app.ts';
import type { Config } from './config.ts';
import { checkDataDir, describeDataDirError } from './data-dir.ts';
import { openDatabase, type DatabaseHandle } from './db/client.ts';
import { migrate } from './db/migrate.ts';
import { safeMessage } from './log-errors.ts';
import { prepareStartup, seedDemo, type Startup } from './startup.ts';

/** A start that cannot go on, said in one line for the operator. */
export class BootError extends Error {}

/**
 * What an instance does before it serves (decision 0082), in order: opens its database,
 * brings it up to date, fills an empty embedded one with the demo when asked, builds the app
 * and starts its background work (the job queue's setup among it, under the startup lock),
 * and issues a setup code while no organization exists. Any number of instances may do it at
 * once on one PostgreSQL database. Each failure is a BootError naming what failed.
 */
export async function bootServer(
  config: Config,
): Promise<{ app: App; database: DatabaseHandle; startup: Startup }> {
  let database: DatabaseHandle;
  if (config.databaseUrl) {
    try {
      database = await openDatabase({ url: config.databaseUrl, dataDir: null });
    } catch (error) {
      throw new BootError(`cannot open PostgreSQL at DATABASE_URL: ${safeMessage(error)}`);
    }
  } else {
    // Every problem with the folder is one line naming DATA_DIR (decision 0050).
    try {
      await checkDataDir(config.dataDir);
      database = await openDatabase({ url: null, dataDir: config.dataDir });
    } catch (error) {
      throw new BootError(describeDataDirError(config.dataDir, error));
    }
  }
  try {
    await migrate(database);
  } catch (error) {
    await database.close().catch(() => {});
    throw new BootError(
      config.databaseUrl
        ? `cannot open PostgreSQL at DATABASE_URL: ${safeMessage(error)}`
        : describeDataDirError(config.dataDir, error),
    );
  }
  let app: App | null = null;
  let stage = 'cannot start';
  try {
    const demo = await seedDemo(database, config);
    app = await buildApp({ config, database, periodicJobs: true });
    // The background work starts here rather than within listen, so that a failure says
    // what failed instead of blaming the port.
    stage = 'cannot start the background work';
    await app.ready();
    stage = 'cannot start';
    const startup = await prepareStartup(demo, app.services.setup, app.services.auth);
    return { app, database, startup };
  } catch (error) {
    await app?.close().catch(() => {});
    await database.close().catch(() => {});
    throw new BootError(`${stage}: ${safeMessage(error)}`);
  }
}

/** Listens on the configured address; a failure names it. */
export async function listenServer(app: App, config: Pick<Config, 'host' | 'port'>) {
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    throw new BootError(
      `cannot listen on ${config.host}:${config.port}: ${(error as Error).message}`,
    );
  }
}
