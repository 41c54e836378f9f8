import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/client.ts';
import { DEMO_EMAIL, DEMO_PASSWORD, seedDemoIfEmpty } from './db/seed/demo.ts';
import { localAddressWarnings } from './lib/public-address.ts';
import type { AuthService } from './modules/auth/auth.service.ts';
import { SETUP_CODE_HOURS, type SetupService } from './modules/setup/setup.service.ts';

export interface Startup {
  /** The demo organization was made just now. */
  demo: boolean;
  /** The one-time setup code to print, while no organization exists. */
  setupCode: string | null;
  /**
   * The demo account exists in the database and signs in with the demo password: only then
   * is it printed (an installation without the demo, or whose demo password was changed,
   * would be told a sign-in that does not work).
   */
  demoSignIn: boolean;
}

/**
 * What the server does to a migrated database before it builds the app: the demo
 * organization in an empty embedded database, when demo data is on (the demo's identity
 * provider looks for it as the app is built). True when it was made just now.
 */
export async function seedDemo(database: DatabaseHandle, config: Config): Promise<boolean> {
  if (!config.demoData || database.kind !== 'pglite') return false;
  return seedDemoIfEmpty(database, config.argon2);
}

/**
 * Before it listens: while there is still no organization, a new one-time setup code for the
 * first run, printed in the start banner.
 */
export async function prepareStartup(
  demo: boolean,
  setup: Pick<SetupService, 'issueCode'>,
  auth: Pick<AuthService, 'passwordSignsIn'>,
): Promise<Startup> {
  return {
    demo,
    setupCode: await setup.issueCode(),
    demoSignIn: await auth.passwordSignsIn(DEMO_EMAIL, DEMO_PASSWORD),
  };
}

/** The lines printed once the server listens, from the configuration and what start found. */
export function startupBanner(config: Config, startup: Startup) {
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
  if (startup.demoSignIn) lines.push(`  Demo sign-in: ${DEMO_EMAIL} / ${DEMO_PASSWORD}`);
  const warnings = localAddressWarnings({
    publicUrl: config.publicUrl,
    mailFrom: config.mail?.from ?? null,
  });
  if (warnings.length > 0) lines.push('', ...warnings.map((warning) => `  Warning: ${warning}`));
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
