import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { HELP, parseArguments, readPassword, UsageError } from './admin-arguments.ts';

/**
 * A terminal to type at: each answer is typed once its prompt is shown (as a person does),
 * and what the program writes to the screen is kept.
 */
function terminal(answers: string[]) {
  const input = Object.assign(new PassThrough(), {
    isTTY: true,
    rawModes: [] as boolean[],
    setRawMode(mode: boolean) {
      input.rawModes.push(mode);
      return input;
    },
  });
  const output = new PassThrough();
  let screen = '';
  let prompts = 0;
  output.on('data', (chunk: Buffer) => {
    screen += chunk.toString();
    const shown = (screen.match(/Password: |Confirm the password: /g) ?? []).length;
    while (prompts < shown) {
      const answer = answers[prompts++];
      setImmediate(() => (answer === undefined ? input.end() : input.write(answer)));
    }
  });
  return { input, output, screen: () => screen };
}

const pipe = (text: string) => {
  const input = new PassThrough();
  input.end(text);
  return input;
};

describe('the command line of npm run admin', () => {
  it.each([[[]], [['--help']], [['-h']], [['help']], [['make-admin', '--help']]])(
    '%j asks for help',
    (argv) => expect(parseArguments(argv)).toEqual({ help: true }),
  );

  it('reads --flag value and --flag=value, and knows which commands need a password', () => {
    expect(
      parseArguments([
        'create-organization',
        '--name=Acme = Co',
        '--admin-name',
        'Ada Admin',
        '--admin-email',
        'ada@acme.test',
      ]),
    ).toEqual({
      help: false,
      command: 'create-organization',
      flags: { name: 'Acme = Co', 'admin-name': 'Ada Admin', 'admin-email': 'ada@acme.test' },
      password: true,
    });
    expect(parseArguments(['reset-password', '--email', 'a@b.test'])).toMatchObject({
      password: true,
    });
    expect(parseArguments(['disable', '--email', 'a@b.test'])).toMatchObject({ password: false });
  });

  it.each([
    [['frobnicate'], /unknown command "frobnicate"/],
    [['make-admin'], /make-admin needs --email/],
    [['make-admin', '--email'], /--email needs a value/],
    [['make-admin', '--email', '--email'], /--email needs a value/],
    [['make-admin', 'a@b.test'], /unexpected argument "a@b.test"/],
    [['make-admin', '--email', 'a@b.test', '--role', 'x'], /has no option --role/],
    [['make-admin', '--email=a@b.test', '--email=c@d.test'], /given twice/],
    [['reset-password', '--email', 'a@b.test', '--password', 'secret-123'], /never an argument/],
    [['reset-password', '--email', 'a@b.test', '--password=secret-123'], /never an argument/],
    [['create-organization', '--name', 'Acme', '--admin-name', 'Ada'], /needs --admin-email/],
  ])('refuses %j', (argv, message) => {
    expect(() => parseArguments(argv)).toThrow(UsageError);
    expect(() => parseArguments(argv)).toThrow(message);
  });

  it('documents every command and where the password comes from', () => {
    for (const command of ['create-organization', 'reset-password', 'make-admin', 'disable']) {
      expect(HELP).toContain(command);
    }
    expect(HELP).toContain('SIGNPOST_ADMIN_PASSWORD');
  });
});

describe('the password of npm run admin', () => {
  const env = {};

  it('comes from SIGNPOST_ADMIN_PASSWORD first, without reading standard input', async () => {
    const input = terminal([]);
    await expect(
      readPassword({ SIGNPOST_ADMIN_PASSWORD: 'from the env' }, input.input, input.output),
    ).resolves.toBe('from the env');
    expect(input.screen()).toBe('');
  });

  it('from a pipe, is the first line of standard input, and nothing is asked', async () => {
    const output = new PassThrough();
    let screen = '';
    output.on('data', (chunk: Buffer) => (screen += chunk.toString()));
    await expect(readPassword(env, pipe('piped secret\nignored\n'), output)).resolves.toBe(
      'piped secret',
    );
    await expect(readPassword(env, pipe('crlf secret\r\n'), output)).resolves.toBe('crlf secret');
    await expect(readPassword(env, pipe(''), output)).rejects.toThrow(
      /no password: set SIGNPOST_ADMIN_PASSWORD/,
    );
    expect(screen).toBe('');
  });

  it('at a terminal, is asked twice and never shown', async () => {
    const tty = terminal(['typed secret\r', 'typed secret\r']);
    await expect(readPassword(env, tty.input, tty.output)).resolves.toBe('typed secret');
    expect(tty.screen()).toContain('Password: ');
    expect(tty.screen()).toContain('Confirm the password: ');
    expect(tty.screen()).not.toContain('typed');
    expect(tty.screen()).not.toContain('*');
    // Raw mode while typing (no echo by the terminal either), given back afterwards.
    expect(tty.input.rawModes).toContain(true);
    expect(tty.input.rawModes.at(-1)).toBe(false);
  });

  it('at a terminal, refuses two different passwords with one line (exit 1, not a usage error)', async () => {
    const tty = terminal(['typed secret\r', 'typed secreT\r']);
    const failure = await readPassword(env, tty.input, tty.output).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(Error);
    expect(failure).not.toBeInstanceOf(UsageError);
    expect((failure as Error).message).toBe('the two passwords differ; nothing was changed');
    expect(tty.screen()).not.toContain('secret');
  });

  it('at a terminal, an empty answer or the end of input is no password', async () => {
    const empty = terminal(['\r']);
    await expect(readPassword(env, empty.input, empty.output)).rejects.toThrow(UsageError);
    const ended = terminal([]);
    await expect(readPassword(env, ended.input, ended.output)).rejects.toThrow(/no password/);
  });
});
