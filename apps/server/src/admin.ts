// `npm run admin -- <command>`: administration from the command line, for scripted deploys
// and for getting back in. Works on the database the server uses (DATABASE_URL or DATA_DIR),
// after running its migrations. One line on stderr and a non-zero exit on any error.
import { LIMITS } from '@signpost/contract';
import type { DatabaseHandle } from './db/client.ts';
import { HELP, parseArguments, readPassword, UsageError } from './admin-arguments.ts';
import { safeMessage } from './log-errors.ts';

async function run(argv: string[]): Promise<string> {
  const parsed = parseArguments(argv);
  if (parsed.help) return HELP;
  const { command, flags } = parsed;
  const password = parsed.password
    ? await readPassword(process.env, process.stdin, process.stderr)
    : '';
  const { min, max } = LIMITS.password;
  if (parsed.password && (password.length < min || password.length > max)) {
    throw new UsageError(`the password must be ${min} to ${max} characters long`);
  }

  // Loaded only now, so that help and usage errors answer at once.
  const { loadConfig } = await import('./config.ts');
  const { openDatabase } = await import('./db/client.ts');
  const { migrate } = await import('./db/migrate.ts');
  const { composeServer } = await import('./root.ts');
  const { makeFolders } = await import('./data-dir.ts');
  const { pino } = await import('pino');
  const config = loadConfig(process.env, []);
  // Level by level, so that a read-only file system is reported as such (EROFS), not ENOENT.
  if (!config.databaseUrl) await makeFolders(config.dataDir);
  let database: DatabaseHandle;
  try {
    database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
  } catch (error) {
    throw new Error(`cannot open the database: ${safeMessage(error)}`, { cause: error });
  }
  try {
    const applied = await migrate(database);
    if (command === 'migrate' && config.databaseUrl) {
      // The job queue's schema and queues too, so that the instances started after this
      // find nothing left to create (decision 0082).
      const { prepareJobQueue } = await import('./jobs/queue.ts');
      applied.push(...(await prepareJobQueue(database, config.databaseUrl)));
    }
    if (command === 'migrate') {
      return applied.length === 0
        ? 'The database is up to date.'
        : `Applied ${applied.length}: ${applied.join(', ')}`;
    }
    // The services of the server, built the same way (decision 0070); no background work
    // starts, and only warnings and errors reach standard error.
    const log = pino({ level: 'warn' }, pino.destination(2));
    const service = composeServer({ config, database, log }).services.commandLine;
    const email = flags.email ?? '';
    switch (command) {
      case 'create-organization':
        return await service.createOrganization({
          organizationName: flags.name ?? '',
          name: flags['admin-name'] ?? '',
          email: flags['admin-email'] ?? '',
          password,
        });
      case 'reset-password':
        return await service.resetPassword(email, password);
      case 'make-admin':
        return await service.makeAdmin(email);
      default:
        return await service.disable(email);
    }
  } finally {
    await database.close().catch(() => {});
  }
}

// npm runs scripts in the package's folder; relative paths (DATA_DIR) mean where it was typed.
if (process.env.npm_lifecycle_event === 'admin' && process.env.INIT_CWD) {
  process.chdir(process.env.INIT_CWD);
}

run(process.argv.slice(2)).then(
  (output) => {
    process.stdout.write(output.endsWith('\n') ? output : `${output}\n`);
    process.exit(0);
  },
  (error: unknown) => {
    // Never the values of a failed statement (a password's hash, an e-mail): decision 0050.
    process.stderr.write(`signpost admin: ${safeMessage(error)}\n`);
    process.exit(error instanceof UsageError ? 2 : 1);
  },
);
