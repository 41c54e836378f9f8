// Every string field of every route (body, query string, path), found in the OpenAPI document
// the route schemas make: a control character, a lone surrogate or a noncharacter is 400
// naming the field in words (decision 0078) and in `field`, and no row of any table changes
// (decision 0049).
import { databaseDigest } from '../support/attack-checks.ts';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { selectRows } from '../../src/db/client.ts';
import { createTestApp } from '../app.ts';
import { createOrganization, createUser, signIn } from '../factories.ts';

const { app, db } = await createTestApp();
const org = await createOrganization(db);
const admin = await createUser(db, org.id, { role: 'admin' });
const { headers } = await signIn(app, admin);

/**
 * A digest of every row of every table (a session's last use and the processes' own
 * bookkeeping aside: test/support/attack-checks.ts).
 */
const digest = async () => JSON.stringify(await databaseDigest(db));

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  'x-multiline'?: boolean;
  'x-visible'?: boolean;
};

interface Field {
  /** The field as the error names it: `body.name`, `querystring.q`, `params.id`. */
  name: string;
  multiline: boolean;
  /** A name: it must hold a visible character. */
  visible: boolean;
  /** The smallest value of the part that puts `text` into this field. */
  build: (text: string) => unknown;
}

/** Every string place of a body schema, with a builder of a body that holds only it. */
function stringPlaces(
  schema: JsonSchema,
  name: string,
  build: (v: unknown) => unknown,
  seen = 0,
): Field[] {
  if (seen > 8) return [];
  const types = [schema.type].flat();
  const result: Field[] = [];
  if (types.includes('string')) {
    result.push({
      name,
      multiline: schema['x-multiline'] === true,
      visible: schema['x-visible'] === true,
      build: (text) => build(text),
    });
  }
  for (const branch of [
    ...(schema.anyOf ?? []),
    ...(schema.oneOf ?? []),
    ...(schema.allOf ?? []),
  ]) {
    result.push(...stringPlaces(branch, name, build, seen + 1));
  }
  for (const [key, sub] of Object.entries(schema.properties ?? {})) {
    result.push(...stringPlaces(sub, `${name}.${key}`, (v) => build({ [key]: v }), seen + 1));
  }
  if (schema.items) {
    result.push(...stringPlaces(schema.items, `${name}.0`, (v) => build([v]), seen + 1));
  }
  // One entry per field: a union of a string and null has one string place.
  return result.filter((f, i) => result.findIndex((g) => g.name === f.name) === i);
}

interface Operation {
  method: string;
  path: string;
  fields: (Field & { part: 'body' | 'querystring' | 'params' })[];
}

interface OpenApiParameter {
  in: string;
  name: string;
  schema: JsonSchema;
}
interface OpenApiOperation {
  parameters?: OpenApiParameter[];
  requestBody?: { content?: Record<string, { schema: JsonSchema }> };
}

function operations(): Operation[] {
  const document = app.swagger() as {
    paths: Record<string, Record<string, OpenApiOperation>>;
  };
  const result: Operation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const fields: Operation['fields'] = [];
      for (const parameter of operation.parameters ?? []) {
        if (parameter.in !== 'path' && parameter.in !== 'query') continue;
        const part = parameter.in === 'path' ? 'params' : 'querystring';
        for (const field of stringPlaces(parameter.schema, `${part}.${parameter.name}`, (v) => v)) {
          fields.push({ ...field, part });
        }
      }
      const body = operation.requestBody?.content?.['application/json']?.schema;
      if (body)
        for (const field of stringPlaces(body, 'body', (v) => v))
          fields.push({ ...field, part: 'body' });
      if (fields.length > 0) result.push({ method: method.toUpperCase(), path, fields });
    }
  }
  return result;
}

/** A request whose one field holds `text`, every other path parameter a harmless value. */
function request(operation: Operation, field: Operation['fields'][number], text: string) {
  const parameter = field.name.slice('params.'.length);
  let url = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    field.part === 'params' && name === parameter
      ? encodeURIComponent(`a${text}b`)
      : 'abcdefghijklmnopqrstu',
  );
  if (field.part === 'querystring') {
    url += `?${field.name.slice('querystring.'.length)}=${encodeURIComponent(`a${text}b`)}`;
  }
  const value = field.part === 'body' ? field.build(`a${text}b`) : undefined;
  return app.inject({
    method: operation.method as 'GET',
    url,
    headers: field.part === 'body' ? { ...headers, 'content-type': 'application/json' } : headers,
    ...(field.part === 'body' ? { payload: JSON.stringify(value) } : {}),
  });
}

const ALL = operations();

/** The top property a field lies under, as the answer's `field` names it: `memberIds`. */
const topOf = (field: Field) => field.name.split('.')[1];

/** A refusal in words: the problem after the field's label, never the field's path. */
function saysInWords(
  response: { statusCode: number; json: <T>() => T },
  field: Field,
  problem: string,
): boolean {
  const body = response.json<{ message?: string; msg?: string; field?: string }>();
  const message = body.message ?? '';
  return (
    response.statusCode === 400 &&
    message.endsWith(` ${problem}.`) &&
    /^[A-Z]/.test(message) &&
    !message.includes(field.name) &&
    body.msg === message &&
    body.field === topOf(field)
  );
}

describe('text a request may hold', () => {
  it('finds the string fields of every kind of route', () => {
    const names = ALL.flatMap((o) => o.fields.map((f) => `${o.method} ${o.path} ${f.name}`));
    for (const expected of [
      'POST /api/auth/sessions/ body.email',
      'POST /api/consumer/collections/{id}/links body.name',
      'POST /api/consumer/collections/{id}/links body.description',
      'PATCH /api/admin/organization/ body.ssoDomains.0',
      'GET /api/admin/people/ querystring.q',
      'DELETE /api/consumer/links/{id} params.id',
    ]) {
      expect(names).toContainEqual(expected.replace(/\/ /, ' ').replace(/\/$/, ''));
    }
    expect(names.length).toBeGreaterThan(60);
  });

  it('refuses a NUL character in every string of every route: 400 naming the field', async () => {
    const before = await digest();
    const failures: string[] = [];
    for (const operation of ALL) {
      for (const field of operation.fields) {
        const response = await request(operation, field, '\u0000');
        if (!saysInWords(response, field, 'cannot contain the control character U+0000')) {
          failures.push(
            `${operation.method} ${operation.path} ${field.name}: ${response.statusCode} ${response.body}`,
          );
        }
      }
    }
    expect(failures).toEqual([]);
    expect(await digest()).toBe(before);
  });

  it('refuses C0 and C1 controls, lone surrogates and noncharacters in every string', async () => {
    const before = await digest();
    const failures: string[] = [];
    const texts = [
      ['\u0001', 'U+0001'],
      ['\u001b', 'U+001B'],
      ['\u007f', 'U+007F'],
      ['\u0085', 'U+0085'],
      ['\u009b', 'U+009B'],
      ['\ud800', 'U+D800'],
      ['\udfff', 'U+DFFF'],
      ['\uffff', 'U+FFFF'],
    ] as const;
    for (const operation of ALL) {
      for (const field of operation.fields) {
        // Path and query: only what percent-encoding of UTF-8 can spell (no lone surrogate).
        for (const [text, code] of texts) {
          if (field.part !== 'body' && /^U\+D/.test(code)) continue;
          const response = await request(operation, field, text);
          const message = response.json<{ message?: string }>().message ?? '';
          if (
            !saysInWords(response, field, message.replace(/^.* cannot/, 'cannot').slice(0, -1)) ||
            !message.includes(` cannot contain `) ||
            !message.includes(code)
          ) {
            failures.push(
              `${operation.method} ${operation.path} ${field.name} ${code}: ${response.statusCode} ${response.body}`,
            );
          }
        }
      }
    }
    expect(failures).toEqual([]);
    expect(await digest()).toBe(before);
  });

  it('refuses tabs and line breaks in one-line texts, and says which', async () => {
    const before = await digest();
    const failures: string[] = [];
    for (const operation of ALL) {
      for (const field of operation.fields.filter((f) => !f.multiline)) {
        for (const [text, code] of [
          ['\t', 'U+0009'],
          ['\n', 'U+000A'],
          ['\r', 'U+000D'],
        ] as const) {
          const response = await request(operation, field, text);
          const problem = `needs to be one line: tabs and line breaks (${code}) are not allowed here`;
          if (!saysInWords(response, field, problem)) {
            failures.push(
              `${operation.method} ${operation.path} ${field.name} ${code}: ${response.statusCode} ${response.body}`,
            );
          }
        }
      }
    }
    expect(failures).toEqual([]);
    expect(await digest()).toBe(before);
  });

  it('keeps tabs and line breaks of multi-line texts, and emoji everywhere', async () => {
    const multi = ALL.flatMap((o) => o.fields.filter((f) => f.multiline).map((f) => f.name));
    expect(new Set(multi)).toEqual(
      new Set([
        'body.description',
        'body.reason',
        'body.personalIntro',
        'body.teamIntro',
        'body.organizationIntro',
        // A CSV file of people (decision 0085): its cells may hold line breaks.
        'body.csv',
        // A bookmark file (decision 0087): HTML, CSV or JSON over many lines.
        'body.file',
      ]),
    );
    const created = await app.inject({
      method: 'POST',
      url: `/api/consumer/collections/${admin.rootId}/links`,
      headers,
      payload: {
        name: 'Wiki 📚',
        url: 'https://wiki.example.com/',
        description: 'First line\n\tindented\r\nlast line',
      },
    });
    expect(created.statusCode).toBe(204);
    const rows = await selectRows<{ name: string; description: string }>(
      db,
      sql`SELECT name, description FROM links WHERE collection_id = ${admin.rootId}`,
    );
    expect(rows).toEqual([{ name: 'Wiki 📚', description: 'First line\n\tindented\r\nlast line' }]);
  });

  it('refuses a control character in a property name', async () => {
    const response = await app.inject({
      method: 'POST',
      url: `/api/consumer/collections/${admin.rootId}/links`,
      headers,
      payload: { name: 'Wiki', url: 'https://wiki.example.com/', 'x\u0000': 'y' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(
      'The request has a property whose name cannot contain the control character U+0000.',
    );
  });

  it('refuses names that show nothing: only spaces, zero-width or bidirectional characters', async () => {
    const names = ALL.flatMap((o) =>
      o.fields.filter((f) => f.visible).map((f) => `${o.method} ${o.path} ${f.name}`),
    );
    for (const expected of [
      'POST /api/consumer/collections/{id}/links body.name',
      'POST /api/consumer/collections body.name',
      'POST /api/admin/teams body.name',
      'POST /api/admin/people body.name',
      'PATCH /api/admin/organization body.name',
      'POST /api/auth/tokens body.name',
      'POST /api/setup body.organizationName',
    ]) {
      expect(names).toContainEqual(expected);
    }
    const before = await digest();
    const failures: string[] = [];
    for (const operation of ALL) {
      for (const field of operation.fields.filter((f) => f.visible)) {
        for (const blank of [
          '\u200b',
          '\u202e',
          ' \u200d\u2066\u2069 ',
          '\u00a0\u3000',
          '\ufeff\u2060',
          '\u3164',
          '\u0301',
        ]) {
          const value = field.build(blank);
          const response = await app.inject({
            method: operation.method as 'GET',
            url: operation.path.replace(/\{[^}]+\}/g, 'abcdefghijklmnopqrstu'),
            headers,
            payload: value as object,
          });
          const problem = 'cannot be blank: spaces and invisible characters alone are not a name';
          if (!saysInWords(response, field, problem)) {
            failures.push(
              `${operation.method} ${operation.path} ${field.name} ${JSON.stringify(blank)}: ${response.statusCode} ${response.body}`,
            );
          }
        }
      }
    }
    expect(failures).toEqual([]);
    expect(await digest()).toBe(before);
  });

  it('keeps names that show something, with their marks', async () => {
    for (const name of ['\u05e9\u05dc\u05d5\u05dd', 'e\u0301', '\u200bA', '👩\u200d💻']) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/consumer/collections',
        headers,
        payload: { name },
      });
      expect(response.statusCode).toBe(204);
    }
  });
});
