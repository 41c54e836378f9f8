import { asc, sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { selectRows } from '../../db/client.ts';
import { auditLog, organizations } from '../../db/schema/index.ts';
import { createTestApp } from '../../../test/app.ts';
import { createUser, signIn } from '../../../test/factories.ts';

const { app, db } = await createTestApp({ LOGIN_MAX_PER_ACCOUNT_AND_ADDRESS: '3' });
const issueSetupCode = () => app.services.setup.issueCode();

/** Back to a database without any organization, setup code or throttle count. */
beforeEach(async () => {
  await db.execute(sql`DELETE FROM organizations`);
  await db.execute(sql`DELETE FROM setup_codes`);
  await db.execute(sql`DELETE FROM login_throttle`);
  // Refused setups belong to no organization; the audit log lets them go.
  await db.execute(sql`DELETE FROM audit_log WHERE organization_id IS NULL`);
});

const status = () => app.inject({ method: 'GET', url: '/api/setup' });
const setup = (payload: unknown, headers: Record<string, string> = {}) =>
  app.inject({ method: 'POST', url: '/api/setup', payload: payload as object, headers });

const valid = (setupCode: string) => ({
  organizationName: 'Acme Corporation',
  name: 'Ada Admin',
  email: 'ada@acme.test',
  password: 'a long enough password',
  setupCode,
});

const count = async (table: 'organizations' | 'users' | 'setup_codes') =>
  Number(
    (await selectRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM ${sql.raw(table)}`))[0]
      ?.n,
  );
const actions = async () =>
  (await db.select().from(auditLog).orderBy(asc(auditLog.occurredAt), asc(auditLog.id))).map(
    (row) => row.action,
  );

describe('GET /api/setup', () => {
  it('says setup is needed while no organization exists, and not afterwards', async () => {
    expect((await status()).json()).toEqual({ required: true });
    const code = await issueSetupCode();
    expect((await setup(valid(code!))).statusCode).toBe(201);
    expect((await status()).json()).toEqual({ required: false });
  });
});

// What the first run writes, its code's rules and its races are the setup service's
// (setup.service.test.ts); here, what HTTP shows of them.
describe('POST /api/setup', () => {
  it('answers 201 with a session token that signs the new administrator in', async () => {
    const code = await issueSetupCode();
    const response = await setup(valid(code!), { 'user-agent': 'Setup Browser' });
    expect(response.statusCode).toBe(201);
    const { token } = response.json<{ token: string }>();

    const me = await app.inject({
      method: 'GET',
      url: '/api/auth/sessions/current',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({
      user: { name: 'Ada Admin', email: 'ada@acme.test', role: 'admin' },
      organization: { name: 'Acme Corporation' },
    });
    const menu = await app.inject({
      method: 'GET',
      url: '/api/consumer/menu',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(menu.statusCode).toBe(200);
    // The request's browser is the one the audit log names.
    const agents = await db.select({ userAgent: auditLog.userAgent }).from(auditLog);
    expect(agents).toEqual(Array(3).fill({ userAgent: 'Setup Browser' }));
  });

  it('works once: afterwards it is 409 with a clear message, for anyone', async () => {
    const [first, second] = [await issueSetupCode(), await issueSetupCode()];
    const done = await setup(valid(first!));
    const { token } = done.json<{ token: string }>();
    const org = (await db.select().from(organizations))[0]!;
    const member = await createUser(db, org.id);
    const memberToken = (await signIn(app, member)).token;
    for (const headers of [
      {} as Record<string, string>,
      { authorization: `Bearer ${token}` },
      { authorization: `Bearer ${memberToken}` },
    ]) {
      const again = await setup(
        { ...valid(second!), organizationName: 'Second', email: 'eve@evil.test' },
        headers,
      );
      expect(again.statusCode).toBe(409);
      expect(again.json().message).toMatch(/already set up/);
    }
  });

  it('refuses a wrong code with 403 and a clear message', async () => {
    await issueSetupCode();
    const response = await setup(valid('AAAA-BBBB-CCCC'));
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({
      code: 'FORBIDDEN',
      message: expect.stringMatching(/setup code is not right/),
    });
  });

  it('throttles wrong codes like sign-in: 429 with Retry-After', async () => {
    const code = await issueSetupCode();
    for (let i = 0; i < 3; i += 1) expect((await setup(valid('WRONG'))).statusCode).toBe(403);
    const blocked = await setup(valid(code!));
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
  });

  const long = (n: number) => 'x'.repeat(n);
  // Every refusal says, in words, which field and what to do, and names the field for the
  // form (decision 0078); never the validator's `body.password must NOT …`.
  it.each([
    ['no body', undefined, /body cannot be empty/i, undefined],
    ['an array', [], 'The request needs to be a group of fields.', undefined],
    ['a missing code', { setupCode: undefined }, 'Enter the setup code.', 'setupCode'],
    ['a missing password', { password: undefined }, 'Enter the password.', 'password'],
    ['a number as name', { name: 42 }, "The administrator's name needs to be text.", 'name'],
    ['null as e-mail', { email: null }, 'The e-mail address needs to be text.', 'email'],
    [
      'an unknown property',
      { role: 'admin' },
      'The request has an unknown property "role": leave it out.',
      undefined,
    ],
    [
      'an empty organization name',
      { organizationName: '' },
      "Enter the organization's name.",
      'organizationName',
    ],
    [
      'a blank organization name',
      { organizationName: '   ' },
      "The organization's name cannot be blank: spaces and invisible characters alone are not a name.",
      'organizationName',
    ],
    [
      'a blank name',
      { name: ' \u200b ' },
      "The administrator's name cannot be blank: spaces and invisible characters alone are not a name.",
      'name',
    ],
    [
      'a name with a tab',
      { name: ' \t ' },
      "The administrator's name needs to be one line: tabs and line breaks (U+0009) are not allowed here.",
      'name',
    ],
    [
      'an oversized organization name',
      { organizationName: long(201) },
      "The organization's name can have at most 200 characters: shorten it.",
      'organizationName',
    ],
    [
      'an oversized name',
      { name: long(201) },
      "The administrator's name can have at most 200 characters: shorten it.",
      'name',
    ],
    [
      'a NUL in the name',
      { name: 'Ada\u0000' },
      "The administrator's name cannot contain the control character U+0000.",
      'name',
    ],
    [
      'a line break in the organization name',
      { organizationName: 'A\nB' },
      "The organization's name needs to be one line: tabs and line breaks (U+000A) are not allowed here.",
      'organizationName',
    ],
    [
      'an oversized e-mail',
      { email: `${long(320)}@x.test` },
      'The e-mail address can have at most 320 characters: shorten it.',
      'email',
    ],
    [
      'an e-mail without @',
      { email: 'ada.acme.test' },
      'Enter a valid e-mail address, such as name@example.com.',
      'email',
    ],
    [
      'a NUL in the e-mail',
      { email: 'ada\u0000@acme.test' },
      'The e-mail address cannot contain the control character U+0000.',
      'email',
    ],
    [
      'an e-mail with a space',
      { email: 'ada lovelace@acme.test' },
      'Enter a valid e-mail address, such as name@example.com.',
      'email',
    ],
    [
      'a short password',
      { password: 'short' },
      'The password needs at least 8 characters.',
      'password',
    ],
    [
      'an oversized password',
      { password: long(129) },
      'The password can have at most 128 characters: shorten it.',
      'password',
    ],
    [
      'an oversized code',
      { setupCode: long(65) },
      'The setup code can have at most 64 characters: shorten it.',
      'setupCode',
    ],
  ])('refuses %s with 400 and stores nothing', async (_, change, message, field) => {
    const code = await issueSetupCode();
    const payload =
      change === undefined || Array.isArray(change) ? change : { ...valid(code!), ...change };
    const response = await app.inject({
      method: 'POST',
      url: '/api/setup',
      ...(payload === undefined ? {} : { payload: payload as object }),
      headers: { 'content-type': 'application/json' },
    });
    expect(response.statusCode).toBe(400);
    if (typeof message === 'string') expect(response.json().message).toBe(message);
    else expect(response.json().message).toMatch(message);
    expect(response.json().field).toBe(field);
    expect(await count('organizations')).toBe(0);
    expect(await count('setup_codes')).toBe(1);
    expect(await actions()).toEqual([]);
  });
});
