// The first run against the setup service on the test database: the printed setup code, the
// one organization it makes, and what that writes.
import { asc, eq, sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { auditLog, collections, organizations, setupCodes, users } from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';
import { createTestServices } from '../../../test/app.ts';
import { ALREADY_SET_UP } from './setup.service.ts';
import { refusal } from '../../../test/support/refusal.ts';

const { services, db } = await createTestServices({ LOGIN_MAX_PER_ACCOUNT_AND_ADDRESS: '3' });
const setup = services.setup;

/** Back to a database without any organization, setup code or throttle count. */
beforeEach(async () => {
  await db.execute(sql`DELETE FROM organizations`);
  await db.execute(sql`DELETE FROM setup_codes`);
  await db.execute(sql`DELETE FROM login_throttle`);
  // Refused setups belong to no organization; the audit log lets them go.
  await db.execute(sql`DELETE FROM audit_log WHERE organization_id IS NULL`);
});

const origin = { ip: '10.2.0.1', userAgent: 'Setup Browser' };
const valid = (setupCode: string) => ({
  organizationName: 'Acme Corporation',
  name: 'Ada Admin',
  email: 'ada@acme.test',
  password: 'a long enough password',
  setupCode,
});
const issue = async () => {
  const code = await setup.issueCode();
  if (!code) throw new Error('no setup code was issued');
  return code;
};

const WRONG_CODE = {
  statusCode: 403,
  code: 'FORBIDDEN',
  message: expect.stringMatching(/^The setup code is not right, or has expired\./),
};
const SET_UP = { statusCode: 409, code: 'CONFLICT', message: ALREADY_SET_UP };

const count = async (table: 'organizations' | 'users' | 'setup_codes') =>
  Number(
    (
      (await db.execute(sql`SELECT count(*)::int AS n FROM ${sql.raw(table)}`)) as unknown as {
        rows: { n: number }[];
      }
    ).rows[0]?.n,
  );

describe('the setup code', () => {
  it('is printed while no organization exists: a new one at every start, none afterwards', async () => {
    const first = await issue();
    const second = await issue();
    expect(first).toMatch(/^[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}$/);
    expect(second).not.toBe(first);
    // Only hashes are stored, each with its expiry.
    const rows = await db.select().from(setupCodes);
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.codeHash).toMatch(/^[0-9a-f]{64}$/);
      expect(row.expiresAt.getTime()).toBeGreaterThan(Date.now() + 23 * 3600_000);
    }
    expect(await setup.status()).toEqual({ required: true });
    await setup.complete(valid(first), origin);
    expect(await setup.status()).toEqual({ required: false });
    expect(await setup.issueCode()).toBeNull();
  });

  it('at start, clears away the codes that expired', async () => {
    await issue();
    await db.update(setupCodes).set({ expiresAt: sql`now() - interval '1 second'` });
    await issue();
    expect(await count('setup_codes')).toBe(1);
  });

  it('is taken as typed: any printed, unexpired code, in any case and with spaces', async () => {
    const first = await issue();
    await issue();
    const typed = ` ${first.toLowerCase().replace(/-/g, ' ')} `;
    expect(await setup.complete(valid(typed), origin)).toMatch(/^[\w-]{43}$/);
    expect(await count('organizations')).toBe(1);
  });
});

describe('completing the setup', () => {
  it('creates the organization, its administrator with My Space, and signs them in', async () => {
    const token = await setup.complete(valid(await issue()), origin);

    const [org] = await db.select().from(organizations);
    const [admin] = await db.select().from(users);
    expect(org?.name).toBe('Acme Corporation');
    expect(admin).toMatchObject({
      organizationId: org?.id,
      name: 'Ada Admin',
      email: 'ada@acme.test',
      role: 'admin',
      status: 'active',
    });
    // Setting up signs the administrator in: the console's "last sign-in" says so.
    expect(admin?.lastSignInAt).toBeInstanceOf(Date);
    expect(await services.auth.authenticate(token)).toMatchObject({
      userId: admin?.id,
      role: 'admin',
      organizationName: 'Acme Corporation',
    });
    const roots = await db
      .select()
      .from(collections)
      .where(eq(collections.ownerUserId, admin?.id ?? ''));
    expect(roots).toMatchObject([{ isRoot: true, name: 'My Space', ownerType: 'user' }]);
    // Every code goes: none of them may set up anything again.
    expect(await count('setup_codes')).toBe(0);
    // The password signs in too.
    const again = await services.auth.login({
      email: 'ada@acme.test',
      password: 'a long enough password',
      ip: '10.2.0.9',
      userAgent: undefined,
    });
    expect(await services.auth.authenticate(again)).toMatchObject({ userId: admin?.id });
  });

  it('audits the organization, the person and the setup, by the new administrator', async () => {
    await setup.complete(valid(await issue()), origin);
    const [org] = await db.select().from(organizations);
    const [admin] = await db.select().from(users);
    const entries = await db.select().from(auditLog).orderBy(asc(auditLog.action));
    expect(entries.map((entry) => entry.action)).toEqual([
      'organization.created',
      'person.created',
      'setup.completed',
    ]);
    for (const entry of entries) {
      expect(entry).toMatchObject({
        organizationId: org?.id,
        actorId: admin?.id,
        actorEmail: 'ada@acme.test',
        ip: '10.2.0.1',
        userAgent: 'Setup Browser',
        details: { via: 'setup screen' },
      });
    }
    expect(entries[1]).toMatchObject({
      targetType: 'person',
      targetId: admin?.id,
      after: { name: 'Ada Admin', email: 'ada@acme.test', role: 'admin', status: 'active' },
    });
  });

  it('works once: afterwards it is 409, and nothing changes', async () => {
    const [first, second] = [await issue(), await issue()];
    await setup.complete(valid(first), origin);
    const again = { ...valid(second), organizationName: 'Second', email: 'eve@evil.test' };
    expect(await refusal(setup.complete(again, origin))).toEqual(SET_UP);
    expect(await count('organizations')).toBe(1);
    expect(await count('users')).toBe(1);
    expect((await db.select().from(organizations))[0]?.name).toBe('Acme Corporation');
  });

  it('makes one organization when two setups race: the other is 409', async () => {
    const [a, b] = [await issue(), await issue()];
    const answers = await Promise.allSettled([
      setup.complete(valid(a), origin),
      setup.complete({ ...valid(b), organizationName: 'Rival', email: 'rival@acme.test' }, origin),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual(['fulfilled', 'rejected']);
    const lost = answers.find(
      (answer): answer is PromiseRejectedResult => answer.status === 'rejected',
    );
    expect(await refusal(Promise.reject(lost?.reason))).toEqual(SET_UP);
    expect(await count('organizations')).toBe(1);
    expect(await count('users')).toBe(1);
    const completed = await db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'setup.completed'));
    expect(completed).toHaveLength(1);
  });

  it('stores hostile strings as text', async () => {
    const name = `<img src=x onerror=alert(1)> "Ω" '; DROP TABLE users; --`;
    await setup.complete({ ...valid(await issue()), organizationName: name, name }, origin);
    expect((await db.select().from(organizations))[0]?.name).toBe(name);
    expect((await db.select().from(users))[0]?.name).toBe(name);
  });
});

describe('a wrong or expired code', () => {
  it('is refused with 403, audited without an organization, and creates nothing', async () => {
    const code = await issue();
    await db.update(setupCodes).set({ expiresAt: sql`now() - interval '1 second'` });
    for (const attempt of [code, 'AAAA-BBBB-CCCC']) {
      expect(await refusal(setup.complete(valid(attempt), origin))).toEqual(WRONG_CODE);
    }
    expect(await count('organizations')).toBe(0);
    expect(await count('users')).toBe(0);
    const refused = await db.select().from(auditLog).where(eq(auditLog.action, 'setup.refused'));
    expect(refused).toHaveLength(2);
    expect(refused[0]).toMatchObject({
      organizationId: null,
      actorId: null,
      ip: '10.2.0.1',
      userAgent: 'Setup Browser',
      details: { reason: 'wrong or expired setup code' },
    });
    expect(await setup.status()).toEqual({ required: true });
  });

  it('counts like a sign-in: while blocked even the right code is refused, 429 with the wait', async () => {
    const code = await issue();
    for (let i = 0; i < 3; i += 1) {
      expect(await refusal(setup.complete(valid('WRONG'), origin))).toEqual(WRONG_CODE);
    }
    const blocked: unknown = await setup.complete(valid(code), origin).catch((e: unknown) => e);
    expect(blocked).toBeInstanceOf(AppError);
    expect(blocked).toMatchObject({
      statusCode: 429,
      code: 'RATE_LIMITED',
      headers: { 'Retry-After': expect.stringMatching(/^[1-9]\d*$/) },
    });
    expect(await count('organizations')).toBe(0);
    // Once the block is over, the right code sets up.
    await db.execute(sql`DELETE FROM login_throttle`);
    expect(await setup.complete(valid(code), origin)).toMatch(/^[\w-]{43}$/);
  });

  it('forgives the attempt of a right code: it does not count towards a block', async () => {
    const code = await issue();
    for (let i = 0; i < 2; i += 1) await refusal(setup.complete(valid('WRONG'), origin));
    await setup.complete(valid(code), origin);
    const rows = (await db.execute(
      sql`SELECT key, failures FROM login_throttle ORDER BY key`,
    )) as unknown as { rows: { key: string; failures: number }[] };
    expect(rows.rows).toEqual([
      { key: 'setup:any', failures: 2 },
      { key: 'setup:ip:10.2.0.1', failures: 2 },
    ]);
  });
});
