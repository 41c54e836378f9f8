// The first run's input as the command line gives it (no schema checks it there): the rules
// of every request text apply too (decision 0049).
import { describe, expect, it } from 'vitest';
import { checkFirstRunInput } from './setup.service.ts';

const good = {
  organizationName: 'Acme',
  name: 'Ada Lovelace',
  email: 'ada@acme.test',
  password: 'correct horse battery',
};

describe('checkFirstRunInput', () => {
  it.each([
    [
      'an organization name of zero-width spaces',
      { organizationName: '\u200b\u200b' },
      "Enter the organization's name.",
    ],
    [
      'a name of a right-to-left override only',
      { name: ' \u202e ' },
      "Enter the administrator's name.",
    ],
    [
      'a C1 control in the name',
      { name: 'Ada\u0085' },
      "The administrator's name cannot contain control characters.",
    ],
    [
      'a lone surrogate in the organization name',
      { organizationName: 'Acme\ud800' },
      "The organization's name cannot contain control characters.",
    ],
    [
      'a DEL in the e-mail',
      { email: 'ada\u007f@acme.test' },
      'Enter a valid e-mail address, such as name@example.com.',
    ],
  ])('refuses %s', (_case, change, message) => {
    expect(() => checkFirstRunInput({ ...good, ...change })).toThrow(message);
  });

  it('keeps a name that shows something', () => {
    expect(checkFirstRunInput({ ...good, name: ' \u05e9\u05dc\u05d5\u05dd ' }).name).toBe(
      '\u05e9\u05dc\u05d5\u05dd',
    );
  });

  it('takes bidirectional controls out of the names and the e-mail, never out of the password', () => {
    const password = 'correct\u202ehorse battery';
    expect(
      checkFirstRunInput({
        organizationName: 'Acme\u202egnp.exe',
        name: '\u2067Ada\u2069 Lovelace',
        email: 'ada\u202a@acme.test',
        password,
      }),
    ).toEqual({
      organizationName: 'Acmegnp.exe',
      name: 'Ada Lovelace',
      email: 'ada@acme.test',
      password,
    });
  });
});
