// The audit log's routes: the answer each kind of outcome gets, the refused queries, the
// headers of the CSV download, and the periodic purge of a running app. Who may read the
// log, its filters, pages, CSV content and retention are tested against the service
// (audit.service.test.ts).
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { createTestApp } from '../../../test/app.ts';
import { createUser, signIn } from '../../../test/factories.ts';
import { createSignedInCast } from '../../../test/support/world.ts';
import { selectRows } from '../../db/client.ts';
import { newId } from '../../lib/ids.ts';

const { app, db, config, database } = await createTestApp();
const cast = await createSignedInCast(app, db);
const { org, orgAdmin } = cast;
const { audit } = app.services;

type Headers = Record<string, string>;

const list = (headers: Headers | undefined, query = '') =>
  app.inject({
    method: 'GET',
    url: `/api/admin/audit-log${query}`,
    ...(headers ? { headers } : {}),
  });
const exportCsv = (headers: Headers | undefined, query = '') =>
  app.inject({
    method: 'GET',
    url: `/api/admin/audit-log/export${query}`,
    ...(headers ? { headers } : {}),
  });

/** An entry written straight into the table, with the instant given. */
async function entryAt(organizationId: string | null, at: string, action = 'sign-out') {
  const id = newId();
  await db.execute(
    sql`INSERT INTO audit_log (id, organization_id, occurred_at, action)
        VALUES (${id}, ${organizationId}, ${at}::timestamptz, ${action})`,
  );
  return id;
}

const exists = async (id: string) =>
  (await selectRows<{ id: string }>(db, sql`SELECT id FROM audit_log WHERE id = ${id}`)).length ===
  1;

await audit.record(db, {
  organizationId: org.id,
  actor: { id: orgAdmin.id, name: orgAdmin.name, email: orgAdmin.email },
  action: 'team.created',
  target: { type: 'team', id: newId(), label: 'A team' },
});

describe('GET /api/admin/audit-log and its export: who may read them', () => {
  it.each([
    ['orgAdmin', 200],
    ['teamEditor', 403],
  ] as const)('%s gets %i', async (role, status) => {
    const response = await list(cast[role].headers);
    expect(response.statusCode).toBe(status);
    const csv = await exportCsv(cast[role].headers);
    expect(csv.statusCode).toBe(status);
    if (status !== 200) expect(response.json().code).toBe('FORBIDDEN');
    else
      expect(response.json().items).toContainEqual(
        expect.objectContaining({ action: 'team.created' }),
      );
  });

  it('answers 401 to anonymous callers and to a disabled administrator', async () => {
    expect((await list(undefined)).statusCode).toBe(401);
    expect((await exportCsv(undefined)).statusCode).toBe(401);
    const admin = await createUser(db, org.id, { role: 'admin' });
    const { headers } = await signIn(app, admin);
    await db.execute(sql`UPDATE users SET status = 'disabled' WHERE id = ${admin.id}`);
    expect((await list(headers)).statusCode).toBe(401);
    expect((await exportCsv(headers)).statusCode).toBe(401);
  });
});

describe('GET /api/admin/audit-log: refused queries', () => {
  it.each([
    ['an unknown action', '?action=person.exploded'],
    ['an action list with a space', '?action=person.,%20team.'],
    ['a person id of the wrong shape', '?person=alice'],
    ['a date that is no date', '?from=yesterday'],
    ['a date without a time zone', '?from=2026-01-01T00:00:00'],
    ['a cursor of other characters', '?cursor=%27%3B--'],
    ['a limit of 0', '?limit=0'],
    ['a limit over 200', '?limit=201'],
    ['a limit that is no number', '?limit=many'],
    ['an unknown parameter', '?sort=asc'],
    ['oversized words', `?q=${'x'.repeat(201)}`],
  ])('refuses %s with 400', async (_what, query) => {
    const response = await list(orgAdmin.headers, query);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: expect.any(String),
    });
    if (!query.includes('cursor') && !query.includes('limit')) {
      expect((await exportCsv(orgAdmin.headers, query)).statusCode).toBe(400);
    }
  });
});

describe('GET /api/admin/audit-log/export', () => {
  it('downloads the log as a CSV attachment of the day, never cached', async () => {
    const response = await exportCsv(orgAdmin.headers, '?action=team.created');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="audit-log-\d{4}-\d\d-\d\d\.csv"$/,
    );
    expect(response.headers['cache-control']).toBe('no-store');
    const lines = response.body.split('\n');
    expect(lines[0]).toMatch(/^\uFEFFoccurred_at,actor_id,/);
    expect(lines[1]).toContain('team.created');
  });
});

describe('the periodic purge', () => {
  it('runs when the app is ready, only when asked', async () => {
    const old = new Date(Date.now() - 400 * 86_400_000).toISOString();
    // The test app does not run it.
    const kept = await entryAt(null, old);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await exists(kept)).toBe(true);

    const withJobs = await buildApp({ config, database, periodicJobs: true });
    await withJobs.ready();
    // Closing waits for a purge under way.
    await withJobs.close();
    expect(await exists(kept)).toBe(false);
  });
});
