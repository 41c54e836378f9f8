import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/client.ts';
import { DEMO_EMAIL, DEMO_PASSWORD, seedDemoIfEmpty } from './db/seed/demo.ts';
import { issueSetupCode, SETUP_CODE_HOURS } from './modules/setup/setup.service.ts';

export interface Startup {
  /** The demo organization was made just now. */
  demo: boolean;
  /** The one-time setup code to print, while no organization exists. */
  setupCode: string | null;
}

/**
 * What the server does to a migrated database before it listens: the demo organization
 * in an empty embedded database (when demo data is on), else, while there is still no
 * organization, a new one-time setup code for the first run.
 */
export async function prepareDatabase(database: DatabaseHandle, config: Config): Promise<Startup> {
  let demo = false;
  if (config.demoData && database.kind === 'pglite') {
    demo = await seedDemoIfEmpty(database, config.argon2);
  }
  return { demo, setupCode: await issueSetupCode(database.db) };
}

/** The lines printed once the server listens. */
export function startupBanner(config: Config, kind: DatabaseHandle['kind'], startup: Startup) {
  // The public address: the one where single sign-on works (decision 0054).
  const lines = [
    '',
    `  Signpost is running at ${config.publicUrl}`,
    `  Database: ${config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded, in ${config.dataDir}`}`,
  ];
  if (config.metrics) {
    lines.push(
      config.metrics.port === null
        ? `  Metrics: ${config.publicUrl}/metrics (with METRICS_TOKEN)`
        : `  Metrics: http://${config.host}:${config.metrics.port}/metrics${config.metrics.token ? ' (with METRICS_TOKEN)' : ''}`,
    );
  }
  if (startup.demo || (config.demoData && kind === 'pglite' && !startup.setupCode)) {
    lines.push(`  Demo sign-in: ${DEMO_EMAIL} / ${DEMO_PASSWORD}`);
  }
  if (startup.setupCode) {
    lines.push(
      '',
      '  First run: no organization exists yet. Open the address above and enter this',
      `  one-time setup code (valid ${SETUP_CODE_HOURS} hours, until the next start):`,
      '',
      `      ${startup.setupCode}`,
      '',
      '  Or, from a script: npm run admin -- create-organization --help',
    );
  }
  return `${lines.join('\n')}\n\n`;
}
