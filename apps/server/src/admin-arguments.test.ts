import { describe, expect, it } from 'vitest';
import { HELP, parseArguments, UsageError } from './admin-arguments.ts';

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
