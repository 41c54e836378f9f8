// `npm run admin -- <command>`: administration from the command line, for scripted deploys
// and for getting back in. Works on the database the server uses (DATABASE_URL or DATA_DIR),
// after running its migrations. One line on stderr and a non-zero exit on any error.
import { mkdir } from 'node:fs/promises';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase, type DatabaseHandle } from './db/client.ts';
import { migrate } from './db/migrate.ts';
import { AppError } from './lib/errors.ts';
import { createCommandLineService } from './modules/setup/command-line.service.ts';

const PASSWORD_VARIABLE = 'SIGNPOST_ADMIN_PASSWORD';

const HELP = `Usage: npm run admin -- <command> [options]

Commands:
  create-organization --name <organization> --admin-name <name> --admin-email <e-mail>
      First run: creates the organization and its first administrator.
  reset-password --email <e-mail>
      Sets a new password and ends the person's sessions.
  make-admin --email <e-mail>
      Makes the person an administrator of their organization.
  disable --email <e-mail>
      Disables the person: their sessions and access tokens stop at once.

Passwords are never arguments: set ${PASSWORD_VARIABLE}, or write the password on
standard input (one line). The commands use the server's database: DATABASE_URL, or the
embedded database in DATA_DIR (default ./data; stop the server first, the embedded
database serves one process at a time). Each command is written to the audit log.
`;

const COMMANDS: Record<string, { flags: string[]; password: boolean }> = {
  'create-organization': { flags: ['name', 'admin-name', 'admin-email'], password: true },
  'reset-password': { flags: ['email'], password: true },
  'make-admin': { flags: ['email'], password: false },
  disable: { flags: ['email'], password: false },
};

class UsageError extends Error {}

/** `--flag value` and `--flag=value`; every flag is known and given once. */
function parseArguments(argv: string[]) {
  const [command, ...rest] = argv;
  if (!command || command === '--help' || command === '-h' || command === 'help') {
    return { help: true as const };
  }
  const spec = COMMANDS[command];
  if (!spec) {
    throw new UsageError(`unknown command "${command}"; run npm run admin -- --help`);
  }
  const flags: Record<string, string> = {};
  for (let i = 0; i < rest.length; i += 1) {
    const arg = rest[i]!;
    if (arg === '--help' || arg === '-h') return { help: true as const };
    const match = /^--([a-z-]+)(?:=(.*))?$/s.exec(arg);
    if (!match) throw new UsageError(`unexpected argument "${arg}"`);
    const name = match[1]!;
    if (name === 'password') {
      throw new UsageError(
        `a password is never an argument: set ${PASSWORD_VARIABLE} or write it on standard input`,
      );
    }
    if (!spec.flags.includes(name)) {
      throw new UsageError(`${command} has no option --${name}; run npm run admin -- --help`);
    }
    if (name in flags) throw new UsageError(`--${name} is given twice`);
    const value = match[2] ?? rest[(i += 1)];
    if (value === undefined || value.startsWith('--')) {
      throw new UsageError(`--${name} needs a value`);
    }
    flags[name] = value;
  }
  for (const name of spec.flags) {
    if (!(name in flags)) throw new UsageError(`${command} needs --${name}`);
  }
  return { help: false as const, command, flags, password: spec.password };
}

/** The password from the environment, or the first line of standard input. */
async function readPassword(): Promise<string> {
  const fromEnvironment = process.env[PASSWORD_VARIABLE];
  if (fromEnvironment !== undefined && fromEnvironment !== '') return fromEnvironment;
  if (process.stdin.isTTY) process.stderr.write('Password: ');
  let text = '';
  for await (const chunk of process.stdin) {
    text += (chunk as Buffer).toString('utf8');
    if (process.stdin.isTTY && text.includes('\n')) break;
  }
  const line = text.split(/\r?\n/)[0] ?? '';
  if (line === '') {
    throw new UsageError(
      `no password: set ${PASSWORD_VARIABLE} or write the password on standard input`,
    );
  }
  return line;
}

async function run(argv: string[]): Promise<string> {
  const parsed = parseArguments(argv);
  if (parsed.help) return HELP;
  const { command, flags } = parsed;
  const password = parsed.password ? await readPassword() : '';

  const config = loadConfig(process.env, []);
  if (!config.databaseUrl) await mkdir(config.dataDir, { recursive: true });
  let database: DatabaseHandle;
  try {
    database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
  } catch (error) {
    throw new Error(`cannot open the database: ${(error as Error).message}`, { cause: error });
  }
  try {
    await migrate(database);
    const service = createCommandLineService(database.db, config);
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
    const message =
      error instanceof UsageError || error instanceof ConfigError || error instanceof AppError
        ? error.message
        : `${(error as Error).message ?? String(error)}`;
    process.stderr.write(`signpost admin: ${message.replace(/\s*\n\s*/g, ' ')}\n`);
    process.exit(error instanceof UsageError ? 2 : 1);
  },
);
