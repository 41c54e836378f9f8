// The audit log for administrators: who may read it, its filters and pages, the CSV export,
// the retention, and the database's refusal to change or delete entries before their time
// (decision 0045).
import type { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { AuditLogQuery } from '@signpost/contract';
import { selectRows } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { createTestServices } from '../../../test/app.ts';
import { createOrganization, createUser } from '../../../test/factories.ts';
import { createCast } from '../../../test/support/world.ts';
import { csvCell } from './audit.service.ts';
import { callerOf } from '../../../test/support/callers.ts';

const { services, db } = await createTestServices();
const { audit } = services;
const cast = await createCast(db);

/** The whole text of a CSV download, without its byte order mark. */
async function read(csv: Readable): Promise<string> {
  let text = '';
  for await (const chunk of csv) text += String(chunk);
  return text.replace(/^\uFEFF/, '');
}

/** An entry as the services write it, in the cast's organization unless told. */
async function entry(overrides: Partial<Parameters<typeof audit.record>[1]> = {}) {
  await audit.record(db, {
    organizationId: cast.org.id,
    actor: { id: cast.orgAdmin.id, name: cast.orgAdmin.name, email: cast.orgAdmin.email },
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
const count = async () =>
  (await selectRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM audit_log`))[0]!.n;

/** A call that must be refused with `status` (and this message). */
async function refused(call: () => unknown, status: number, message?: string) {
  const error: unknown = await Promise.resolve()
    .then(call)
    .then(
      () => null,
      (thrown: unknown) => thrown,
    );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).statusCode).toBe(status);
  if (message !== undefined) expect((error as AppError).message).toBe(message);
}

// A dedicated organization whose log only these tests write to, with five entries in January.
const quiet = await createOrganization(db);
const quietAdmin = await createUser(db, quiet.id, { role: 'admin' });
const alice = await createUser(db, quiet.id, { name: 'Alice Martin' });
const bob = await createUser(db, quiet.id, { name: 'Bob Stone' });
const me = callerOf(quietAdmin);
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

describe('who may read the log', () => {
  it.each(['teamEditor', 'teamMember', 'member', 'colleague'] as const)(
    'refuses %s the list and the export: 403',
    async (role) => {
      const message = 'Only an administrator of the organization can do that.';
      await refused(() => audit.list(callerOf(cast[role]), {}), 403, message);
      await refused(() => audit.exportCsv(callerOf(cast[role]), {}), 403, message);
    },
  );

  it('shows an administrator their organization’s entries, and one of another organization only theirs', async () => {
    await entry({ action: 'team.deleted' });
    const own = await audit.list(callerOf(cast.orgAdmin), {});
    expect(own.items.map((item) => item.action)).toContain('team.deleted');
    const outsider = callerOf(cast.outsider);
    const theirs = await audit.list(outsider, {});
    expect(theirs.items.map((item) => item.action)).not.toContain('team.deleted');
    expect(await read(audit.exportCsv(outsider, {}))).not.toContain('team.deleted');
  });

  it('adds nothing to the log by reading it, or by refusing to', async () => {
    const before = await count();
    await audit.list(callerOf(cast.orgAdmin), {});
    await read(audit.exportCsv(callerOf(cast.orgAdmin), {}));
    await refused(() => audit.list(callerOf(cast.member), {}), 403);
    expect(await count()).toBe(before);
  });
});

describe('the list: filters and pages', () => {
  // The seeded entries are in January.
  const actions = async (query: AuditLogQuery) => {
    const page = await audit.list(me, { to: '2026-02-01T00:00:00Z', ...query });
    return page.items.map((item) => item.action);
  };

  it('lists newest first with who, what, where and the values changed', async () => {
    expect(await audit.list(me, { person: alice.id, action: 'person.' })).toEqual({
      items: [
        {
          id: expect.any(String),
          occurredAt: '2026-01-03T12:00:00.000Z',
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
    expect(await actions({})).toEqual(seeded.map((row) => row.action).reverse());
  });

  it('filters by person as actor or target, by actions and groups, by dates and words', async () => {
    expect(await actions({ person: alice.id })).toEqual([
      'person.role-changed',
      'sign-in.succeeded',
    ]);
    expect(await actions({ person: bob.id })).toEqual(['share.created', 'person.disabled']);
    expect(await actions({ action: 'person.' })).toEqual([
      'person.role-changed',
      'person.disabled',
    ]);
    expect(await actions({ action: 'team.created,sign-in.' })).toEqual([
      'team.created',
      'sign-in.succeeded',
    ]);
    expect(await actions({ from: '2026-01-02T00:00:00Z', to: '2026-01-04T00:00:00Z' })).toEqual([
      'person.role-changed',
      'person.disabled',
    ]);
    expect(await actions({ q: 'STONE' })).toEqual(['share.created']);
    expect(await actions({ q: bob.email.toUpperCase() })).toEqual([
      'share.created',
      'person.disabled',
    ]);
    expect(await actions({ q: alice.email.slice(0, 8) })).toContain('person.role-changed');
    // Blank words filter nothing; wildcards are letters.
    expect(await actions({ q: '   ' })).toHaveLength(seeded.length);
    expect(await actions({ q: '%' })).toEqual([]);
    expect(await actions({ q: 'Alice Martin' })).not.toEqual([]);
    expect(await actions({ q: 'Alice_Martin' })).toEqual([]);
  });

  it('takes hostile words as plain text', async () => {
    for (const q of ["'; DROP TABLE audit_log; --", '<script>alert(1)</script>', '\\']) {
      expect((await audit.list(me, { q })).items).toEqual([]);
    }
  });

  it('pages with a cursor, entries at the same instant included, none twice', async () => {
    const many = await createOrganization(db);
    const admin = callerOf(await createUser(db, many.id, { role: 'admin' }));
    // Seven entries, three of them at the very same instant.
    for (let i = 0; i < 4; i += 1) await entryAt(many.id, `2026-02-0${i + 1}T00:00:00Z`);
    for (let i = 0; i < 3; i += 1) await entryAt(many.id, '2026-03-01T00:00:00.123456Z');
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await audit.list(admin, {
        action: 'sign-out',
        limit: 2,
        ...(cursor ? { cursor } : {}),
      });
      seen.push(...page.items.map((item) => item.id));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor !== null);
    expect(pages).toBe(4);
    expect(new Set(seen).size).toBe(7);
    expect(seen).toHaveLength(7);
  });

  it.each([
    [
      'an unknown action',
      { action: 'person.exploded' },
      'There is no action or group of actions called "person.exploded".',
    ],
    [
      'an unknown group',
      { action: 'nothing.' },
      'There is no action or group of actions called "nothing.".',
    ],
    [
      'a period that ends before it starts',
      { from: '2026-02-01T00:00:00Z', to: '2026-01-01T00:00:00Z' },
      'The start of the period is after its end.',
    ],
  ])('refuses %s in the list and the export: 400', async (_what, query, message) => {
    await refused(() => audit.list(me, query), 400, message);
    await refused(() => audit.exportCsv(me, query), 400, message);
  });

  it.each([
    ['of another shape', Buffer.from('["x","y"]').toString('base64url')],
    ['that is no JSON', Buffer.from('not json').toString('base64url')],
    ['of three parts', Buffer.from('["2026-01-01 00:00:00+00","abc","x"]').toString('base64url')],
  ])('refuses a cursor %s: 400', async (_what, cursor) => {
    await refused(
      () => audit.list(me, { cursor }),
      400,
      'The cursor is not one this list gave out.',
    );
  });
});

describe('the CSV export', () => {
  it('holds the filtered log, newest first, under a header row', async () => {
    const lines = (await read(audit.exportCsv(me, { person: bob.id }))).trim().split('\n');
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
    await audit.record(db, {
      organizationId: hostile.id,
      actor: { id: null, name: '=HYPERLINK("http://evil.test","x")', email: '@SUM(1)' },
      action: 'sign-in.failed',
      target: { type: 'person', id: admin.id, label: '+1-555' },
      userAgent: '-2+3',
      ip: '\t1',
    });
    const body = await read(audit.exportCsv(callerOf(admin), {}));
    expect(body).toContain(`"'=HYPERLINK(""http://evil.test"",""x"")"`);
    expect(body).toContain(`'@SUM(1)`);
    expect(body).toContain(`'+1-555`);
    expect(body).toContain(`'-2+3`);
    expect(body).toContain(`'\t1`);
    expect(body).not.toMatch(/,=|,\+|,-|,@/);
  });

  it('holds every entry of a large log, read a page at a time', async () => {
    const big = await createOrganization(db);
    const admin = await createUser(db, big.id, { role: 'admin' });
    await db.execute(
      sql`INSERT INTO audit_log (id, organization_id, occurred_at, action, actor_name)
          SELECT 'bulk' || lpad(n::text, 17, '0'), ${big.id},
                 now() - make_interval(secs => n), 'sign-out', 'Person ' || n
          FROM generate_series(1, 1234) AS n`,
    );
    const lines = (await read(audit.exportCsv(callerOf(admin), { action: 'sign-out' })))
      .trim()
      .split('\n');
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
    const id = await entryAt(cast.org.id, new Date().toISOString());
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
    const id = await entryAt(cast.org.id, new Date(Date.now() - 364 * 86_400_000).toISOString());
    await expect(db.execute(sql`DELETE FROM audit_log WHERE id = ${id}`)).rejects.toThrow();
    await expect(db.execute(sql`TRUNCATE audit_log`)).rejects.toThrow();
    expect(await exists(id)).toBe(true);
  });

  it('purges only entries past their organization’s retention, and entries of none after a year', async () => {
    const short = await createOrganization(db);
    await db.execute(
      sql`UPDATE organizations SET audit_retention_days = 30 WHERE id = ${short.id}`,
    );
    const day = 86_400_000;
    const ago = (days: number) => new Date(Date.now() - days * day).toISOString();
    const shortOld = await entryAt(short.id, ago(31));
    const shortYoung = await entryAt(short.id, ago(29));
    const longOld = await entryAt(cast.org.id, ago(366));
    const longYoung = await entryAt(cast.org.id, ago(31));
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
