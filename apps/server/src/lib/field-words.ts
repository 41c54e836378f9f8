/**
 * A refused value of a request, said in words (decision 0078): which field, by its label, and
 * what to do — "Enter the organization's name.", "The password needs at least 8
 * characters." — never the validator's `body.password must NOT have fewer than 8 characters`.
 *
 * A field's label is the `title` of its schema in the contract ("the organization's name");
 * a field without one is named from its property (`newPassword`: "the new password",
 * `memberIds`: "the members"). Every answer also names the property it is about (`field`),
 * so that a form shows the message by its field.
 */
import { branches, isObject, propertySchemas, type Schema } from './schema-walk.ts';

/** A refusal about one field (or about the request as a whole: `field` null). */
export interface FieldProblem {
  /** The top property of the body, query string or path the message is about. */
  field: string | null;
  message: string;
}

/** What Fastify hands over of a failed check: AJV's errors. */
export interface SchemaError {
  keyword: string;
  instancePath: string;
  schemaPath?: string;
  params: Record<string, unknown>;
  message?: string;
}

/** The parts of a request, as Fastify names them in a failed check. */
export type RequestPart = 'body' | 'querystring' | 'params' | 'headers';

const WHOLE: Record<RequestPart, string> = {
  body: 'the request',
  querystring: 'the query of the address',
  params: 'the address',
  headers: 'the request’s headers',
};

/** The text with its first letter in upper case: the start of a sentence. */
export const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** A sentence ends with a full stop (or the question or exclamation mark it has). */
const finished = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);

/** Properties whose name alone says too little, in the words of the forms that send them. */
const NAMED: Record<string, string> = {
  url: "the link's address",
  q: 'the search',
  query: 'the search',
  email: 'the e-mail address',
  totp: 'the code from the authenticator app',
  ticket: 'the sign-in ticket',
  returnTo: 'the address to return to',
  ssoDomains: 'the single sign-on domains',
  auditRetentionDays: 'the days the audit log keeps its entries',
  expiresInDays: 'the days until it expires',
  signOutOtherSessions: 'the choice to sign out the other sessions',
  revokeAccessTokens: 'the choice to revoke the access tokens',
  passwordSignIn: 'the choice of signing in with a password',
  signIn: 'the way of signing in',
  ids: 'the people chosen',
  userIds: 'the people',
  color: 'the colour',
  from: 'the start of the period',
  to: 'the end of the period',
  after: 'the place to continue from',
};

/** Labels that name several things, and labels ending in an "s" that name one. */
const PLURAL = new Set([
  'the single sign-on domains',
  'the days the audit log keeps its entries',
  'the days until it expires',
  'the people chosen',
  'the people',
]);
const SINGULAR = new Set([
  'the choice to sign out the other sessions',
  'the choice to revoke the access tokens',
  'the address',
  'the e-mail address',
]);

/** A property's name in words: `newPassword` "the new password", `memberIds` "the members". */
export function labelFromName(name: string): string {
  if (Object.hasOwn(NAMED, name)) return NAMED[name]!;
  const words = name
    .replace(/Ids$/, 's')
    .replace(/Id$/, '')
    .replace(/Url$/, ' address')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toLowerCase()
    .trim();
  return words ? `the ${words}` : 'the value';
}

function itemOf(schemas: Schema[]): Schema[] {
  return schemas.flatMap((schema) => (isObject(schema.items) ? branches(schema.items) : []));
}

/** The label of a place: its schema's title, else its property's name in words. */
function labelOf(schemas: Schema[], name: string): string {
  const titled = schemas.find((s) => typeof s.title === 'string' && s.title.trim() !== '');
  return titled ? (titled.title as string) : labelFromName(name);
}

/** A place of a request: what to call it, its schemas, and the top property it lies under. */
interface Place {
  label: string;
  schemas: Schema[];
  field: string | null;
}

/** The place `path` (`/memberIds/3`, or as segments) points at, from the part's schema. */
export function placeOf(root: unknown, part: RequestPart, path: string | string[]): Place {
  const segments = Array.isArray(path)
    ? path
    : path
        .split('/')
        .slice(1)
        .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  let schemas = branches(root);
  let label = WHOLE[part];
  for (const segment of segments) {
    if (/^\d+$/.test(segment)) {
      schemas = itemOf(schemas);
      label = `entry ${Number(segment) + 1} of ${label}`;
    } else {
      schemas = propertySchemas(schemas, segment);
      label = labelOf(schemas, segment);
    }
  }
  return { label, schemas, field: segments[0] ?? null };
}

const TYPE_WORDS: Record<string, string> = {
  string: 'text',
  integer: 'a whole number',
  number: 'a number',
  boolean: 'true or false',
  array: 'a list',
  object: 'a group of fields',
  null: 'empty',
};

const FORMAT_WORDS: Record<string, string> = {
  email: 'an e-mail address',
  uri: 'a web address',
  url: 'a web address',
  'date-time': 'a date and time',
  date: 'a date',
  uuid: 'an id',
};

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** The values a place may take, when it is a choice among a few: `"member" or "admin"`. */
function choicesOf(schemas: Schema[]): string | null {
  const values: unknown[] = [];
  for (const schema of schemas) {
    if (Array.isArray(schema.enum)) values.push(...schema.enum);
    else if (Object.hasOwn(schema, 'const')) values.push(schema.const);
  }
  const shown = [...new Set(values.filter((v) => v !== null))].map((v) => JSON.stringify(v));
  if (shown.length === 0) return null;
  if (shown.length === 1) return shown[0]!;
  return `${shown.slice(0, -1).join(', ')} or ${shown.at(-1)}`;
}

const isText = (schemas: Schema[]) => schemas.some((s) => s.type === 'string');

/** Whether a label names several things ("the members"), for the verb that follows it. */
const isPlural = (label: string) =>
  PLURAL.has(label) ||
  (!SINGULAR.has(label) &&
    /s$/.test(label) &&
    !/(ss|us|is|address|this)$/.test(label) &&
    !/^entry \d+ of /.test(label));

/** The verb after a label, agreeing with it: `needs` or `need`, `is` or `are`. */
function verb(label: string, one: string): string {
  if (!isPlural(label)) return one;
  return { is: 'are', has: 'have', needs: 'need', lists: 'list' }[one] ?? one;
}

/** What a check's error says, in words, about the place it names. */
function describe(error: SchemaError, root: unknown, part: RequestPart): FieldProblem {
  const { keyword, params } = error;
  if (keyword === 'required') {
    const name = String(params.missingProperty);
    const parent = placeOf(root, part, error.instancePath);
    const place = placeOf(root, part, [...error.instancePath.split('/').slice(1), name]);
    const field = parent.field ?? name;
    return {
      field,
      message: isText(place.schemas)
        ? `Enter ${place.label}.`
        : `${capital(place.label)} ${verb(place.label, 'is')} missing: give ${isPlural(place.label) ? 'them' : 'it'}.`,
    };
  }
  if (keyword === 'additionalProperties') {
    const place = placeOf(root, part, error.instancePath);
    return {
      field: place.field,
      message: `${capital(place.label)} ${verb(place.label, 'has')} an unknown property "${String(params.additionalProperty)}": leave it out.`,
    };
  }
  const place = placeOf(root, part, error.instancePath);
  const L = capital(place.label);
  const is = verb(place.label, 'is');
  const needs = verb(place.label, 'needs');
  const limit = Number(params.limit);
  const words = ((): string => {
    switch (keyword) {
      case 'minLength':
        return limit <= 1
          ? `Enter ${place.label}.`
          : `${L} ${needs} at least ${plural(limit, 'character', 'characters')}.`;
      case 'maxLength':
        return `${L} can have at most ${plural(limit, 'character', 'characters')}: shorten it.`;
      case 'minimum':
        return `${L} cannot be less than ${limit}.`;
      case 'maximum':
        return `${L} cannot be more than ${limit}.`;
      case 'exclusiveMinimum':
        return `${L} ${needs} to be more than ${limit}.`;
      case 'exclusiveMaximum':
        return `${L} ${needs} to be less than ${limit}.`;
      case 'minItems':
        return limit <= 1
          ? `Choose at least one for ${place.label}.`
          : `${L} ${needs} at least ${limit} entries.`;
      case 'maxItems':
        return `${L} can hold at most ${plural(limit, 'entry', 'entries')}.`;
      case 'uniqueItems':
        return `${L} ${verb(place.label, 'lists')} the same entry twice: keep it once.`;
      case 'minProperties':
        return `${L} changes nothing: give at least ${plural(limit, 'field', 'fields')} to change.`;
      case 'maxProperties':
        return `${L} ${verb(place.label, 'has')} too many fields: at most ${limit}.`;
      case 'format':
        return `${L} ${is} not ${FORMAT_WORDS[String(params.format)] ?? 'in the expected form'}: check it.`;
      case 'pattern':
        return `${L} ${is} not in the expected form: check it.`;
      case 'type': {
        const choices = choicesOf(place.schemas);
        if (choices) return `${L} can only be ${choices}.`;
        const types = String(params.type)
          .split(',')
          .map((t) => TYPE_WORDS[t] ?? t);
        return `${L} ${needs} to be ${types.join(' or ')}.`;
      }
      case 'enum':
      case 'const':
      case 'anyOf':
      case 'oneOf': {
        const choices = choicesOf(place.schemas);
        if (choices) return `${L} can only be ${choices}.`;
        return `${L} ${is} not one of the forms it can take: check it.`;
      }
      default:
        return `${L} ${is} not accepted as it is: check it.`;
    }
  })();
  return { field: place.field, message: words };
}

/**
 * A failed check of a request part, in words, from AJV's errors and the part's schema. The
 * first error is the one said, as AJV stops at it; when it comes from a branch of a choice of
 * values (a union of literals), the choice is said instead.
 */
export function schemaProblem(
  errors: readonly SchemaError[],
  part: RequestPart,
  root: unknown,
): FieldProblem {
  const first = errors[0];
  if (!first) return { field: null, message: `${capital(WHOLE[part])} is not accepted as it is.` };
  // A choice of values fails in each branch first (`const`, `type`), then as a whole.
  const choice = errors.find(
    (e) =>
      (e.keyword === 'anyOf' || e.keyword === 'oneOf') && e.instancePath === first.instancePath,
  );
  if (choice && choicesOf(placeOf(root, part, first.instancePath).schemas)) {
    return describe(choice, root, part);
  }
  return describe(first, root, part);
}

/** The validator's wording, as servers' own messages used to borrow it, in everyday words. */
const PHRASES: [RegExp, string][] = [
  [/^must not be /, 'cannot be '],
  [/^must not /, 'cannot '],
  [/^must NOT /, 'cannot '],
  [/^must be /, 'needs to be '],
  [/^must have /, 'needs '],
  [/^must match /, 'needs to match '],
  [/^must /, 'needs to '],
  [/^is required$/, 'is missing: give it'],
];

// `body.url must …`, `querystring.query must …`, `body.memberIds.3 …`: a place, then the rest.
const FIELD_PATH = /^(body|querystring|params)(?:[./]([^\s:]+))?(:?)\s+(.+)$/s;

/**
 * A message that names its place the way a field path does (`body.feedbackUrl must not
 * contain spaces`, as services throw them), said in words with the route's labels: "The
 * feedback address cannot contain spaces." Null for a message that names no place.
 */
export function pathMessageInWords(
  message: string,
  schemaOf: (part: RequestPart) => unknown,
): FieldProblem | null {
  const match = FIELD_PATH.exec(message.trim());
  if (!match) return null;
  const part = match[1] as RequestPart;
  const segments = match[2] ? match[2].split(/[./]/) : [];
  const place = placeOf(schemaOf(part), part, segments);
  let rest = match[4]!.trim();
  // "body: name either parentId or spaceId, not both": a sentence about the whole request.
  if (segments.length === 0 && match[3] === ':') {
    return { field: null, message: finished(capital(rest)) };
  }
  for (const [pattern, words] of PHRASES) {
    if (pattern.test(rest)) {
      rest = rest.replace(pattern, words);
      break;
    }
  }
  return { field: place.field, message: finished(`${capital(place.label)} ${rest}`) };
}

/** A problem with the text of a field (decision 0049), after its label: "The name cannot …". */
export function textProblemInWords(label: string, problem: string): string {
  return finished(`${capital(label)} ${problem}`);
}
