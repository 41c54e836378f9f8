// The command line of `npm run admin`: its commands, their options, and the help text.

export const PASSWORD_VARIABLE = 'SIGNPOST_ADMIN_PASSWORD';

export const HELP = `Usage: npm run admin -- <command> [options]

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

/** A mistake in the command line: exit code 2. */
export class UsageError extends Error {}

/** `--flag value` and `--flag=value`; every flag is known and given once. */
export function parseArguments(argv: string[]) {
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
