// The teams of an organization as its administrators run them: who may make each call, what
// each change writes (the rows and the audit entry), what it answers, and what two
// administrators changing one team at once leave behind.
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, collections, links, teamMemberships, teams } from '../../db/schema/index.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { AppError } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { createTestServices } from '../../../test/app.ts';
import {
  addTeamMember,
  createCollection,
  createLink,
  createTeam,
  createUser,
  type TestUser,
} from '../../../test/factories.ts';
import { adminSnapshot } from '../../../test/support/admin-call.ts';
import { createCast } from '../../../test/support/world.ts';
import { callerOf } from '../../../test/support/callers.ts';

const { services, db } = await createTestServices();
const { teams: service } = services;
const cast = await createCast(db);
const ORIGIN = { ip: '10.0.0.1', userAgent: 'Console' };

const admin = callerOf(cast.orgAdmin);

/** A call that must be refused with `status` and a message, changing nothing. */
async function refused(call: () => Promise<unknown>, status: number, message?: string) {
  const before = await adminSnapshot(db);
  const error: unknown = await call().then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).statusCode).toBe(status);
  if (message !== undefined) expect((error as AppError).message).toContain(message);
  expect(await adminSnapshot(db)).toEqual(before);
  return error as AppError;
}

/** The status a call ends with: 200 when it succeeds, the refusal's otherwise. */
const outcome = (call: Promise<unknown>) =>
  call.then(
    () => 200,
    (error: unknown) => (error instanceof AppError ? error.statusCode : String(error)),
  );

const membersOf = async (teamId: string) =>
  (await db.select().from(teamMemberships).where(eq(teamMemberships.teamId, teamId)))
    .map((m) => `${m.userId}:${m.role}`)
    .sort();
const auditOf = (targetId: string, action: string) =>
  db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.targetId, targetId), eq(auditLog.action, action)));
const teamRow = async (id: string) => (await db.select().from(teams).where(eq(teams.id, id)))[0];
const personOf = (p: TestUser) => ({ id: p.id, name: p.name, email: p.email });

/** Every call of the service on one team and one person, as `me`. */
const calls = (teamId: string, userId: string) =>
  [
    ['list', (me: AuthContext) => service.list(me, {})],
    ['create', (me: AuthContext) => service.create(me, ORIGIN, { name: `Team ${newId()}` })],
    ['get', (me: AuthContext) => service.get(me, teamId)],
    ['update', (me: AuthContext) => service.update(me, ORIGIN, teamId, { name: `R ${newId()}` })],
    ['members', (me: AuthContext) => service.members(me, teamId, {})],
    [
      'addMembers',
      (me: AuthContext) => service.addMembers(me, ORIGIN, teamId, { userIds: [userId] }),
    ],
    [
      'setMemberRole',
      (me: AuthContext) => service.setMemberRole(me, ORIGIN, teamId, userId, 'editor'),
    ],
    [
      'removeMembers',
      (me: AuthContext) => service.removeMembers(me, ORIGIN, teamId, { userIds: [userId] }),
    ],
    [
      'remove',
      (me: AuthContext) => service.remove(me, ORIGIN, teamId, { collections: 0, links: 0 }),
    ],
  ] as const;

describe('who may run teams', () => {
  it.each(['teamEditor', 'teamMember', 'colleague'] as const)(
    'refuses %s every call: 403, nothing changed',
    async (role) => {
      const team = await createTeam(db, cast.org.id);
      await addTeamMember(db, team, cast.colleague.id);
      for (const [, call] of calls(team.id, cast.colleague.id)) {
        await refused(
          () => call(callerOf(cast[role])),
          403,
          'Only an administrator of the organization can do that.',
        );
      }
    },
  );

  it("answers another organization's administrator 404 naming the team, for every call on one", async () => {
    const team = await createTeam(db, cast.org.id);
    await addTeamMember(db, team, cast.colleague.id);
    const onTeam = calls(team.id, cast.colleague.id).filter(
      ([name]) => !['list', 'create'].includes(name),
    );
    for (const [, call] of onTeam) {
      await refused(() => call(callerOf(cast.outsider)), 404, team.id);
    }
    const theirs = await service.list(callerOf(cast.outsider), {});
    expect(theirs.items.map((t) => t.id)).not.toContain(team.id);
  });

  it('lets an administrator make every call', async () => {
    const team = await createTeam(db, cast.org.id);
    await addTeamMember(db, team, cast.colleague.id);
    const person = await createUser(db, cast.org.id);
    const answers: unknown[] = [];
    for (const [, call] of calls(team.id, person.id)) answers.push(await call(admin));
    expect(answers).toEqual([
      { items: expect.any(Array), next: null },
      expect.objectContaining({ name: expect.stringMatching(/^Team /), memberCount: 0 }),
      expect.objectContaining({ id: team.id, memberCount: 1 }),
      expect.objectContaining({ id: team.id, name: expect.stringMatching(/^R /) }),
      { items: [expect.objectContaining({ id: cast.colleague.id })], next: null },
      { changed: 1 },
      undefined,
      { changed: 1 },
      undefined,
    ]);
    expect(await teamRow(team.id)).toBeUndefined();
  });
});

describe('creating, listing, renaming', () => {
  it('creates a team under its trimmed name, audited, and answers it with its counts', async () => {
    const name = `Finance ${newId()}`;
    const team = await service.create(admin, ORIGIN, { name: `  ${name} ` });
    expect(team).toEqual({
      id: expect.any(String),
      name,
      memberCount: 0,
      editorCount: 0,
      buddy: null,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      collectionCount: 0,
      linkCount: 0,
    });
    expect(await teamRow(team.id)).toMatchObject({ organizationId: cast.org.id, name });
    expect(await auditOf(team.id, 'team.created')).toEqual([
      expect.objectContaining({
        organizationId: cast.org.id,
        actorId: cast.orgAdmin.id,
        actorName: cast.orgAdmin.name,
        targetType: 'team',
        targetLabel: name,
        ip: ORIGIN.ip,
        userAgent: ORIGIN.userAgent,
        after: { name },
      }),
    ]);
  });

  it('refuses a name another team of the organization has, whatever the case: 409', async () => {
    const team = await createTeam(db, cast.org.id);
    await refused(
      () => service.create(admin, ORIGIN, { name: team.name.toUpperCase() }),
      409,
      `A team named "${team.name.toUpperCase()}" already exists in this organization`,
    );
    // Another organization may have a team of that name.
    const there = await service.create(callerOf(cast.outsider), ORIGIN, { name: team.name });
    expect(there.name).toBe(team.name);
  });

  it('leaves one team when two administrators create one name at once; the other gets 409', async () => {
    const name = `Twin ${newId()}`;
    const outcomes = await Promise.all([
      outcome(service.create(admin, ORIGIN, { name })),
      outcome(service.create(admin, ORIGIN, { name: name.toLowerCase() })),
    ]);
    expect(outcomes.sort()).toEqual([200, 409]);
    const rows = await db.select().from(teams).where(eq(teams.organizationId, cast.org.id));
    expect(rows.filter((t) => t.name.toLowerCase() === name.toLowerCase())).toHaveLength(1);
  });

  it('lists teams by name with their counts and buddy, searched and paged', async () => {
    const tag = newId().replace(/[-_]/g, 'x');
    const a = await createTeam(db, cast.org.id, { name: `${tag} alpha` });
    const b = await createTeam(db, cast.org.id, { name: `${tag} Beta` });
    await createTeam(db, cast.org.id, { name: `${tag} gamma` });
    await addTeamMember(db, a, cast.colleague.id, 'editor');
    await addTeamMember(db, a, cast.member.id);
    await db.update(teams).set({ buddyId: cast.member.id }).where(eq(teams.id, a.id));
    const first = await service.list(admin, { query: tag, limit: 2 });
    expect(first).toEqual({
      items: [
        expect.objectContaining({
          id: a.id,
          memberCount: 2,
          editorCount: 1,
          buddy: personOf(cast.member),
        }),
        expect.objectContaining({ id: b.id, memberCount: 0, editorCount: 0, buddy: null }),
      ],
      next: b.id,
    });
    const second = await service.list(admin, { query: tag, limit: 2, after: b.id });
    expect(second).toEqual({
      items: [expect.objectContaining({ name: `${tag} gamma` })],
      next: null,
    });
    // `%` is a letter, and a NUL from a caller without the request check is dropped.
    expect((await service.list(admin, { query: '%' })).items).toEqual([]);
    const dropped = await service.list(admin, { query: `${tag} al\u0000pha` });
    expect(dropped.items.map((t) => t.id)).toEqual([a.id]);
  });

  it('renames a team, audited with the name before and after', async () => {
    const team = await createTeam(db, cast.org.id);
    const name = `Renamed ${team.id}`;
    const renamed = await service.update(admin, ORIGIN, team.id, { name });
    expect(renamed).toMatchObject({ id: team.id, name });
    expect(await teamRow(team.id)).toMatchObject({ name });
    expect(await auditOf(team.id, 'team.updated')).toEqual([
      expect.objectContaining({ before: { name: team.name }, after: { name }, targetLabel: name }),
    ]);
    // The same name again changes nothing and writes no entry.
    await service.update(admin, ORIGIN, team.id, { name });
    expect(await auditOf(team.id, 'team.updated')).toHaveLength(1);
  });

  it('refuses renaming to the name of another team: 409', async () => {
    const team = await createTeam(db, cast.org.id);
    const other = await createTeam(db, cast.org.id);
    await refused(
      () => service.update(admin, ORIGIN, team.id, { name: other.name.toLowerCase() }),
      409,
      'already exists',
    );
  });

  it('lets one of two administrators renaming two teams to one name at once win; the other gets 409', async () => {
    const one = await createTeam(db, cast.org.id);
    const two = await createTeam(db, cast.org.id);
    const name = `Same ${newId()}`;
    const outcomes = await Promise.all([
      outcome(service.update(admin, ORIGIN, one.id, { name })),
      outcome(service.update(admin, ORIGIN, two.id, { name })),
    ]);
    expect(outcomes.sort()).toEqual([200, 409]);
    const names = [(await teamRow(one.id))!.name, (await teamRow(two.id))!.name];
    expect(names.filter((n) => n === name)).toHaveLength(1);
  });
});

describe('deleting a team', () => {
  it('tells the counts, refuses other counts with 409, then deletes the team and its content, audited', async () => {
    const team = await createTeam(db, cast.org.id);
    await addTeamMember(db, team, cast.colleague.id);
    const top = await createCollection(db, { team });
    const sub = await createCollection(db, { team }, { parentId: top.id });
    await createLink(db, top);
    await createLink(db, sub);
    await createLink(db, sub);
    expect(await service.get(admin, team.id)).toMatchObject({
      collectionCount: 2,
      linkCount: 3,
      memberCount: 1,
    });
    await refused(
      () => service.remove(admin, ORIGIN, team.id, { collections: 2, links: 2 }),
      409,
      `${team.name} now holds 2 collections and 3 links`,
    );
    await service.remove(admin, ORIGIN, team.id, { collections: 2, links: 3 });
    expect(await teamRow(team.id)).toBeUndefined();
    expect(await db.select().from(collections).where(eq(collections.ownerTeamId, team.id))).toEqual(
      [],
    );
    expect(await db.select().from(links).where(eq(links.collectionId, sub.id))).toEqual([]);
    expect(await membersOf(team.id)).toEqual([]);
    expect(await auditOf(team.id, 'team.deleted')).toEqual([
      expect.objectContaining({
        actorId: cast.orgAdmin.id,
        before: { name: team.name, buddyId: null, collections: 2, links: 3 },
      }),
    ]);
    await refused(
      () => service.remove(admin, ORIGIN, team.id, { collections: 0, links: 0 }),
      404,
      `Team ${team.id} was not found`,
    );
  });

  it('ends clearly when one administrator deletes a team while another adds a member', async () => {
    for (let round = 0; round < 4; round += 1) {
      const team = await createTeam(db, cast.org.id);
      const [removal, addition] = await Promise.all([
        outcome(service.remove(admin, ORIGIN, team.id, { collections: 0, links: 0 })),
        outcome(service.addMembers(admin, ORIGIN, team.id, { userIds: [cast.colleague.id] })),
      ]);
      expect(removal).toBe(200);
      expect([200, 404]).toContain(addition);
      expect(await teamRow(team.id)).toBeUndefined();
      expect(await membersOf(team.id)).toEqual([]);
    }
  });
});

describe('members', () => {
  it('adds several at once, invited people too, idempotently, each audited once', async () => {
    const team = await createTeam(db, cast.org.id);
    const invited = await createUser(db, cast.org.id, { password: null, status: 'invited' });
    const ids = [cast.colleague.id, cast.member.id, invited.id];
    expect(await service.addMembers(admin, ORIGIN, team.id, { userIds: ids })).toEqual({
      changed: 3,
    });
    // Again, even as editors: nobody is added and roles stay.
    const again = await service.addMembers(admin, ORIGIN, team.id, {
      userIds: ids,
      role: 'editor',
    });
    expect(again).toEqual({ changed: 0 });
    expect(await membersOf(team.id)).toEqual(ids.map((id) => `${id}:member`).sort());
    const entries = await auditOf(team.id, 'team.member-added');
    expect(entries).toHaveLength(3);
    expect(entries).toContainEqual(
      expect.objectContaining({
        targetLabel: team.name,
        after: { role: 'member' },
        details: { person: personOf(cast.colleague) },
      }),
    );
  });

  it.each([
    [
      'a disabled person',
      async () => (await createUser(db, cast.org.id, { status: 'disabled' })).id,
    ],
    ['an unknown id', async () => newId()],
    ['a person of another organization', async () => cast.outsider.id],
  ])('refuses the whole call for %s: 404 naming the id, nobody added', async (_who, make) => {
    const team = await createTeam(db, cast.org.id);
    const id = await make();
    await refused(
      () => service.addMembers(admin, ORIGIN, team.id, { userIds: [cast.colleague.id, id] }),
      404,
      `Person ${id} was not found`,
    );
  });

  it('lists members by name or e-mail, filtered by role, paged', async () => {
    const team = await createTeam(db, cast.org.id);
    const tag = `m${newId().replace(/[-_]/g, 'x').slice(0, 8)}`;
    const a = await createUser(db, cast.org.id, { name: `${tag} Ann` });
    const b = await createUser(db, cast.org.id, { name: `${tag} Bob` });
    const c = await createUser(db, cast.org.id, { name: 'Carl', email: `${tag}@example.test` });
    for (const u of [a, b, c]) await addTeamMember(db, team, u.id, u === b ? 'editor' : 'member');
    await addTeamMember(db, team, cast.colleague.id);
    const first = await service.members(admin, team.id, { query: tag, limit: 2 });
    expect(first.items.map((m) => m.id)).toEqual([c.id, a.id]);
    expect(first.next).toBe(a.id);
    const second = await service.members(admin, team.id, { query: tag, limit: 2, after: a.id });
    expect(second).toEqual({
      items: [
        {
          ...personOf(b),
          status: 'active',
          role: 'editor',
          addedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
          sources: ['console'],
        },
      ],
      next: null,
    });
    const editors = await service.members(admin, team.id, { role: 'editor' });
    expect(editors.items.map((m) => m.id)).toEqual([b.id]);
  });

  it('makes a member an editor and back, audited; the same role again writes nothing', async () => {
    const team = await createTeam(db, cast.org.id);
    await addTeamMember(db, team, cast.colleague.id);
    await service.setMemberRole(admin, ORIGIN, team.id, cast.colleague.id, 'editor');
    expect(await membersOf(team.id)).toEqual([`${cast.colleague.id}:editor`]);
    await service.setMemberRole(admin, ORIGIN, team.id, cast.colleague.id, 'editor');
    expect(await auditOf(team.id, 'team.member-role-changed')).toEqual([
      expect.objectContaining({
        before: { role: 'member' },
        after: { role: 'editor' },
        details: { person: personOf(cast.colleague) },
      }),
    ]);
    await service.setMemberRole(admin, ORIGIN, team.id, cast.colleague.id, 'member');
    expect(await membersOf(team.id)).toEqual([`${cast.colleague.id}:member`]);
  });

  it('refuses the role of someone who is not in the team: 404 naming them', async () => {
    const team = await createTeam(db, cast.org.id);
    for (const id of [cast.member.id, cast.outsider.id]) {
      await refused(
        () => service.setMemberRole(admin, ORIGIN, team.id, id, 'editor'),
        404,
        `Member ${id} of ${team.name} was not found`,
      );
    }
  });

  it('refuses taking out someone who is not of the organization: 404 naming them', async () => {
    const team = await createTeam(db, cast.org.id);
    await addTeamMember(db, team, cast.colleague.id);
    await refused(
      () =>
        service.removeMembers(admin, ORIGIN, team.id, {
          userIds: [cast.colleague.id, cast.outsider.id],
        }),
      404,
      `Person ${cast.outsider.id} was not found`,
    );
  });

  it('chooses the buddy among members; taking the buddy out clears it', async () => {
    const team = await createTeam(db, cast.org.id);
    await addTeamMember(db, team, cast.colleague.id);
    await refused(
      () => service.update(admin, ORIGIN, team.id, { buddyId: cast.member.id }),
      409,
      `${cast.member.name} is not a member of ${team.name}; add them first.`,
    );
    await refused(
      () => service.update(admin, ORIGIN, team.id, { buddyId: cast.outsider.id }),
      404,
      `Person ${cast.outsider.id} was not found`,
    );
    const chosen = await service.update(admin, ORIGIN, team.id, { buddyId: cast.colleague.id });
    expect(chosen.buddy).toEqual(personOf(cast.colleague));
    const removed = await service.removeMembers(admin, ORIGIN, team.id, {
      userIds: [cast.colleague.id, cast.member.id],
    });
    expect(removed).toEqual({ changed: 1 });
    expect(await teamRow(team.id)).toMatchObject({ buddyId: null });
    expect(await auditOf(team.id, 'team.member-removed')).toEqual([
      expect.objectContaining({
        before: { role: 'member' },
        details: { person: personOf(cast.colleague) },
      }),
    ]);
    expect(await auditOf(team.id, 'team.updated')).toEqual([
      expect.objectContaining({ after: { buddyId: cast.colleague.id } }),
      expect.objectContaining({ before: { buddyId: cast.colleague.id }, after: { buddyId: null } }),
    ]);
    await addTeamMember(db, team, cast.member.id);
    await service.update(admin, ORIGIN, team.id, { buddyId: cast.member.id });
    const cleared = await service.update(admin, ORIGIN, team.id, { buddyId: null });
    expect(cleared.buddy).toBeNull();
  });

  it('never leaves a buddy who is not a member when one administrator chooses them as another takes them out', async () => {
    for (let round = 0; round < 4; round += 1) {
      const team = await createTeam(db, cast.org.id);
      await addTeamMember(db, team, cast.colleague.id);
      const [choose, remove] = await Promise.all([
        outcome(service.update(admin, ORIGIN, team.id, { buddyId: cast.colleague.id })),
        outcome(service.removeMembers(admin, ORIGIN, team.id, { userIds: [cast.colleague.id] })),
      ]);
      expect([200, 409]).toContain(choose);
      expect(remove).toBe(200);
      expect(await membersOf(team.id)).toEqual([]);
      expect(await teamRow(team.id)).toMatchObject({ buddyId: null });
    }
  });
});
