// Every field of every route (body, query string, path), found in the OpenAPI document the
// route schemas make, sent a value its schema refuses — missing, of another type, too short,
// too long, out of range, not one of the choices, not in its form — and the request with a
// property it does not have: each answer says in words which field and what to do, and names
// the field it is about (decision 0078). No answer carries the validator's own phrasing.
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../app.ts';
import { createOrganization, createUser, signIn } from '../factories.ts';

const { app, db } = await createTestApp();
const org = await createOrganization(db);
const admin = await createUser(db, org.id, { role: 'admin' });
const { headers } = await signIn(app, admin);

/** What a person must never read: the validator's phrasing or a field's path. */
const RAW = /must (NOT )?(have|be|match)|body\.|querystring\.|params\./;

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minItems?: number;
  maxItems?: number;
  minProperties?: number;
};

const ID = 'abcdefghijklmnopqrstu';

/** The branch of a schema a value is made for: the first that is not null. */
function concrete(schema: JsonSchema): JsonSchema {
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) {
    const literals = branches.filter((b) => b.const !== undefined);
    if (literals.length === branches.length) return { enum: literals.map((b) => b.const) };
    return concrete(branches.find((b) => b.type !== 'null') ?? branches[0]!);
  }
  return schema;
}

const typeOf = (schema: JsonSchema) => [schema.type].flat().find((t) => t !== 'null');

/** A value the schema accepts, as small as it allows. */
function valid(raw: JsonSchema): unknown {
  const schema = concrete(raw);
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  switch (typeOf(schema)) {
    case 'string': {
      if (schema.format === 'email') return 'someone@example.test';
      if (schema.format === 'uri') return 'https://example.test/';
      if (schema.format === 'date-time') return new Date().toISOString();
      const length = Math.max(schema.minLength ?? 1, 1);
      if (schema.pattern) {
        const pattern = new RegExp(schema.pattern, 'u');
        const found = [
          ID,
          '123456',
          'a',
          'someone@example.test',
          'https://example.test/',
          'example.test',
          '#1d5fd1',
        ].find((c) => pattern.test(c));
        if (found) return found;
      }
      return 'x'.repeat(length);
    }
    case 'integer':
    case 'number':
      return schema.exclusiveMinimum !== undefined
        ? schema.exclusiveMinimum + 1
        : (schema.minimum ?? 1);
    case 'boolean':
      return true;
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => valid(schema.items ?? {}));
    case 'object': {
      const value: Record<string, unknown> = {};
      for (const name of schema.required ?? []) value[name] = valid(schema.properties![name]!);
      if (Object.keys(value).length < (schema.minProperties ?? 0)) {
        const [name, sub] = Object.entries(schema.properties ?? {})[0]!;
        value[name] = valid(sub);
      }
      return value;
    }
    default:
      return 'x';
  }
}

/** Values the schema refuses, each with what it tries. */
function refused(raw: JsonSchema): [string, unknown][] {
  const schema = concrete(raw);
  const out: [string, unknown][] = [];
  const type = typeOf(schema);
  if (schema.enum) out.push(['not one of the choices', 'zz-not-a-choice']);
  if (type === 'string' || schema.enum) out.push(['of another type', 12345]);
  else if (type) out.push(['of another type', type === 'array' ? 'x' : 'not-that-type']);
  if (type === 'string') {
    if ((schema.minLength ?? 0) > 0) out.push(['too short', '']);
    if ((schema.minLength ?? 0) > 1) out.push(['too short', 'x'.repeat(schema.minLength! - 1)]);
    if (schema.maxLength !== undefined) out.push(['too long', 'x'.repeat(schema.maxLength + 1)]);
    if (schema.pattern || schema.format) out.push(['not in its form', '!! not this !!']);
  }
  if (type === 'integer' || type === 'number') {
    if (schema.minimum !== undefined) out.push(['too small', schema.minimum - 1]);
    if (schema.maximum !== undefined) out.push(['too large', schema.maximum + 1]);
    if (type === 'integer') out.push(['not whole', 1.5]);
  }
  if (type === 'array') {
    if ((schema.minItems ?? 0) > 0) out.push(['empty', []]);
    if (schema.maxItems !== undefined && schema.items) {
      const one = valid(schema.items);
      out.push(['too many', Array.from({ length: schema.maxItems + 1 }, () => one)]);
    }
    if (schema.items && typeOf(concrete(schema.items))) {
      out.push([
        'an entry of another type',
        [typeOf(concrete(schema.items)) === 'string' ? 1 : 'x'],
      ]);
    }
  }
  return out;
}

interface Parameter {
  in: string;
  name: string;
  required?: boolean;
  schema: JsonSchema;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema: JsonSchema }> };
}

interface Attempt {
  what: string;
  method: string;
  url: string;
  body?: unknown;
  /** The field the answer should name; null when the request as a whole is refused. */
  field: string | null;
}

/** Every refused value of every field of every route, each in a request otherwise valid. */
function attempts(): Attempt[] {
  const document = app.swagger() as { paths: Record<string, Record<string, Operation>> };
  const out: Attempt[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [lower, operation] of Object.entries(methods)) {
      const method = lower.toUpperCase();
      const parameters = operation.parameters ?? [];
      const pathValues = Object.fromEntries(
        parameters.filter((p) => p.in === 'path').map((p) => [p.name, String(valid(p.schema))]),
      );
      const queryValues = Object.fromEntries(
        parameters
          .filter((p) => p.in === 'query' && p.required)
          .map((p) => [p.name, String(valid(p.schema))]),
      );
      const bodySchema = operation.requestBody?.content?.['application/json']?.schema;
      const body = bodySchema ? valid(bodySchema) : undefined;
      const url = (params: Record<string, string>, query: Record<string, string>) => {
        const filled = path.replace(/\{([^}]+)\}/g, (_, name: string) =>
          encodeURIComponent(params[name] ?? ID),
        );
        const search = new URLSearchParams(query).toString();
        return search ? `${filled}?${search}` : filled;
      };
      const at = (what: string) => `${method} ${path} ${what}`;

      for (const parameter of parameters) {
        if (parameter.in !== 'path' && parameter.in !== 'query') continue;
        for (const [what, value] of refused(parameter.schema)) {
          if (typeof value !== 'string' && typeof value !== 'number') continue;
          const text = String(value);
          // The path's and query's values are text: a number there is a number's text, and
          // an empty part of a path is another address.
          if (what === 'of another type' && typeOf(concrete(parameter.schema)) === 'string') {
            continue;
          }
          if (parameter.in === 'path' && text === '') continue;
          const params =
            parameter.in === 'path' ? { ...pathValues, [parameter.name]: text } : pathValues;
          const query =
            parameter.in === 'query' ? { ...queryValues, [parameter.name]: text } : queryValues;
          out.push({
            what: at(`${parameter.in} ${parameter.name} ${what}`),
            method,
            url: url(params, query),
            ...(body === undefined ? {} : { body }),
            field: parameter.name,
          });
        }
      }
      if (parameters.some((p) => p.in === 'query')) {
        out.push({
          what: at('an unknown query parameter'),
          method,
          url: url(pathValues, { ...queryValues, zzUnknown: '1' }),
          ...(body === undefined ? {} : { body }),
          field: null,
        });
      }

      if (!bodySchema || typeof body !== 'object' || body === null || Array.isArray(body)) continue;
      const target = url(pathValues, queryValues);
      const schema = concrete(bodySchema);
      out.push({ what: at('a body that is a list'), method, url: target, body: [], field: null });
      out.push({
        what: at('an unknown property'),
        method,
        url: target,
        body: { ...body, zzUnknown: 1 },
        field: null,
      });
      for (const [name, sub] of Object.entries(schema.properties ?? {})) {
        if (schema.required?.includes(name)) {
          const { [name]: _gone, ...rest } = body as Record<string, unknown>;
          out.push({
            what: at(`body ${name} missing`),
            method,
            url: target,
            body: rest,
            field: name,
          });
        }
        for (const [what, value] of refused(sub)) {
          out.push({
            what: at(`body ${name} ${what}`),
            method,
            url: target,
            body: { ...body, [name]: value },
            field: name,
          });
        }
      }
    }
  }
  return out;
}

const ALL = attempts();

describe('refused values, in words', () => {
  it('tries every field of every kind of route', () => {
    const tried = ALL.map((a) => a.what);
    for (const expected of [
      'POST /api/setup/ body organizationName too short',
      'POST /api/setup/ body password too short',
      'POST /api/auth/sessions/ body email missing',
      'GET /api/admin/people/ query limit too small',
      'PATCH /api/admin/organization/ body auditRetentionDays too large',
      'POST /api/admin/teams/{id}/members body userIds empty',
      'POST /api/consumer/collections/{id}/links body url too long',
    ]) {
      expect(tried).toContainEqual(expected.replace(/\/ /, ' '));
    }
    expect(ALL.length).toBeGreaterThan(400);
  });

  it('never answers with the validator’s phrasing, and names the field it refuses', async () => {
    const raw: string[] = [];
    const unnamed: string[] = [];
    let refusals = 0;
    for (const attempt of ALL) {
      const response = await app.inject({
        method: attempt.method as 'POST',
        url: attempt.url,
        headers:
          attempt.body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
        ...(attempt.body === undefined ? {} : { payload: JSON.stringify(attempt.body) }),
      });
      const answer: { message?: string; msg?: string; field?: string } = response.body
        ? response.json()
        : {};
      const said = `${attempt.what}: ${response.statusCode} ${JSON.stringify(answer.message)}`;
      if (RAW.test(answer.message ?? '') || RAW.test(answer.msg ?? '')) raw.push(said);
      if (response.statusCode !== 400) continue;
      refusals += 1;
      // A sentence, about the field that was refused (or the request, for what is not one).
      const sentence = /^[A-Z].*[.]$/s.test(answer.message ?? '');
      if (!sentence || (answer.field ?? null) !== attempt.field) {
        unnamed.push(`${said} field=${answer.field ?? '-'}`);
      }
    }
    expect(raw).toEqual([]);
    expect(unnamed).toEqual([]);
    expect(refusals).toBeGreaterThan(400);
  });
});
