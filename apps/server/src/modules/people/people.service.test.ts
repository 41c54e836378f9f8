// The people console's rules against the service on the test database: who may use it, what
// each change writes (the rows, the audit entry with its before and after), what it refuses
// and why, and what it answers.
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { selectRows } from '../../db/client.ts';
import { accessTokens, auditLog, invitations, users } from '../../db/schema/index.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { newId } from '../../lib/ids.ts';
import { createTestServices } from '../../../test/app.ts';
import {
  addTeamMember,
  countRows,
  createCollection,
  createLink,
  createOrganization,
  createShare,
  createTeam,
  createUser,
  PASSWORD,
  type TestUser,
} from '../../../test/factories.ts';
import { createPeopleRules } from './people.rules.ts';
import { createPeopleService } from './people.service.ts';
import { refusal } from '../../../test/support/refusal.ts';

const { services, repositories, db, config } = await createTestServices();
const people = services.people;

// İ lowers to "i" in the database and to "i" with a combining dot in JavaScript; a final Σ
// to σ in the database and to ς in JavaScript. Each has a name between the two lowerings.
const NAMES = ['İlkay', 'Ivan', 'Ina', 'ΟΔΥΣΣΕΑΣ', 'οδυσσεας x', 'Zoë'];

describe('the console’s list from its statement', () => {
  it('pages through everyone, in order, one person a page', async () => {
    const org = await createOrganization(db);
    const admin = await createUser(db, org.id, { name: 'Admin', role: 'admin' });
    for (const name of NAMES) await createUser(db, org.id, { name });
    const me: AuthContext = {
      sessionId: null,
      accessTokenId: null,
      userId: admin.id,
      name: 'Admin',
      email: admin.email,
      role: 'admin',
      organizationId: org.id,
      organizationName: 'Org',
      menuScopes: null,
      peopleVersion: null,
      expiresAt: null,
    };
    // No directory: every page comes from the statement.
    const statementOnly = createPeopleService({
      db,
      config,
      people: repositories.people,
      rules: createPeopleRules({ people: repositories.people, audit: services.audit }),
      adminAccess: services.adminAccess,
      audit: services.audit,
      invitations: services.invitations,
      jobs: services.jobs,
      directory: null,
      teams: services.teams,
    });
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 20; pages += 1) {
      const page = await statementOnly.list(me, { limit: 1, ...(cursor ? { cursor } : {}) });
      seen.push(...page.items.map((row) => row.name));
      if (!page.nextCursor) break;
      cursor = page.nextCursor;
    }
    const everyone = await statementOnly.list(me, { limit: 50 });
    expect(everyone.items).toHaveLength(NAMES.length + 1);
    expect(seen).toEqual(everyone.items.map((row) => row.name));
  });
});

// One organization for the rules below: an administrator, a member, two teams, and another
// organization with its own administrator.
const org = await createOrganization(db, { name: 'Acme' });
const otherOrg = await createOrganization(db, { name: 'Elsewhere' });
const team = await createTeam(db, org.id, { name: 'Platform' });
const otherTeam = await createTeam(db, org.id, { name: 'Sales' });
const admin = await createUser(db, org.id, { name: 'Ada Admin', role: 'admin' });
const member = await createUser(db, org.id, { name: 'Mo Member' });
const colleague = await createUser(db, org.id, { name: 'Cole League' });
const teamMember = await createUser(db, org.id, { name: 'Tim Team' });
const teamEditor = await createUser(db, org.id, { name: 'Ed Editor' });
const otherEditor = await createUser(db, org.id, { name: 'Oda Other' });
const outsiderAdmin = await createUser(db, otherOrg.id, { name: 'Out Sider', role: 'admin' });
await addTeamMember(db, team, teamMember.id);
await addTeamMember(db, team, teamEditor.id, 'editor');
await addTeamMember(db, otherTeam, otherEditor.id, 'editor');

const origin = { ip: '10.4.0.1', userAgent: 'Console' };

/** Signs a person in; their session token and the caller the app would make of it. */
async function signIn(person: TestUser) {
  const { token } = await services.auth.startSession(db, person.id, '10.4.0.2', 'Browser');
  const me = await services.auth.authenticate(token);
  if (!me) throw new Error('the session did not authenticate');
  return { token, me };
}
const me = (await signIn(admin)).me;
const outsider = (await signIn(outsiderAdmin)).me;

/** A person signed in with a session and holding an access token. */
async function withSessionAndToken(person: TestUser) {
  const { token, me: them } = await signIn(person);
  const made = await services.accessTokens.create(them, {}, { name: 'script' });
  return { session: token, accessToken: made.token };
}
const works = async (token: string) => (await services.auth.authenticate(token)) !== null;
const signsIn = (email: string, password = PASSWORD) =>
  services.auth
    .login({ email, password, ip: '10.4.0.9', userAgent: undefined })
    .then(() => true)
    .catch(() => false);

const CONFLICT = (message: string) => ({ statusCode: 409, code: 'CONFLICT', message });
const NOT_FOUND = (id: string) => ({
  statusCode: 404,
  code: 'NOT_FOUND',
  message: `Person ${id} was not found`,
});
const LAST_ADMIN = CONFLICT(
  'The organization needs at least one active administrator: make someone else an administrator first.',
);

const row = async (id: string) => (await db.select().from(users).where(eq(users.id, id)))[0];
const entries = (action: string, targetId: string) =>
  db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.targetId, targetId)));
const turnOnSecondFactor = (userId: string) =>
  db.execute(
    sql`INSERT INTO second_factors (user_id, secret, enabled_at) VALUES (${userId}, 'secret', now())`,
  );

describe('who may use the people console', () => {
  /** Every call of the console, each started when asked for. */
  const everyCall = (caller: AuthContext) => [
    () => people.list(caller, {}),
    () => people.get(caller, member.id),
    () => people.invite(caller, { name: 'New', email: 'refused-new@acme.test' }, origin),
    () => people.resendInvitation(caller, member.id, origin),
    () =>
      people.create(
        caller,
        { name: 'X', email: 'refused-x@acme.test', password: 'long enough' },
        origin,
      ),
    () => people.update(caller, member.id, { role: 'admin' }, origin),
    () => people.resetSecondFactor(caller, member.id, origin),
    () => people.signOutEverywhere(caller, member.id, origin),
    () => people.offboarding(caller, member.id),
    () => people.remove(caller, member.id, { collections: 'delete' }, origin),
    () => people.bulk(caller, { ids: [member.id], action: 'disable' }, origin),
  ];

  it.each([
    ['a team editor', teamEditor],
    ['an editor of another team', otherEditor],
    ['a team member', teamMember],
    ['a member', member],
  ])('refuses %s every call with 403, and nothing changes', async (_role, person) => {
    const caller = (await signIn(person)).me;
    const before = { users: await countRows(db, 'users'), audit: await countRows(db, 'audit_log') };
    for (const call of everyCall(caller)) {
      expect(await refusal(call())).toEqual({
        statusCode: 403,
        code: 'FORBIDDEN',
        message: 'Only an administrator of the organization can do that.',
      });
    }
    expect({
      users: await countRows(db, 'users'),
      audit: await countRows(db, 'audit_log'),
    }).toEqual(before);
    expect((await row(member.id))?.role).toBe('member');
  });

  it('shows an administrator of another organization none of this one: 404, nothing changes', async () => {
    const calls = [
      () => people.get(outsider, member.id),
      () => people.update(outsider, member.id, { name: 'Taken over' }, origin),
      () => people.resendInvitation(outsider, member.id, origin),
      () => people.resetSecondFactor(outsider, member.id, origin),
      () => people.signOutEverywhere(outsider, member.id, origin),
      () => people.offboarding(outsider, member.id),
      () => people.remove(outsider, member.id, { collections: 'delete' }, origin),
      () => people.bulk(outsider, { ids: [member.id], action: 'disable' }, origin),
    ];
    for (const call of calls) expect(await refusal(call())).toEqual(NOT_FOUND(member.id));
    expect(await row(member.id)).toMatchObject({ name: 'Mo Member', status: 'active' });
    expect((await people.list(outsider, { q: member.email })).items).toEqual([]);
  });
});

describe('the list', () => {
  it('searches name and e-mail with % _ \\ literal, filters by role and team', async () => {
    await createUser(db, org.id, { name: 'Zed 100% sure', email: 'zed_a@acme.test' });
    await createUser(db, org.id, { name: 'Zed plain', email: 'zedxa@acme.test' });
    await createUser(db, org.id, { name: 'Zed back\\slash', email: 'zed.b@acme.test' });
    const names = async (q: string) =>
      (await people.list(me, { q })).items.map((person) => person.name);
    expect(await names('100%')).toEqual(['Zed 100% sure']);
    expect((await people.list(me, { q: 'zed_' })).items.map((p) => p.email)).toEqual([
      'zed_a@acme.test',
    ]);
    expect(await names('back\\')).toEqual(['Zed back\\slash']);
    const admins = (await people.list(me, { role: 'admin' })).items;
    expect(admins.length).toBeGreaterThan(0);
    expect(admins.every((person) => person.role === 'admin')).toBe(true);
    const ofTeam = (await people.list(me, { team: team.id })).items;
    expect(ofTeam.map((person) => person.id).sort()).toEqual([teamMember.id, teamEditor.id].sort());
    expect(ofTeam.find((person) => person.id === teamEditor.id)).toMatchObject({
      teamCount: 1,
      teams: ['Platform'],
      hasPassword: true,
      hasSso: false,
      secondFactor: false,
    });
  });

  it('pages by cursor through everyone of the organization, in its order', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { items: { id: string }[]; nextCursor: string | null } = await people.list(me, {
        limit: 3,
        ...(cursor ? { cursor } : {}),
      });
      seen.push(...page.items.map((person) => person.id));
      cursor = page.nextCursor;
    } while (cursor);
    const all = await selectRows<{ id: string }>(
      db,
      sql`SELECT id FROM users WHERE organization_id = ${org.id} ORDER BY lower(name), id`,
    );
    expect(seen).toEqual(all.map((person) => person.id));
  });

  it('filters who never signed in, and who signs in by single sign-on', async () => {
    const newcomer = await createUser(db, org.id);
    const returning = await createUser(db, org.id);
    await services.auth.signedIn(db, returning.id);
    const viaSso = await createUser(db, org.id, { password: null });
    await db.execute(
      sql`INSERT INTO identities (id, user_id, provider_id, issuer, subject)
          VALUES (${newId()}, ${viaSso.id}, 'acme', 'https://idp.acme.test', ${viaSso.id})`,
    );
    const never = (await people.list(me, { signIn: 'never', limit: 100 })).items.map((p) => p.id);
    expect(never).toContain(newcomer.id);
    expect(never).not.toContain(returning.id);
    const sso = (await people.list(me, { signIn: 'sso' })).items;
    expect(sso.map((person) => person.id)).toEqual([viaSso.id]);
    expect(sso[0]).toMatchObject({ hasSso: true, hasPassword: false });
  });

  it('refuses a cursor it did not give out: 400', async () => {
    expect(await refusal(people.list(me, { cursor: 'nonsense' }))).toEqual({
      statusCode: 400,
      code: 'VALIDATION_ERROR',
      message: 'The cursor is not one this list gave out.',
    });
  });
});

describe('inviting and creating', () => {
  it('invites: an invited person, a link to hand over (no mail), audited', async () => {
    const sent = await people.invite(
      me,
      { name: ' Ivy Invited ', email: ' ivy@acme.test ' },
      origin,
    );
    expect(sent).toMatchObject({
      mail: 'not-configured',
      mailed: false,
      person: { name: 'Ivy Invited', email: 'ivy@acme.test', status: 'invited', role: 'member' },
    });
    expect(sent.link).toMatch(/^http:\/\/localhost:3000\/#invitation=[\w-]{43}$/);
    const [stored] = await db
      .select()
      .from(invitations)
      .where(eq(invitations.userId, sent.person.id));
    expect(stored).toMatchObject({ createdBy: admin.id, usedAt: null, revokedAt: null });
    expect(sent.link).not.toContain(stored?.tokenHash);
    expect(stored?.expiresAt.toISOString()).toBe(sent.expiresAt);
    expect(await entries('person.invited', sent.person.id)).toMatchObject([
      {
        organizationId: org.id,
        actorId: admin.id,
        ip: '10.4.0.1',
        userAgent: 'Console',
        after: { name: 'Ivy Invited', email: 'ivy@acme.test', role: 'member', status: 'invited' },
        details: { expiresAt: sent.expiresAt },
      },
    ]);
  });

  describe('whether the invitation went by mail (decision 0079)', () => {
    /** The people service with a mail queue that takes mail, or refuses it. */
    function withQueue(takes: boolean) {
      const queued: { to: string; about: unknown }[] = [];
      const service = createPeopleService({
        db,
        config,
        people: repositories.people,
        rules: createPeopleRules({ people: repositories.people, audit: services.audit }),
        adminAccess: services.adminAccess,
        audit: services.audit,
        invitations: services.invitations,
        jobs: {
          mailEnabled: true,
          sendMail: async (message, about) => {
            if (!takes) throw new Error('the queue is away');
            queued.push({ to: message.to, about });
          },
        },
        directory: null,
        teams: services.teams,
      });
      return { service, queued };
    }

    it('says the mail was queued, gives no link, and the page follows what the mail server said', async () => {
      const { service, queued } = withQueue(true);
      const sent = await service.invite(me, { name: 'Quinn', email: 'quinn@acme.test' }, origin);
      expect(sent).toMatchObject({ mail: 'queued', mailed: true, link: null });
      const [stored] = await db
        .select()
        .from(invitations)
        .where(eq(invitations.userId, sent.person.id));
      expect(queued).toEqual([
        { to: 'quinn@acme.test', about: { kind: 'invitation', id: stored!.id } },
      ]);
      expect((await service.get(me, sent.person.id)).invitation).toEqual({
        createdAt: stored!.createdAt.toISOString(),
        expiresAt: sent.expiresAt,
        mail: 'queued',
        mailAt: expect.any(String),
      });
      // The queue's worker tells what became of each try.
      for (const outcome of ['retrying', 'sent'] as const) {
        await services.invitations.mailOutcome(stored!.id, outcome);
        expect((await service.get(me, sent.person.id)).invitation?.mail).toBe(outcome);
      }
      // Sent again: the new invitation's mail is queued, the earlier one's state is gone.
      const again = await service.resendInvitation(me, sent.person.id, origin);
      expect(again).toMatchObject({ mail: 'queued', mailed: true, link: null });
      expect(queued).toHaveLength(2);
      expect((await service.get(me, sent.person.id)).invitation).toMatchObject({
        expiresAt: again.expiresAt,
        mail: 'queued',
      });
    });

    it('hands over the link and says the queue did not take the mail', async () => {
      const { service } = withQueue(false);
      const sent = await service.invite(me, { name: 'Rae', email: 'rae@acme.test' }, origin);
      expect(sent).toMatchObject({ mail: 'not-queued', mailed: false });
      expect(sent.link).toMatch(/#invitation=[\w-]{43}$/);
      // No mail is on its way: the page says so.
      expect((await service.get(me, sent.person.id)).invitation).toMatchObject({
        mail: null,
        mailAt: null,
      });
    });

    it('says no mail is set up, and the page has an invitation without mail; nobody else has one', async () => {
      const sent = await people.invite(me, { name: 'Sam', email: 'sam@acme.test' }, origin);
      expect(sent).toMatchObject({ mail: 'not-configured', mailed: false });
      expect((await people.get(me, sent.person.id)).invitation).toEqual({
        createdAt: expect.any(String),
        expiresAt: sent.expiresAt,
        mail: null,
        mailAt: null,
      });
      expect((await people.get(me, member.id)).invitation).toBeNull();
    });
  });

  it('invites into a team with a role there, in the same transaction, audited', async () => {
    const team = await createTeam(db, org.id);
    const sent = await people.invite(
      me,
      { name: 'Tess Team', email: 'tess@acme.test', team: { id: team.id, role: 'editor' } },
      origin,
    );
    expect(sent.person.teams).toEqual([team.name]);
    const [added] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'team.member-added'), eq(auditLog.targetId, team.id)));
    expect(added).toMatchObject({ actorId: admin.id, after: { role: 'editor' } });
  });

  it('makes nobody when the team of an invitation is not there: 404', async () => {
    const gone = newId();
    const body = { name: 'Nora', email: 'nora@acme.test', team: { id: gone } };
    expect(await refusal(people.invite(me, body, origin))).toMatchObject({ statusCode: 404 });
    expect(await countRows(db, 'users', { column: 'email', value: 'nora@acme.test' })).toBe(0);
  });

  it('refuses an e-mail address anyone has, in any case and any organization: 409', async () => {
    const taken = CONFLICT('Someone already has this e-mail address.');
    const upper = member.email.toUpperCase();
    expect(await refusal(people.invite(me, { name: 'Ivy', email: upper }, origin))).toEqual(taken);
    const elsewhere = { name: 'X', email: outsiderAdmin.email, password: 'long enough' };
    expect(await refusal(people.create(me, elsewhere, origin))).toEqual(taken);
  });

  it('asks an administrator to confirm who they are before making another administrator', async () => {
    const stale = { ...me, recentlyAuthenticated: false };
    const asked = {
      statusCode: 403,
      code: 'REAUTHENTICATION_REQUIRED',
      message: expect.stringMatching(/^To invite an administrator, confirm it's you/),
    };
    const body = { name: 'Boss', email: 'boss@acme.test', role: 'admin' as const };
    expect(await refusal(people.invite(stale, body, origin))).toEqual(asked);
    expect(await countRows(db, 'users', { column: 'email', value: 'boss@acme.test' })).toBe(0);
  });

  it('creates an active person with a password that signs in, audited', async () => {
    const created = await people.create(
      me,
      { name: 'Carl', email: 'carl@acme.test', password: 'a long password' },
      origin,
    );
    expect(created).toMatchObject({
      name: 'Carl',
      email: 'carl@acme.test',
      role: 'member',
      status: 'active',
      hasPassword: true,
      lastSignInAt: null,
    });
    expect(await signsIn('carl@acme.test', 'a long password')).toBe(true);
    expect(await entries('person.created', created.id)).toMatchObject([
      { after: { name: 'Carl', email: 'carl@acme.test', role: 'member', status: 'active' } },
    ]);
  });

  it('stores hostile strings as text', async () => {
    const name = "<script>alert(1)</script>'; DROP TABLE users; --";
    const created = await people.create(
      me,
      { name, email: 'hostile@acme.test', password: 'long enough' },
      origin,
    );
    expect(created.name).toBe(name);
    expect((await row(created.id))?.name).toBe(name);
  });
});

describe('editing', () => {
  it('changes name and e-mail, audited with before and after; a taken e-mail is 409', async () => {
    const person = await createUser(db, org.id, { name: 'Carl', email: 'carl.edit@acme.test' });
    const edited = await people.update(
      me,
      person.id,
      { name: 'Carla', email: 'carla@acme.test' },
      origin,
    );
    expect(edited).toMatchObject({ name: 'Carla', email: 'carla@acme.test' });
    expect(await entries('person.updated', person.id)).toMatchObject([
      {
        before: { name: 'Carl', email: 'carl.edit@acme.test' },
        after: { name: 'Carla', email: 'carla@acme.test' },
      },
    ]);
    expect(await refusal(people.update(me, person.id, { email: member.email }, origin))).toEqual(
      CONFLICT('Someone already has this e-mail address.'),
    );
    // The same values again change nothing and write no entry.
    await people.update(me, person.id, { name: 'Carla' }, origin);
    expect(await entries('person.updated', person.id)).toHaveLength(1);
  });
});

describe('status, sessions and the second factor', () => {
  it('disabling ends sessions and access tokens for good; enabling lets them sign in again', async () => {
    const person = await createUser(db, org.id);
    const { session, accessToken } = await withSessionAndToken(person);
    expect(await works(session)).toBe(true);
    const off = await people.update(me, person.id, { status: 'disabled' }, origin);
    expect(off.status).toBe('disabled');
    expect(await works(session)).toBe(false);
    expect(await works(accessToken)).toBe(false);
    expect(await entries('person.disabled', person.id)).toMatchObject([
      {
        before: { status: 'active' },
        after: { status: 'disabled' },
        details: { sessionsEnded: 1, accessTokensRevoked: 1 },
      },
    ]);
    await people.update(me, person.id, { status: 'active' }, origin);
    expect(await entries('person.enabled', person.id)).toHaveLength(1);
    expect(await signsIn(person.email)).toBe(true);
    // Revoked for good: enabling the person again brings neither back.
    expect(await works(session)).toBe(false);
    expect(await works(accessToken)).toBe(false);
  });

  it('refuses to disable oneself, or an invited person: 409', async () => {
    expect(await refusal(people.update(me, admin.id, { status: 'disabled' }, origin))).toEqual(
      CONFLICT('You cannot disable yourself.'),
    );
    const invited = await createUser(db, org.id, { status: 'invited', password: null });
    expect(await refusal(people.update(me, invited.id, { status: 'disabled' }, origin))).toEqual(
      CONFLICT('An invited person becomes active by accepting their invitation.'),
    );
    expect((await row(invited.id))?.status).toBe('invited');
  });

  it('signs a person out everywhere: sessions and access tokens end, audited', async () => {
    const person = await createUser(db, org.id);
    const { session, accessToken } = await withSessionAndToken(person);
    await people.signOutEverywhere(me, person.id, origin);
    expect(await works(session)).toBe(false);
    expect(await works(accessToken)).toBe(false);
    expect(await entries('sessions.ended-everywhere', person.id)).toMatchObject([
      { details: { ended: 2, sessionsEnded: 1, accessTokensRevoked: 1 } },
    ]);
    // Still active: the password signs in again.
    expect(await signsIn(person.email)).toBe(true);
  });

  it('resetting the second factor ends the sessions opened with it; access tokens go on', async () => {
    const person = await createUser(db, org.id);
    const { session, accessToken } = await withSessionAndToken(person);
    expect(await refusal(people.resetSecondFactor(me, person.id, origin))).toEqual(
      CONFLICT('This person has no second factor to reset.'),
    );
    await turnOnSecondFactor(person.id);
    await people.resetSecondFactor(me, person.id, origin);
    expect(await countRows(db, 'second_factors', { column: 'user_id', value: person.id })).toBe(0);
    expect(await works(session)).toBe(false);
    expect(await works(accessToken)).toBe(true);
    expect(await entries('second-factor.reset', person.id)).toMatchObject([
      { details: { sessionsEnded: 1 } },
    ]);
    // The password alone signs in again.
    expect(await signsIn(person.email)).toBe(true);
  });

  it('asks for a recent sign-in before resetting a second factor', async () => {
    const person = await createUser(db, org.id);
    await turnOnSecondFactor(person.id);
    const stale = { ...me, recentlyAuthenticated: false };
    expect((await refusal(people.resetSecondFactor(stale, person.id, origin))).code).toBe(
      'REAUTHENTICATION_REQUIRED',
    );
    expect(await countRows(db, 'second_factors', { column: 'user_id', value: person.id })).toBe(1);
  });
});

describe('the last active administrator', () => {
  /** An organization of its own, with these administrators signed in. */
  async function organizationOf(admins: number) {
    const o = await createOrganization(db);
    const list = [];
    for (let i = 0; i < admins; i += 1) {
      const person = await createUser(db, o.id, { role: 'admin' });
      list.push({ person, me: (await signIn(person)).me });
    }
    return list;
  }
  const adminCount = async (organizationId: string) =>
    (
      await db
        .select()
        .from(users)
        .where(
          and(
            eq(users.organizationId, organizationId),
            eq(users.role, 'admin'),
            eq(users.status, 'active'),
          ),
        )
    ).length;

  it('cannot be demoted, one by one or in bulk: 409', async () => {
    const [only] = await organizationOf(1);
    const { person, me: them } = only!;
    expect(await refusal(people.update(them, person.id, { role: 'member' }, origin))).toEqual(
      LAST_ADMIN,
    );
    expect(
      await refusal(
        people.bulk(them, { ids: [person.id], action: 'role', role: 'member' }, origin),
      ),
    ).toEqual(LAST_ADMIN);
    expect((await row(person.id))?.role).toBe('admin');
  });

  it('cannot be disabled or deleted by an administrator demoted meanwhile: 409', async () => {
    const [a, b] = await organizationOf(2);
    await people.update(a!.me, b!.person.id, { role: 'member' }, origin);
    // b signed in as an administrator before a demoted them.
    for (const call of [
      () => people.update(b!.me, a!.person.id, { status: 'disabled' }, origin),
      () => people.bulk(b!.me, { ids: [a!.person.id], action: 'disable' }, origin),
      () => people.remove(b!.me, a!.person.id, { collections: 'delete' }, origin),
    ]) {
      expect(await refusal(call())).toEqual(LAST_ADMIN);
    }
    expect(await row(a!.person.id)).toMatchObject({ role: 'admin', status: 'active' });
  });

  it('two administrators demoting each other at the same moment: one wins, the other is 409', async () => {
    const [a, b] = await organizationOf(2);
    const answers = await Promise.allSettled([
      people.update(a!.me, b!.person.id, { role: 'member' }, origin),
      people.update(b!.me, a!.person.id, { role: 'member' }, origin),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual(['fulfilled', 'rejected']);
    const lost = answers.find(
      (answer): answer is PromiseRejectedResult => answer.status === 'rejected',
    );
    expect(await refusal(Promise.reject(lost?.reason))).toEqual(LAST_ADMIN);
    expect(await adminCount(a!.person.organizationId)).toBe(1);
  });
});

describe('bulk actions', () => {
  it('are all or nothing, each id authorized: one of another organization is 404', async () => {
    const p1 = await createUser(db, org.id);
    expect(
      await refusal(people.bulk(me, { ids: [p1.id, outsiderAdmin.id], action: 'disable' }, origin)),
    ).toEqual(NOT_FOUND(outsiderAdmin.id));
    expect((await row(p1.id))?.status).toBe('active');
  });

  it('say how many changed and how many were already so', async () => {
    const p1 = await createUser(db, org.id);
    const p2 = await createUser(db, org.id);
    const invited = await createUser(db, org.id, { status: 'invited', password: null });
    const ids = [p1.id, p2.id];
    expect(await people.bulk(me, { ids, action: 'disable' }, origin)).toEqual({
      action: 'disable',
      changed: 2,
      unchanged: 0,
    });
    expect(await people.bulk(me, { ids, action: 'disable' }, origin)).toEqual({
      action: 'disable',
      changed: 0,
      unchanged: 2,
    });
    // An invited person is left as they are: they become active by accepting.
    expect(await people.bulk(me, { ids: [...ids, invited.id], action: 'enable' }, origin)).toEqual({
      action: 'enable',
      changed: 2,
      unchanged: 1,
    });
    expect((await row(invited.id))?.status).toBe('invited');
    expect(await people.bulk(me, { ids: [p1.id], action: 'role', role: 'admin' }, origin)).toEqual({
      action: 'role',
      changed: 1,
      unchanged: 0,
    });
    expect(await row(p1.id)).toMatchObject({ role: 'admin', status: 'active' });
    expect(await entries('person.role-changed', p1.id)).toMatchObject([
      { before: { role: 'member' }, after: { role: 'admin' } },
    ]);
  });

  it('sign people out, audited one by one', async () => {
    const p1 = await createUser(db, org.id);
    const p2 = await createUser(db, org.id);
    const first = await withSessionAndToken(p1);
    const second = await withSessionAndToken(p2);
    await people.bulk(me, { ids: [p1.id, p2.id], action: 'sign-out' }, origin);
    for (const token of [first.session, first.accessToken, second.session, second.accessToken]) {
      expect(await works(token)).toBe(false);
    }
    // Each entry says what ended, as a single sign-out's does.
    for (const person of [p1, p2]) {
      expect(await entries('sessions.ended-everywhere', person.id)).toMatchObject([
        { details: { ended: 2, sessionsEnded: 1, accessTokensRevoked: 1 } },
      ]);
    }
  });

  it('delete people after the offboarding choice', async () => {
    const p1 = await createUser(db, org.id);
    const p2 = await createUser(db, org.id);
    const answer = await people.bulk(
      me,
      { ids: [p1.id, p2.id], action: 'delete', offboarding: { collections: 'delete' } },
      origin,
    );
    expect(answer).toEqual({ action: 'delete', changed: 2, unchanged: 0 });
    expect(await row(p1.id)).toBeUndefined();
    expect(await row(p2.id)).toBeUndefined();
  });

  it.each([
    ['a change of role without the role', { action: 'role' as const }, 'Choose the role to give.'],
    [
      'a deletion without the offboarding choice',
      { action: 'delete' as const },
      'Say what becomes of their shared collections (offboarding).',
    ],
  ])('refuse %s: 400', async (_case, body, message) => {
    const person = await createUser(db, org.id);
    expect(await refusal(people.bulk(me, { ids: [person.id], ...body }, origin))).toEqual({
      statusCode: 400,
      code: 'VALIDATION_ERROR',
      message,
    });
    expect(await row(person.id)).toBeDefined();
  });
});

describe('offboarding', () => {
  it('previews, then transfers shared collections to a colleague: members stay, links stay', async () => {
    const leaver = await createUser(db, org.id, { name: 'Lea Leaver' });
    const heir = await createUser(db, org.id);
    const shared = await createCollection(db, { user: leaver }, { name: 'Runbooks' });
    const inner = await createCollection(
      db,
      { user: leaver },
      { name: 'Inner', parentId: shared.id },
    );
    const share = await createShare(db, leaver, shared.id, [member.id]);
    const privateOne = await createCollection(db, { user: leaver }, { name: 'Private' });
    // A link the leaver added to someone else's share stays.
    const othersShared = await createCollection(db, { user: colleague }, { name: 'Theirs' });
    await createShare(db, colleague, othersShared.id, [leaver.id]);
    const kept = await createLink(db, othersShared, { createdBy: leaver.id });

    expect(await people.offboarding(me, leaver.id)).toEqual({
      collections: [{ id: shared.id, name: 'Runbooks', memberCount: 1 }],
    });
    await people.remove(me, leaver.id, { collections: 'transfer', transferTo: heir.id }, origin);

    expect(await row(leaver.id)).toBeUndefined();
    const moved = await selectRows<{ id: string; owner_user_id: string; parent_id: string }>(
      db,
      sql`SELECT id, owner_user_id, parent_id FROM collections
          WHERE id IN (${shared.id}, ${inner.id}) ORDER BY name`,
    );
    expect(moved.map((c) => c.owner_user_id)).toEqual([heir.id, heir.id]);
    expect(moved.find((c) => c.id === shared.id)?.parent_id).toBe(heir.rootId);
    const members = await selectRows<{ user_id: string }>(
      db,
      sql`SELECT user_id FROM share_members WHERE share_id = ${share.id}`,
    );
    expect(members.map((m) => m.user_id).sort()).toEqual([member.id, heir.id].sort());
    expect(await countRows(db, 'collections', { column: 'id', value: privateOne.id })).toBe(0);
    expect(await countRows(db, 'links', { column: 'id', value: kept.id })).toBe(1);
    expect(await entries('person.deleted', leaver.id)).toMatchObject([
      {
        actorId: admin.id,
        before: { name: 'Lea Leaver', email: leaver.email, role: 'member', status: 'active' },
        details: {
          sharedCollections: [{ id: shared.id, name: 'Runbooks' }],
          collections: 'transfer',
          transferTo: { id: heir.id, email: heir.email },
        },
      },
    ]);
  });

  it('or deletes them', async () => {
    const leaver = await createUser(db, org.id);
    const shared = await createCollection(db, { user: leaver });
    await createShare(db, leaver, shared.id, [member.id]);
    await people.remove(me, leaver.id, { collections: 'delete' }, origin);
    expect(await countRows(db, 'collections', { column: 'id', value: shared.id })).toBe(0);
    expect(await entries('person.deleted', leaver.id)).toMatchObject([
      { details: { collections: 'delete', transferTo: null } },
    ]);
  });

  it('a deleted person’s sessions and access tokens stop at once', async () => {
    const person = await createUser(db, org.id);
    const { session, accessToken } = await withSessionAndToken(person);
    await people.remove(me, person.id, { collections: 'delete' }, origin);
    expect(await works(session)).toBe(false);
    expect(await works(accessToken)).toBe(false);
    expect(await db.select().from(accessTokens).where(eq(accessTokens.userId, person.id))).toEqual(
      [],
    );
  });

  it.each([
    [
      'deleting oneself',
      () => people.remove(me, admin.id, { collections: 'delete' }, origin),
      CONFLICT('You cannot delete yourself.'),
    ],
    [
      'a transfer without the colleague',
      () => people.remove(me, colleague.id, { collections: 'transfer' }, origin),
      {
        statusCode: 400,
        code: 'VALIDATION_ERROR',
        message: 'Choose the colleague who receives the shared collections.',
      },
    ],
    [
      'a transfer to someone of another organization',
      () =>
        people.remove(
          me,
          colleague.id,
          { collections: 'transfer', transferTo: outsiderAdmin.id },
          origin,
        ),
      {
        statusCode: 404,
        code: 'NOT_FOUND',
        message: `Person ${outsiderAdmin.id} was not found among the active people`,
      },
    ],
    [
      'a transfer to someone deleted with them',
      () =>
        people.bulk(
          me,
          {
            ids: [colleague.id, member.id],
            action: 'delete',
            offboarding: { collections: 'transfer', transferTo: member.id },
          },
          origin,
        ),
      CONFLICT('The colleague who receives the collections cannot be deleted with them.'),
    ],
  ])('refuses %s', async (_case, call, answer) => {
    expect(await refusal(call())).toEqual(answer);
    for (const id of [admin.id, colleague.id, member.id]) expect(await row(id)).toBeDefined();
  });

  it('refuses a transfer to a disabled colleague: 404', async () => {
    const leaver = await createUser(db, org.id);
    const disabled = await createUser(db, org.id, { status: 'disabled' });
    expect(
      (
        await refusal(
          people.remove(
            me,
            leaver.id,
            { collections: 'transfer', transferTo: disabled.id },
            origin,
          ),
        )
      ).statusCode,
    ).toBe(404);
    expect(await row(leaver.id)).toBeDefined();
  });
});
