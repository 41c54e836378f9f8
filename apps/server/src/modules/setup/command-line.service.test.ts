// The administration commands (`npm run admin`) against their service on the test database:
// what each one writes, what it answers, and what it refuses. The command line is the actor
// of its audit entries, and changes people by the console's rules.
import { and, eq, isNull } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  accessTokens,
  auditLog,
  collections,
  organizations,
  setupCodes,
  users,
} from '../../db/schema/index.ts';
import { createTestServices } from '../../../test/app.ts';
import {
  createOrganization,
  createUser,
  PASSWORD,
  type TestUser,
} from '../../../test/factories.ts';
import { ALREADY_SET_UP } from './setup.service.ts';
import { refusal } from '../../../test/support/refusal.ts';

// The first describe needs a database without any organization: nothing is made up here.
const { services, db } = await createTestServices();
const commandLine = services.commandLine;

/** The command line as the actor of an entry, with what it always says in its details. */
const BY_COMMAND_LINE = { actorId: null, actorName: 'command line', actorEmail: null };

const entriesOf = (targetId: string, action: string) =>
  db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.targetId, targetId), eq(auditLog.action, action)));

/** A person with a live session and a live access token. */
async function signedInWithToken(person: TestUser) {
  const { token } = await services.auth.startSession(db, person.id, '10.3.0.1', 'Browser');
  const me = await services.auth.authenticate(token);
  if (!me) throw new Error('the session did not authenticate');
  const made = await services.accessTokens.create(me, {}, { name: 'script' });
  return { session: token, accessToken: made.token };
}
const stillWorks = async (token: string) => (await services.auth.authenticate(token)) !== null;
const signsInWith = (email: string, password: string) =>
  services.auth
    .login({ email, password, ip: '10.3.0.9', userAgent: undefined })
    .then(() => true)
    .catch(() => false);

describe('create-organization', () => {
  const input = {
    organizationName: 'Acme',
    name: 'Ada Admin',
    email: ' ada@acme.test ',
    password: 'a long enough password',
  };

  it('refuses input the setup screen would refuse, creating nothing', async () => {
    expect(
      await refusal(commandLine.createOrganization({ ...input, email: 'no at sign' })),
    ).toEqual({
      statusCode: 400,
      code: 'VALIDATION_ERROR',
      message: 'Enter a valid e-mail address, such as name@example.com.',
    });
    expect(await db.select().from(organizations)).toEqual([]);
  });

  it('creates the first organization and its administrator, audited as the command line', async () => {
    await services.setup.issueCode();
    expect(await commandLine.createOrganization(input)).toBe(
      'Created the organization "Acme" with the administrator ada@acme.test. They can sign in now.',
    );
    const [org] = await db.select().from(organizations);
    const [admin] = await db.select().from(users);
    expect(admin).toMatchObject({
      organizationId: org?.id,
      email: 'ada@acme.test',
      role: 'admin',
      status: 'active',
      lastSignInAt: null,
    });
    expect(
      await db
        .select()
        .from(collections)
        .where(eq(collections.ownerUserId, admin?.id ?? '')),
    ).toMatchObject([{ isRoot: true, name: 'My Space' }]);
    // The printed codes go with it.
    expect(await db.select().from(setupCodes)).toEqual([]);
    const entries = await db.select().from(auditLog).where(eq(auditLog.organizationId, org!.id));
    expect(entries.map((entry) => entry.action).sort()).toEqual([
      'organization.created',
      'person.created',
      'setup.completed',
    ]);
    for (const entry of entries) {
      expect(entry).toMatchObject({ ...BY_COMMAND_LINE, details: { via: 'command line' } });
    }
    expect(await signsInWith('ada@acme.test', 'a long enough password')).toBe(true);
  });

  it('refuses a second organization: 409', async () => {
    expect(
      await refusal(commandLine.createOrganization({ ...input, email: 'eve@acme.test' })),
    ).toEqual({ statusCode: 409, code: 'CONFLICT', message: ALREADY_SET_UP });
    expect(await db.select().from(organizations)).toHaveLength(1);
  });
});

describe('reset-password', () => {
  it('sets the password, ends every session and access token, and audits how many', async () => {
    const org = await createOrganization(db);
    const person = await createUser(db, org.id);
    const { session, accessToken } = await signedInWithToken(person);

    expect(
      await commandLine.resetPassword(person.email.toUpperCase(), 'a brand new password'),
    ).toBe(`Set a new password for ${person.email}, ended 1 session and revoked 1 access token.`);
    expect(await stillWorks(session)).toBe(false);
    expect(await stillWorks(accessToken)).toBe(false);
    expect(await signsInWith(person.email, PASSWORD)).toBe(false);
    expect(await signsInWith(person.email, 'a brand new password')).toBe(true);
    expect(await entriesOf(person.id, 'password.reset')).toMatchObject([
      {
        ...BY_COMMAND_LINE,
        organizationId: org.id,
        targetLabel: person.email,
        before: null,
        after: null,
        details: { via: 'command line', sessionsEnded: 1, accessTokensRevoked: 1 },
      },
    ]);
  });

  it('makes an invited person active, and says so in the entry', async () => {
    const org = await createOrganization(db);
    const person = await createUser(db, org.id, { status: 'invited', password: null });
    expect(await commandLine.resetPassword(person.email, 'a brand new password')).toBe(
      `Set a new password for ${person.email}, ended 0 sessions and revoked 0 access tokens.`,
    );
    const [row] = await db.select().from(users).where(eq(users.id, person.id));
    expect(row?.status).toBe('active');
    expect(await entriesOf(person.id, 'password.reset')).toMatchObject([
      { before: { status: 'invited' }, after: { status: 'active' } },
    ]);
  });

  it('leaves a disabled person disabled, and says they cannot sign in', async () => {
    const org = await createOrganization(db);
    const person = await createUser(db, org.id, { status: 'disabled' });
    expect(await commandLine.resetPassword(person.email, 'a brand new password')).toMatch(
      /They are disabled and cannot sign in\.$/,
    );
    const [row] = await db.select().from(users).where(eq(users.id, person.id));
    expect(row?.status).toBe('disabled');
  });

  it.each([
    [
      'an unknown e-mail address',
      'nobody@acme.test',
      'a brand new password',
      404,
      'NOT_FOUND',
      'Nobody has the e-mail address nobody@acme.test.',
    ],
    [
      'an address that is none',
      'nobody',
      'a brand new password',
      400,
      'VALIDATION_ERROR',
      'Enter a valid e-mail address, such as name@example.com.',
    ],
    [
      'a short password',
      'nobody@acme.test',
      'short',
      400,
      'VALIDATION_ERROR',
      expect.stringMatching(/^The password needs \d+ to \d+ characters\.$/),
    ],
  ])('refuses %s', async (_case, email, password, statusCode, code, message) => {
    expect(await refusal(commandLine.resetPassword(email, password))).toEqual({
      statusCode,
      code,
      message,
    });
  });
});

describe('make-admin', () => {
  it('makes a member an administrator, audited as the console’s change of role', async () => {
    const org = await createOrganization(db);
    const person = await createUser(db, org.id);
    expect(await commandLine.makeAdmin(person.email)).toBe(
      `${person.email} is now an administrator.`,
    );
    const [row] = await db.select().from(users).where(eq(users.id, person.id));
    expect(row?.role).toBe('admin');
    expect(await entriesOf(person.id, 'person.role-changed')).toMatchObject([
      {
        ...BY_COMMAND_LINE,
        organizationId: org.id,
        before: { role: 'member' },
        after: { role: 'admin' },
        details: { via: 'command line' },
      },
    ]);
  });

  it('says so of an administrator, changing nothing', async () => {
    const org = await createOrganization(db);
    const person = await createUser(db, org.id, { role: 'admin' });
    expect(await commandLine.makeAdmin(person.email)).toBe(
      `${person.email} is already an administrator.`,
    );
    expect(await entriesOf(person.id, 'person.role-changed')).toEqual([]);
  });
});

describe('disable', () => {
  it('disables a person: their sessions and access tokens end for good, audited', async () => {
    const org = await createOrganization(db);
    const person = await createUser(db, org.id);
    const { session, accessToken } = await signedInWithToken(person);
    expect(await commandLine.disable(person.email)).toBe(
      `${person.email} is disabled; their sessions and access tokens no longer work.`,
    );
    expect(await stillWorks(session)).toBe(false);
    expect(await stillWorks(accessToken)).toBe(false);
    const live = await db
      .select()
      .from(accessTokens)
      .where(and(eq(accessTokens.userId, person.id), isNull(accessTokens.revokedAt)));
    expect(live).toEqual([]);
    expect(await entriesOf(person.id, 'person.disabled')).toMatchObject([
      {
        ...BY_COMMAND_LINE,
        before: { status: 'active' },
        after: { status: 'disabled' },
        details: { via: 'command line', sessionsEnded: 1, accessTokensRevoked: 1 },
      },
    ]);
    expect(await commandLine.disable(person.email)).toBe(`${person.email} is already disabled.`);
  });

  it('refuses the last active administrator, naming them: 409', async () => {
    const org = await createOrganization(db);
    const only = await createUser(db, org.id, { role: 'admin' });
    await createUser(db, org.id, { role: 'admin', status: 'disabled' });
    expect(await refusal(commandLine.disable(only.email))).toEqual({
      statusCode: 409,
      code: 'CONFLICT',
      message: `${only.email} is the last active administrator; make someone else an administrator first.`,
    });
    const [row] = await db.select().from(users).where(eq(users.id, only.id));
    expect(row?.status).toBe('active');
  });

  it('refuses an invited person, as the console does: 409', async () => {
    const org = await createOrganization(db);
    const invited = await createUser(db, org.id, { status: 'invited', password: null });
    expect(await refusal(commandLine.disable(invited.email))).toEqual({
      statusCode: 409,
      code: 'CONFLICT',
      message: 'An invited person becomes active by accepting their invitation.',
    });
    const [row] = await db.select().from(users).where(eq(users.id, invited.id));
    expect(row?.status).toBe('invited');
  });
});
