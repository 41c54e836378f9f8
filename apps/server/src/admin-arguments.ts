// The command line of `npm run admin`: its commands, their options, the help text, and how
// the password is read.
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';

export const PASSWORD_VARIABLE = 'SIGNPOST_ADMIN_PASSWORD';

export const HELP = `Usage: npm run admin -- <command> [options]

Commands:
  migrate
      Brings the database up to date and exits (the server also does it when it starts;
      run it once per release before the new version's instances, as a deploy step).
  create-organization --name <organization> --admin-name <name> --admin-email <e-mail>
      First run: creates the organization and its first administrator.
  reset-password --email <e-mail>
      Sets a new password and ends the person's sessions.
  make-admin --email <e-mail>
      Makes the person an administrator of their organization.
  disable --email <e-mail>
      Disables the person: their sessions and access tokens stop at once.

Passwords are never arguments: set ${PASSWORD_VARIABLE}, or write the password on
standard input (one line). At a terminal the command asks for it twice, without showing it. The commands use the server's database: DATABASE_URL, or the
embedded database in DATA_DIR (default ./data; stop the server first, the embedded
database serves one process at a time). Each command is written to the audit log.
`;

const COMMANDS: Record<string, { flags: string[]; password: boolean }> = {
  migrate: { flags: [], password: false },
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

/** Standard input as the password reader sees it: a terminal or a pipe. */
export type PasswordInput = NodeJS.ReadableStream & { isTTY?: boolean };

const NO_PASSWORD = `no password: set ${PASSWORD_VARIABLE} or write the password on standard input`;

/**
 * The password: from the environment variable; else, at a terminal, typed twice without being
 * shown (a mismatch is refused); else the first line of standard input.
 */
export async function readPassword(
  env: Record<string, string | undefined>,
  input: PasswordInput,
  output: NodeJS.WritableStream,
): Promise<string> {
  const fromEnvironment = env[PASSWORD_VARIABLE];
  if (fromEnvironment !== undefined && fromEnvironment !== '') return fromEnvironment;
  if (input.isTTY) {
    const first = await askHidden(input, output, 'Password: ');
    if (first === '') throw new UsageError(NO_PASSWORD);
    const second = await askHidden(input, output, 'Confirm the password: ');
    if (first !== second) {
      throw new Error('the two passwords differ; nothing was changed');
    }
    return first;
  }
  let text = '';
  for await (const chunk of input) text += chunk.toString();
  const line = text.split(/\r?\n/)[0] ?? '';
  if (line === '') throw new UsageError(NO_PASSWORD);
  return line;
}

/** Asks one line at a terminal without echoing what is typed (the prompt is shown). */
export function askHidden(
  input: PasswordInput,
  output: NodeJS.WritableStream,
  prompt: string,
): Promise<string> {
  let muted = false;
  const screen = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      if (!muted) output.write(chunk);
      done();
    },
  });
  const lines = createInterface({ input, output: screen, terminal: true, historySize: 0 });
  return new Promise<string>((resolve, reject) => {
    let settled = false;
    const finish = (work: () => void) => {
      if (settled) return;
      settled = true;
      muted = false;
      lines.close();
      output.write('\n');
      work();
    };
    lines.on('SIGINT', () => finish(() => reject(new Error('cancelled; nothing was changed'))));
    lines.on('close', () => finish(() => resolve('')));
    lines.question(prompt, (answer) => finish(() => resolve(answer)));
    muted = true;
  });
}
