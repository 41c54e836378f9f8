// Bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069) are taken
// out of every text a request brings, before the schema and the handler, so that nothing the
// server stores, answers or sends on can show `invoice<U+202E>gnp.exe` as "invoiceexe.png"
// (decision 0081). Passwords are the one exception: never shown, taken as typed.
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { selectRows } from '../../src/db/client.ts';
import { createTestApp } from '../app.ts';
import { addTeamMember, createOrganization, createTeam, createUser, signIn } from '../factories.ts';

const { app, db } = await createTestApp();
const org = await createOrganization(db);
const admin = await createUser(db, org.id, { role: 'admin' });
const member = await createUser(db, org.id, { name: 'Jane Member' });
const { headers } = await signIn(app, admin);
const memberAuth = (await signIn(app, member)).headers;

const RLO = '\u202e';
const PDF = '\u202c';
const LRI = '\u2066';
const PDI = '\u2069';
const RLE = '\u202b';
const LRM = '\u200e';
const CONTROLS = /[\u202a-\u202e\u2066-\u2069]/;

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  'x-as-typed'?: boolean;
};

/** Every string property of the request bodies and query strings, with its markers. */
function stringFields(): { name: string; asTyped: boolean }[] {
  const document = app.swagger() as {
    paths: Record<
      string,
      Record<
        string,
        {
          parameters?: { in: string; name: string; schema: JsonSchema }[];
          requestBody?: { content?: Record<string, { schema: JsonSchema }> };
        }
      >
    >;
  };
  const found: { name: string; asTyped: boolean }[] = [];
  const walk = (schema: JsonSchema, name: string, depth = 0) => {
    if (depth > 8) return;
    if ([schema.type].flat().includes('string')) {
      found.push({ name, asTyped: schema['x-as-typed'] === true });
    }
    for (const branch of [
      ...(schema.anyOf ?? []),
      ...(schema.oneOf ?? []),
      ...(schema.allOf ?? []),
    ])
      walk(branch, name, depth + 1);
    for (const [key, sub] of Object.entries(schema.properties ?? {}))
      walk(sub, `${name}.${key}`, depth + 1);
    if (schema.items) walk(schema.items, `${name}.0`, depth + 1);
  };
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const at = `${method.toUpperCase()} ${path}`;
      for (const parameter of operation.parameters ?? []) {
        if (parameter.in === 'query') walk(parameter.schema, `${at} querystring.${parameter.name}`);
      }
      const body = operation.requestBody?.content?.['application/json']?.schema;
      if (body) walk(body, `${at} body`);
    }
  }
  return found;
}

/** Every text and jsonb value of every table that holds a bidirectional control. */
async function controlsStored(): Promise<string[]> {
  const columns = await selectRows<{ table: string; column: string; type: string }>(
    db,
    sql`SELECT c.table_name AS "table", c.column_name AS "column", c.data_type AS type
          FROM information_schema.columns c
          JOIN information_schema.tables t
            ON t.table_name = c.table_name AND t.table_schema = c.table_schema
         WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE'
           AND c.data_type IN ('text', 'jsonb', 'ARRAY')
         ORDER BY 1, 2`,
  );
  const found: string[] = [];
  for (const { table, column } of columns) {
    const rows = await selectRows<{ value: string }>(
      db,
      sql`SELECT ${sql.identifier(column)}::text AS value FROM ${sql.identifier(table)}
           WHERE ${sql.identifier(column)}::text ~ '[\u202A-\u202E\u2066-\u2069]'`,
    );
    for (const row of rows) found.push(`${table}.${column}: ${JSON.stringify(row.value)}`);
  }
  return found;
}

describe('bidirectional controls where text enters', () => {
  it('takes every password as typed, and no other text', () => {
    const fields = stringFields();
    const asTyped = fields.filter((f) => f.asTyped).map((f) => f.name);
    const passwords = fields.filter((f) => /password$/i.test(f.name)).map((f) => f.name);
    expect(passwords.length).toBeGreaterThanOrEqual(8);
    expect(new Set(asTyped)).toEqual(new Set(passwords));
  });

  it('stores and answers what people type without them, in every kind of text', async () => {
    const team = await createTeam(db, org.id, { name: 'Engineering' });
    await addTeamMember(db, team, member.id, 'member');
    const call = (method: 'POST' | 'PATCH', url: string, payload: object, as = headers) =>
      app.inject({ method, url, headers: as, payload });
    const ok = (response: { statusCode: number; body: string }) =>
      expect(response.statusCode, response.body).toBeLessThan(300);

    // A link of one's own, then edited; a collection, then edited.
    ok(
      await call('POST', `/api/consumer/collections/${admin.rootId}/links`, {
        name: `invoice${RLO}gnp.exe`,
        url: 'https://example.com/invoice',
        description: `Line ${LRI}one${PDI}\nline two`,
      }),
    );
    const [link] = await selectRows<{ id: string }>(
      db,
      sql`SELECT id FROM links WHERE collection_id = ${admin.rootId}`,
    );
    ok(
      await call('PATCH', `/api/consumer/links/${link!.id}`, { name: `report${RLE}fdp.exe${PDF}` }),
    );
    ok(
      await call('POST', '/api/consumer/collections', {
        name: `${LRI}exe.png${PDI}`,
        description: `About ${RLO}this`,
      }),
    );
    const [collection] = await selectRows<{ id: string; name: string; description: string }>(
      db,
      sql`SELECT id, name, description FROM collections WHERE parent_id = ${admin.rootId}`,
    );
    expect(collection).toMatchObject({ name: 'exe.png', description: 'About this' });

    // A suggestion to a team, declined with a reason; the team renamed.
    const [teamCollection] = await selectRows<{ id: string }>(
      db,
      sql`INSERT INTO collections (id, organization_id, owner_type, owner_team_id, name)
          VALUES ('teamcollection0000001', ${org.id}, 'team', ${team.id}, 'Tools') RETURNING id`,
    );
    const suggested = await call(
      'POST',
      `/api/consumer/collections/${teamCollection!.id}/suggestions`,
      { name: `Tool${RLO}gnp.exe`, url: 'https://example.com/tool', description: `Why ${RLO}` },
      memberAuth,
    );
    ok(suggested);
    const [suggestion] = await selectRows<{ id: string }>(
      db,
      sql`SELECT id FROM link_suggestions WHERE collection_id = ${teamCollection!.id}`,
    );
    ok(
      await call('POST', `/api/admin/suggestions/${suggestion!.id}/decline`, {
        reason: `Not ${RLO}now`,
      }),
    );
    ok(await call('PATCH', `/api/admin/teams/${team.id}`, { name: `Engineering${RLO}` }));

    // The organization, a person, an access token.
    ok(
      await call('PATCH', '/api/admin/organization', {
        name: `Acme${RLO}`,
        personalIntro: `Welcome ${RLO}home`,
      }),
    );
    const person = await call('POST', '/api/admin/people', {
      name: `New ${RLO}hire`,
      email: `new.hire${LRI}@example.test${PDI}`,
      password: 'long enough password',
    });
    ok(person);
    expect(person.json()).toMatchObject({ name: 'New hire', email: 'new.hire@example.test' });
    const token = await call('POST', '/api/auth/tokens', { name: `CI ${RLO}bot` });
    ok(token);
    expect(token.json().accessToken.name).toBe('CI bot');

    // The menu answers the names as stored: without them.
    const menu = await app.inject({ method: 'GET', url: '/api/consumer/menu', headers });
    expect(menu.statusCode).toBe(200);
    expect(menu.body).not.toMatch(CONTROLS);
    expect(menu.body).toContain('reportfdp.exe');

    // No column of any table holds one, the audit log of all these changes included.
    expect(await controlsStored()).toEqual([]);
    expect(
      await selectRows(
        db,
        sql`SELECT name FROM links WHERE id = ${link!.id}
            UNION ALL SELECT description FROM links WHERE id = ${link!.id}`,
      ),
    ).toEqual([{ name: 'reportfdp.exe' }, { name: 'Line one\nline two' }]);
  });

  it('counts a name’s length without them, and still refuses a name of nothing else', async () => {
    const long = `${'a'.repeat(200)}${RLO}`;
    const kept = await app.inject({
      method: 'POST',
      url: '/api/consumer/collections',
      headers,
      payload: { name: long },
    });
    expect(kept.statusCode).toBe(204);
    const blank = await app.inject({
      method: 'POST',
      url: '/api/consumer/collections',
      headers,
      payload: { name: `${RLO}${PDF}` },
    });
    expect(blank.statusCode).toBe(400);
    expect(blank.json()).toMatchObject({
      field: 'name',
      message: expect.stringContaining('cannot be blank'),
    });
    expect(await controlsStored()).toEqual([]);
  });

  it('keeps the marks, which cannot turn letters around', async () => {
    const name = `\u05e9\u05dc\u05d5\u05dd${LRM}!`;
    const response = await app.inject({
      method: 'POST',
      url: '/api/consumer/collections',
      headers,
      payload: { name },
    });
    expect(response.statusCode).toBe(204);
    const rows = await selectRows<{ name: string }>(
      db,
      sql`SELECT name FROM collections WHERE name = ${name}`,
    );
    expect(rows).toEqual([{ name }]);
  });

  it('takes them out of query strings too: a search finds what it would without them', async () => {
    const response = await app.inject({
      method: 'GET',
      url: `/api/consumer/peers?query=${encodeURIComponent(`Jane${RLO} Mem`)}`,
      headers,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().items.map((p: { id: string }) => p.id)).toEqual([member.id]);
  });

  it('takes a password exactly as typed, bidirectional controls and all', async () => {
    const person = await createUser(db, org.id);
    const session = await signIn(app, person);
    const typed = `pass${RLO}word!`;
    const changed = await app.inject({
      method: 'POST',
      url: '/api/auth/password',
      headers: session.headers,
      payload: { currentPassword: 'correct horse battery', newPassword: typed },
    });
    expect(changed.statusCode).toBe(204);
    const signInWith = (password: string) =>
      app.inject({
        method: 'POST',
        url: '/api/auth/sessions/',
        payload: { type: 'email-password', email: person.email, password },
      });
    expect((await signInWith(typed)).statusCode).toBe(201);
    expect((await signInWith('password!')).statusCode).toBe(401);
  });

  it('answers old entries of the audit log without them, which the log itself keeps', async () => {
    // Written before the change: the log refuses every UPDATE, so the entry keeps them.
    await db.execute(
      sql`INSERT INTO audit_log (id, organization_id, action, actor_name, target_type, target_id,
                                 target_label, details)
          VALUES ('oldentry00000000000001', ${org.id}, 'link.created', ${`Mallory${RLO}`},
                  'link', 'l1', ${`invoice${RLO}gnp.exe`},
                  ${JSON.stringify({ name: `invoice${RLO}gnp.exe` })}::jsonb)`,
    );
    const list = await app.inject({ method: 'GET', url: '/api/admin/audit-log', headers });
    expect(list.statusCode).toBe(200);
    const entry = list
      .json<{ items: { id: string }[] }>()
      .items.find((e) => e.id === 'oldentry00000000000001');
    expect(entry).toMatchObject({
      actor: { name: 'Mallory' },
      target: { label: 'invoicegnp.exe' },
      details: { name: 'invoicegnp.exe' },
    });
    expect(list.body).not.toMatch(CONTROLS);
    const csv = await app.inject({ method: 'GET', url: '/api/admin/audit-log/export', headers });
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain('invoicegnp.exe');
    expect(csv.body).not.toMatch(CONTROLS);
    const [kept] = await selectRows<{ label: string }>(
      db,
      sql`SELECT target_label AS label FROM audit_log WHERE id = 'oldentry00000000000001'`,
    );
    expect(kept!.label).toBe(`invoice${RLO}gnp.exe`);
  });
});
