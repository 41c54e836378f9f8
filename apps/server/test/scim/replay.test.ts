// The requests Okta and Microsoft Entra ID send, as their documentation shows them, replayed
// in order against the real routes on a real database (decision 0084). Each file of
// fixtures/ is one sequence: `{{name}}` is filled from its `vars` and from values an earlier
// answer gave (`capture`), and each answer must hold every key `expect.body` names.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../app.ts';
import { createOrganization, createUser, signIn } from '../factories.ts';

interface Step {
  title: string;
  request: {
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
    path: string;
    headers?: Record<string, string>;
    body?: unknown;
  };
  expect: { status: number; body?: unknown; headers?: Record<string, string> };
  capture?: Record<string, string>;
  notes?: string;
}

interface Fixture {
  name: string;
  vars?: Record<string, string>;
  steps: Step[];
}

const folder = path.join(import.meta.dirname, 'fixtures');
const fixtures = readdirSync(folder)
  .filter((file) => file.endsWith('.json'))
  .sort()
  .map((file) => ({
    file,
    fixture: JSON.parse(readFileSync(path.join(folder, file), 'utf8')) as Fixture,
  }));

const { app, db } = await createTestApp();

/** A fresh organization with an administrator, and a SCIM token they made. */
async function organizationWithToken() {
  const org = await createOrganization(db);
  const admin = await createUser(db, org.id, { role: 'admin' });
  const { headers } = await signIn(app, admin);
  const made = await app.inject({
    method: 'POST',
    url: '/api/admin/scim-tokens',
    headers,
    payload: { name: 'Identity system' },
  });
  expect(made.statusCode).toBe(201);
  return made.json<{ token: string }>().token;
}

/** Fills `{{name}}` in every string of a value. */
function filled<T>(value: T, vars: Record<string, string>): T {
  const text = JSON.stringify(value).replace(/\{\{(\w+)\}\}/g, (whole, name: string) => {
    if (!(name in vars)) throw new Error(`${whole} is not defined at this step`);
    return JSON.stringify(vars[name]).slice(1, -1);
  });
  return JSON.parse(text) as T;
}

/** The value at a dotted path (`Resources.0.id`). */
function at(value: unknown, dotted: string): unknown {
  return dotted
    .split('.')
    .reduce<unknown>((current, key) => (current as Record<string, unknown> | null)?.[key], value);
}

/** `actual` holds every key of `expected`: objects partially, arrays element by element. */
function partial(actual: unknown, expected: unknown): unknown {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return expected;
    return expected
      .map((item, i) => partial(actual[i], item))
      .concat(actual.slice(expected.length));
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object') return expected;
    const result = { ...(actual as Record<string, unknown>) };
    for (const [key, value] of Object.entries(expected)) {
      result[key] = partial((actual as Record<string, unknown>)[key], value);
    }
    return result;
  }
  return actual;
}

describe.each(fixtures)('$file', ({ fixture }) => {
  it(fixture.name, async () => {
    const token = await organizationWithToken();
    const vars: Record<string, string> = { ...(fixture.vars ?? {}) };
    for (const [index, step] of fixture.steps.entries()) {
      const request = filled(step.request, vars);
      const response = await app.inject({
        method: request.method,
        url: `/scim/v2${request.path}`,
        headers: {
          authorization: `Bearer ${token}`,
          ...(request.body === undefined ? {} : { 'content-type': 'application/scim+json' }),
          ...Object.fromEntries(
            Object.entries(request.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]),
          ),
        },
        ...(request.body === undefined ? {} : { payload: JSON.stringify(request.body) }),
      });
      const where = `step ${index + 1} (${step.title})`;
      const expected = filled(step.expect, vars);
      expect({ where, status: response.statusCode, body: response.body }).toMatchObject({
        where,
        status: expected.status,
      });
      if (response.statusCode !== 204) {
        expect(response.headers['content-type'], where).toMatch(/^application\/scim\+json/);
      }
      if (expected.body !== undefined) {
        const body = response.json();
        expect({ where, body }).toEqual({ where, body: partial(body, expected.body) });
      }
      for (const [name, prefix] of Object.entries(expected.headers ?? {})) {
        expect(String(response.headers[name.toLowerCase()]), where).toMatch(
          new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`),
        );
      }
      for (const [name, dotted] of Object.entries(step.capture ?? {})) {
        const value = at(response.json(), dotted);
        expect(typeof value, `${where}: capture ${name} from ${dotted}`).toBe('string');
        vars[name] = value as string;
      }
    }
  });
});
