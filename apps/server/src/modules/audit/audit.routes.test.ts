// The audit log for administrators: who may read it, its filters and pages, the CSV export,
// and the database's refusal to change or delete entries before their time (decision 0045).
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { createTestApp } from '../../../test/app.ts';
import { createOrganization, createUser, signIn } from '../../../test/factories.ts';
import { createSignedInCast } from '../../../test/support/world.ts';
import { selectRows } from '../../db/client.ts';
import { newId } from '../../lib/ids.ts';
import { csvCell } from './audit.service.ts';

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

/** An entry as the services write it, in the cast's organization unless told. */
async function entry(overrides: Partial<Parameters<typeof audit.record>[1]> = {}) {
  await audit.record(db, {
    organizationId: org.id,
    actor: { id: orgAdmin.id, name: orgAdmin.name, email: orgAdmin.email },
    action: 'team.created',
    target: { type: 'team', id: newId(), label: 'A team' },
    ip: '10.0.0.1',
    userAgent: 'test',
    ...overrides,
  });
}

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

// A dedicated organization whose log only these tests write to.
const quiet = await createOrganization(db);
const quietAdmin = await createUser(db, quiet.id, { role: 'admin' });
const quietHeaders = (await signIn(app, quietAdmin)).headers;
const alice = await createUser(db, quiet.id, { name: 'Alice Martin' });
const bob = await createUser(db, quiet.id, { name: 'Bob Stone' });
const as = (p: { id: string; name: string; email: string }) => ({
  id: p.id,
  name: p.name,
  email: p.email,
});
const seeded = [
  { actor: as(alice), action: 'sign-in.succeeded', target: null },
  { actor: as(quietAdmin), action: 'person.disabled', target: as(bob) },
  { actor: as(quietAdmin), action: 'person.role-changed', target: as(alice) },
  { actor: as(bob), action: 'share.created', target: null },
  { actor: as(quietAdmin), action: 'team.created', target: null },
] as const;
for (const [i, row] of seeded.entries()) {
  const changed = row.action === 'person.role-changed';
  await db.execute(
    sql`INSERT INTO audit_log (id, organization_id, occurred_at, actor_id, actor_name,
                               actor_email, action, target_type, target_id, target_label,
                               before, after)
        VALUES (${newId()}, ${quiet.id}, ${`2026-01-0${i + 1}T12:00:00Z`}::timestamptz,
                ${row.actor.id}, ${row.actor.name}, ${row.actor.email}, ${row.action},
                ${row.target ? 'person' : null}, ${row.target?.id ?? null},
                ${row.target?.email ?? null},
                ${changed ? JSON.stringify({ role: 'member' }) : null}::jsonb,
                ${changed ? JSON.stringify({ role: 'admin' }) : null}::jsonb)`,
  );
}

describe('GET /api/admin/audit-log: who may read it', () => {
  it.each([
    ['orgAdmin', 200],
    ['teamEditor', 403],
    ['teamMember', 403],
    ['member', 403],
    ['colleague', 403],
  ] as const)('%s gets %i', async (role, status) => {
    await entry();
    const response = await list(cast[role].headers);
    expect(response.statusCode).toBe(status);
    const csv = await exportCsv(cast[role].headers);
    expect(csv.statusCode).toBe(status);
    if (status !== 200) expect(response.json().code).toBe('FORBIDDEN');
  });

  it('shows an administrator of another organization only their own', async () => {
    await entry({ action: 'team.deleted' });
    const response = await list(cast.outsider.headers);
    expect(response.statusCode).toBe(200);
    const ids = response.json().items.map((item: { action: string }) => item.action);
    expect(ids).not.toContain('team.deleted');
    const csv = await exportCsv(cast.outsider.headers);
    expect(csv.body).not.toContain('team.deleted');
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

  it('reading the log adds nothing to it', async () => {
    const count = async () =>
      (await selectRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM audit_log`))[0]!.n;
    const before = await count();
    await list(orgAdmin.headers);
    await exportCsv(orgAdmin.headers);
    await list(cast.member.headers);
    expect(await count()).toBe(before);
  });
});

describe('GET /api/admin/audit-log: filters and pages', () => {
  // The seeded entries are in January; the administrator's own sign-in is today.
  const actions = async (query: string) => {
    const january = query.includes('from=') ? '' : '&to=2026-02-01T00:00:00Z';
    const response = await list(quietHeaders, `${query || '?'}${january}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().items.map((item: { action: string }) => item.action) as string[];
  };

  it('lists newest first with who, what, where and the values changed', async () => {
    const response = await list(quietHeaders, `?person=${alice.id}&action=person.`);
    expect(response.json()).toEqual({
      items: [
        {
          id: expect.any(String),
          occurredAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
          actor: { id: quietAdmin.id, name: quietAdmin.name, email: quietAdmin.email },
          action: 'person.role-changed',
          target: { type: 'person', id: alice.id, label: alice.email },
          ip: null,
          userAgent: null,
          before: { role: 'member' },
          after: { role: 'admin' },
          details: null,
        },
      ],
      nextCursor: null,
    });
    expect(await actions('')).toEqual(seeded.map((row) => row.action).reverse());
  });

  it('filters by person as actor or target, by actions and groups, by dates and words', async () => {
    expect(await actions(`?person=${alice.id}`)).toEqual([
      'person.role-changed',
      'sign-in.succeeded',
    ]);
    expect(await actions(`?person=${bob.id}`)).toEqual(['share.created', 'person.disabled']);
    expect(await actions('?action=person.')).toEqual(['person.role-changed', 'person.disabled']);
    expect(await actions('?action=team.created,sign-in.')).toEqual([
      'team.created',
      'sign-in.succeeded',
    ]);
    expect(await actions('?from=2026-01-02T00:00:00Z&to=2026-01-04T00:00:00Z')).toEqual([
      'person.role-changed',
      'person.disabled',
    ]);
    expect(await actions('?q=STONE')).toEqual(['share.created']);
    expect(await actions(`?q=${encodeURIComponent(bob.email.toUpperCase())}`)).toEqual([
      'share.created',
      'person.disabled',
    ]);
    expect(await actions(`?q=${encodeURIComponent(alice.email.slice(0, 8))}`)).toContain(
      'person.role-changed',
    );
    // Wildcards are letters.
    expect(await actions('?q=%25')).toEqual([]);
    expect(await actions('?q=Alice%20Martin')).not.toEqual([]);
    expect(await actions('?q=Alice_Martin')).toEqual([]);
  });

  it('pages with a cursor, entries at the same instant included, none twice', async () => {
    const many = await createOrganization(db);
    const admin = await createUser(db, many.id, { role: 'admin' });
    const { headers } = await signIn(app, admin);
    // Seven entries, three of them at the very same instant.
    for (let i = 0; i < 4; i += 1) await entryAt(many.id, `2026-02-0${i + 1}T00:00:00Z`);
    for (let i = 0; i < 3; i += 1) await entryAt(many.id, '2026-03-01T00:00:00.123456Z');
    const seen: string[] = [];
    let cursor: string | null = '';
    let pages = 0;
    while (cursor !== null) {
      const query: string = `?action=sign-out&limit=2${cursor ? `&cursor=${cursor}` : ''}`;
      const response = await list(headers, query);
      expect(response.statusCode).toBe(200);
      const page = response.json();
      seen.push(...page.items.map((item: { id: string }) => item.id));
      cursor = page.nextCursor;
      pages += 1;
    }
    expect(pages).toBe(4);
    expect(new Set(seen).size).toBe(7);
    expect(seen).toHaveLength(7);
  });

  it.each([
    ['an unknown action', '?action=person.exploded'],
    ['an unknown group', '?action=nothing.'],
    ['an action list with a space', '?action=person.,%20team.'],
    ['a person id of the wrong shape', '?person=alice'],
    ['a date that is no date', '?from=yesterday'],
    ['a date without a time zone', '?from=2026-01-01T00:00:00'],
    ['a period that ends before it starts', '?from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z'],
    ['a forged cursor', `?cursor=${Buffer.from('["x","y"]').toString('base64url')}`],
    ['a cursor of other characters', '?cursor=%27%3B--'],
    ['a limit of 0', '?limit=0'],
    ['a limit over 200', '?limit=201'],
    ['a limit that is no number', '?limit=many'],
    ['an unknown parameter', '?sort=asc'],
    ['oversized words', `?q=${'x'.repeat(201)}`],
  ])('refuses %s with 400', async (_what, query) => {
    const response = await list(quietHeaders, query);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toEqual(expect.any(String));
    if (!query.includes('cursor') && !query.includes('limit')) {
      expect((await exportCsv(quietHeaders, query)).statusCode).toBe(400);
    }
  });

  it('takes hostile words as plain text', async () => {
    for (const q of ["'; DROP TABLE audit_log; --", '<script>alert(1)</script>', '\\']) {
      const response = await list(quietHeaders, `?q=${encodeURIComponent(q)}`);
      expect(response.statusCode).toBe(200);
      expect(response.json().items).toEqual([]);
    }
  });
});

describe('GET /api/admin/audit-log/export', () => {
  it('downloads the filtered log as CSV, newest first, with a header row', async () => {
    const response = await exportCsv(quietHeaders, `?person=${bob.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="audit-log-\d{4}-\d\d-\d\d\.csv"$/,
    );
    const lines = response.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\n');
    expect(lines[0]).toBe(
      'occurred_at,actor_id,actor_name,actor_email,action,target_type,target_id,target_label,ip,user_agent,before,after,details',
    );
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain('share.created');
    expect(lines[2]).toContain('person.disabled');
    expect(lines[2]).toContain(bob.email);
  });

  it('neutralizes cells a spreadsheet would run as formulas', async () => {
    const hostile = await createOrganization(db);
    const admin = await createUser(db, hostile.id, { role: 'admin' });
    const { headers } = await signIn(app, admin);
    await audit.record(db, {
      organizationId: hostile.id,
      actor: { id: null, name: '=HYPERLINK("http://evil.test","x")', email: '@SUM(1)' },
      action: 'sign-in.failed',
      target: { type: 'person', id: admin.id, label: '+1-555' },
      userAgent: '-2+3',
      ip: '\t1',
    });
    const body = (await exportCsv(headers)).body;
    expect(body).toContain(`"'=HYPERLINK(""http://evil.test"",""x"")"`);
    expect(body).toContain(`'@SUM(1)`);
    expect(body).toContain(`'+1-555`);
    expect(body).toContain(`'-2+3`);
    expect(body).toContain(`'\t1`);
    expect(body).not.toMatch(/,=|,\+|,-|,@/);
  });

  it('streams every entry of a large log, across many reads', async () => {
    const big = await createOrganization(db);
    const admin = await createUser(db, big.id, { role: 'admin' });
    const { headers } = await signIn(app, admin);
    await db.execute(
      sql`INSERT INTO audit_log (id, organization_id, occurred_at, action, actor_name)
          SELECT 'bulk' || lpad(n::text, 17, '0'), ${big.id},
                 now() - make_interval(secs => n), 'sign-out', 'Person ' || n
          FROM generate_series(1, 1234) AS n`,
    );
    const response = await exportCsv(headers, '?action=sign-out');
    expect(response.statusCode).toBe(200);
    const lines = response.body.trim().split('\n');
    expect(lines).toHaveLength(1235);
    expect(lines[1]).toContain('Person 1,');
    expect(lines[1234]).toContain('Person 1234,');
  });

  it('prefixes exactly the dangerous first characters', () => {
    expect(['=1', '+1', '-1', '@a', '\tx', '\rx'].map(csvCell)).toEqual([
      "'=1",
      "'+1",
      "'-1",
      "'@a",
      "'\tx",
      "'\rx",
    ]);
    expect(['a=1', '1', '', null, { a: '=1' }].map(csvCell)).toEqual([
      'a=1',
      '1',
      '',
      '',
      '{"a":"=1"}',
    ]);
  });
});

describe('the database keeps the log', () => {
  it('refuses to change an entry', async () => {
    const id = await entryAt(org.id, new Date().toISOString());
    await expect(
      db.execute(sql`UPDATE audit_log SET action = 'sign-in.succeeded' WHERE id = ${id}`),
    ).rejects.toThrow();
    const [row] = await selectRows<{ action: string }>(
      db,
      sql`SELECT action FROM audit_log WHERE id = ${id}`,
    );
    expect(row?.action).toBe('sign-out');
  });

  it('refuses to delete an entry younger than the retention, and to empty the table', async () => {
    const id = await entryAt(org.id, new Date(Date.now() - 364 * 86_400_000).toISOString());
    await expect(db.execute(sql`DELETE FROM audit_log WHERE id = ${id}`)).rejects.toThrow();
    await expect(db.execute(sql`TRUNCATE audit_log`)).rejects.toThrow();
    expect(await exists(id)).toBe(true);
  });

  it('purges only entries past their organization’s retention', async () => {
    const short = await createOrganization(db);
    await db.execute(
      sql`UPDATE organizations SET audit_retention_days = 30 WHERE id = ${short.id}`,
    );
    const day = 86_400_000;
    const ago = (days: number) => new Date(Date.now() - days * day).toISOString();
    const shortOld = await entryAt(short.id, ago(31));
    const shortYoung = await entryAt(short.id, ago(29));
    const longOld = await entryAt(org.id, ago(366));
    const longYoung = await entryAt(org.id, ago(31));
    const orphanOld = await entryAt(null, ago(400));
    const orphanYoung = await entryAt(null, ago(10));

    expect(await audit.purgeExpired()).toBeGreaterThanOrEqual(3);
    expect(await exists(shortOld)).toBe(false);
    expect(await exists(longOld)).toBe(false);
    expect(await exists(orphanOld)).toBe(false);
    expect(await exists(shortYoung)).toBe(true);
    expect(await exists(longYoung)).toBe(true);
    expect(await exists(orphanYoung)).toBe(true);
    // Once more: nothing is left to purge.
    expect(await audit.purgeExpired()).toBe(0);
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
