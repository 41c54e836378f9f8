// A refused value in words (decision 0078): the label of its field and what to do, from AJV's
// errors and the route's schema, or from a service's message that names the field's path.
import { describe, expect, it } from 'vitest';
import { labelFromName, pathMessageInWords, schemaProblem } from './field-words.ts';

const BODY = {
  type: 'object',
  properties: {
    organizationName: { type: 'string', title: "the organization's name", minLength: 1 },
    password: { type: 'string', minLength: 8, maxLength: 128 },
    memberIds: { type: 'array', items: { type: 'string', pattern: '^[a-z]+$' }, maxItems: 3 },
    role: { anyOf: [{ const: 'member' }, { const: 'admin' }] },
    expiresInDays: { type: 'integer', minimum: 1 },
  },
  required: ['organizationName', 'password'],
  additionalProperties: false,
};

const said = (error: object) =>
  schemaProblem(
    [{ instancePath: '', params: {}, ...error } as Parameters<typeof schemaProblem>[0][0]],
    'body',
    BODY,
  );

describe('a failed check in words', () => {
  it.each([
    [
      { keyword: 'required', params: { missingProperty: 'organizationName' } },
      "Enter the organization's name.",
      'organizationName',
    ],
    [
      { keyword: 'minLength', instancePath: '/organizationName', params: { limit: 1 } },
      "Enter the organization's name.",
      'organizationName',
    ],
    [
      { keyword: 'minLength', instancePath: '/password', params: { limit: 8 } },
      'The password needs at least 8 characters.',
      'password',
    ],
    [
      { keyword: 'maxLength', instancePath: '/password', params: { limit: 128 } },
      'The password can have at most 128 characters: shorten it.',
      'password',
    ],
    [
      { keyword: 'pattern', instancePath: '/memberIds/2', params: {} },
      'Entry 3 of the members is not in the expected form: check it.',
      'memberIds',
    ],
    [
      { keyword: 'maxItems', instancePath: '/memberIds', params: { limit: 3 } },
      'The members can hold at most 3 entries.',
      'memberIds',
    ],
    [
      { keyword: 'type', instancePath: '/memberIds', params: { type: 'array' } },
      'The members need to be a list.',
      'memberIds',
    ],
    [
      { keyword: 'anyOf', instancePath: '/role', params: {} },
      'The role can only be "member" or "admin".',
      'role',
    ],
    [
      { keyword: 'minimum', instancePath: '/expiresInDays', params: { limit: 1 } },
      'The days until it expires cannot be less than 1.',
      'expiresInDays',
    ],
    [
      { keyword: 'additionalProperties', params: { additionalProperty: 'admin' } },
      'The request has an unknown property "admin": leave it out.',
      null,
    ],
    [
      { keyword: 'type', params: { type: 'object' } },
      'The request needs to be a group of fields.',
      null,
    ],
  ])('%j: %s', (error, message, field) => {
    const problem = said(error);
    expect(problem).toEqual({ field, message });
    expect(problem.message).not.toMatch(/must (NOT )?(have|be|match)|body\./);
  });

  it('says the choice, not the first branch that failed, for a union of values', () => {
    expect(
      schemaProblem(
        [
          { keyword: 'const', instancePath: '/role', params: { allowedValue: 'member' } },
          { keyword: 'const', instancePath: '/role', params: { allowedValue: 'admin' } },
          { keyword: 'anyOf', instancePath: '/role', params: {} },
        ],
        'body',
        BODY,
      ),
    ).toEqual({ field: 'role', message: 'The role can only be "member" or "admin".' });
  });
});

describe('a service’s message that names a field by its path', () => {
  const schemaOf = () => BODY;

  it.each([
    [
      'body.organizationName must not contain a NUL character',
      "The organization's name cannot contain a NUL character.",
      'organizationName',
    ],
    [
      'body.feedbackUrl must be an http or https address',
      'The feedback address needs to be an http or https address.',
      'feedbackUrl',
    ],
    ['querystring.q must not be empty', 'The search cannot be empty.', 'q'],
    [
      'body: name either parentId or spaceId, not both',
      'Name either parentId or spaceId, not both.',
      null,
    ],
  ])('%s', (message, words, field) => {
    expect(pathMessageInWords(message, schemaOf)).toEqual({ field, message: words });
  });

  it('leaves a sentence that names no path as it is', () => {
    expect(pathMessageInWords('My Space cannot be shared.', schemaOf)).toBeNull();
  });
});

describe('a property’s name in words', () => {
  it.each([
    ['newPassword', 'the new password'],
    ['memberIds', 'the members'],
    ['collectionId', 'the collection'],
    ['consentUrl', 'the consent address'],
    ['url', "the link's address"],
    ['q', 'the search'],
  ])('%s: %s', (name, label) => {
    expect(labelFromName(name)).toBe(label);
  });
});
