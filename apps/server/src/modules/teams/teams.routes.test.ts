import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  auditLog,
  collections,
  links,
  teamMemberships,
  teams,
  users,
} from '../../db/schema/index.ts';
import { newId } from '../../lib/ids.ts';
import { createTestApp } from '../../../test/app.ts';
import {
  addTeamMember,
  createCollection,
  createLink,
  createTeam,
  createUser,
} from '../../../test/factories.ts';
import { adminCall, expectAdminRefused } from '../../../test/support/admin-call.ts';
import { createPerson, createSignedInCast, type Role } from '../../../test/support/world.ts';

const { app, db } = await createTestApp();
const cast = await createSignedInCast(app, db);
const disabled = await createPerson(app, db, cast.org.id, 'admin');
await db.update(users).set({ status: 'disabled' }).where(eq(users.id, disabled.id));

type Who = Role | 'disabled' | null;
const as = (who: Who) => (who === 'disabled' ? disabled : who ? cast[who] : null);
const send = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, who: Who, body?: unknown) =>
  adminCall(app, method, url, as(who), body);

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

describe('permission table of /api/admin/teams', () => {
  const calls = (teamId: string, userId: string) =>
    [
      ['GET', `/teams`, undefined],
      ['POST', `/teams`, { name: `Perm ${newId()}` }],
      ['GET', `/teams/${teamId}`, undefined],
      ['PATCH', `/teams/${teamId}`, { name: `Renamed ${newId()}` }],
      ['DELETE', `/teams/${teamId}?collections=0&links=0`, undefined],
      ['GET', `/teams/${teamId}/members`, undefined],
      ['POST', `/teams/${teamId}/members`, { userIds: [userId] }],
      ['POST', `/teams/${teamId}/members/remove`, { userIds: [userId] }],
      ['PATCH', `/teams/${teamId}/members/${userId}`, { role: 'editor' }],
    ] as const;

  const refusals: [Who, number][] = [
    [null, 401],
    ['disabled', 401],
    ['teamEditor', 403],
    ['teamMember', 403],
    ['colleague', 403],
  ];
  it.each(refusals)('%s is refused every call with %i and nothing changes', async (who, status) => {
    const team = await createTeam(db, cast.org.id);
    await addTeamMember(db, team, cast.colleague.id);
    for (const [method, url, body] of calls(team.id, cast.colleague.id)) {
      await expectAdminRefused(db, () => send(method, url, who, body), status);
    }
  });

  it("another organization's administrator gets 404 for this organization's teams", async () => {
    const team = await createTeam(db, cast.org.id);
    await addTeamMember(db, team, cast.colleague.id);
    for (const [method, url, body] of calls(team.id, cast.colleague.id).slice(2)) {
      const answer = await expectAdminRefused(db, () => send(method, url, 'outsider', body), 404);
      expect(answer.message).toContain(team.id);
    }
  });

  it('an administrator may make every call', async () => {
    const team = await createTeam(db, cast.org.id);
    await addTeamMember(db, team, cast.colleague.id);
    const statuses = [];
    for (const [method, url, body] of calls(team.id, cast.colleague.id)) {
      statuses.push((await send(method, url, 'orgAdmin', body)).statusCode);
    }
    expect(statuses).toEqual([200, 201, 200, 200, 204, 404, 404, 404, 404]);
  });
});

describe('creating, listing, renaming', () => {
  it('creates a team, names unique whatever the case, audited', async () => {
    const name = `Finance ${newId()}`;
    const created = await send('POST', '/teams', 'orgAdmin', { name: `  ${name} ` });
    expect(created.statusCode).toBe(201);
    const team = created.json();
    expect(team).toMatchObject({
      name,
      memberCount: 0,
      buddy: null,
      collectionCount: 0,
      linkCount: 0,
    });
    expect(await teamRow(team.id)).toMatchObject({ organizationId: cast.org.id, name });
    expect(await auditOf(team.id, 'team.created')).toEqual([
      expect.objectContaining({ actorId: cast.orgAdmin.id, after: { name } }),
    ]);
    const again = await expectAdminRefused(
      db,
      () => send('POST', '/teams', 'orgAdmin', { name: name.toUpperCase() }),
      409,
    );
    expect(again.message).toContain('already exists');
  });

  it('lists teams by name with counts, searched and paged', async () => {
    const tag = newId().replace(/[-_]/g, 'x');
    const a = await createTeam(db, cast.org.id, { name: `${tag} alpha` });
    const b = await createTeam(db, cast.org.id, { name: `${tag} Beta` });
    await createTeam(db, cast.org.id, { name: `${tag} gamma` });
    await addTeamMember(db, a, cast.colleague.id, 'editor');
    await addTeamMember(db, a, cast.member.id);
    await db.update(teams).set({ buddyId: cast.member.id }).where(eq(teams.id, a.id));
    const first = await send('GET', `/teams?query=${tag}&limit=2`, 'orgAdmin');
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({
      items: [
        expect.objectContaining({
          id: a.id,
          memberCount: 2,
          editorCount: 1,
          buddy: { id: cast.member.id, name: cast.member.name, email: cast.member.email },
        }),
        expect.objectContaining({ id: b.id, memberCount: 0 }),
      ],
      next: b.id,
    });
    const second = await send('GET', `/teams?query=${tag}&limit=2&after=${b.id}`, 'orgAdmin');
    expect(second.json()).toEqual({
      items: [expect.objectContaining({ name: `${tag} gamma` })],
      next: null,
    });
    const none = await send('GET', `/teams?query=${encodeURIComponent('%')}`, 'orgAdmin');
    expect(none.json().items).toEqual([]);
  });

  it('renames, refusing a name another team has', async () => {
    const team = await createTeam(db, cast.org.id);
    const other = await createTeam(db, cast.org.id);
    const renamed = await send('PATCH', `/teams/${team.id}`, 'orgAdmin', {
      name: 'Renamed team' + team.id,
    });
    expect(renamed.statusCode).toBe(200);
    expect(await auditOf(team.id, 'team.updated')).toEqual([
      expect.objectContaining({
        before: { name: team.name },
        after: { name: 'Renamed team' + team.id },
      }),
    ]);
    await expectAdminRefused(
      db,
      () => send('PATCH', `/teams/${team.id}`, 'orgAdmin', { name: other.name.toLowerCase() }),
      409,
    );
  });

  it('two administrators renaming two teams to one name at once: one wins, the other 409', async () => {
    const one = await createTeam(db, cast.org.id);
    const two = await createTeam(db, cast.org.id);
    const name = `Same ${newId()}`;
    const answers = await Promise.all([
      send('PATCH', `/teams/${one.id}`, 'orgAdmin', { name }),
      send('PATCH', `/teams/${two.id}`, 'orgAdmin', { name }),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    const names = [(await teamRow(one.id))!.name, (await teamRow(two.id))!.name];
    expect(names.filter((n) => n === name)).toHaveLength(1);
  });

  it('two administrators creating one name at once: one team, one 409', async () => {
    const name = `Twin ${newId()}`;
    const answers = await Promise.all([
      send('POST', '/teams', 'orgAdmin', { name }),
      send('POST', '/teams', 'orgAdmin', { name: name.toLowerCase() }),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409]);
  });
});

describe('deleting a team', () => {
  it('tells the counts, refuses other counts, then deletes the team and its content', async () => {
    const team = await createTeam(db, cast.org.id);
    await addTeamMember(db, team, cast.colleague.id);
    const top = await createCollection(db, { team });
    const sub = await createCollection(db, { team }, { parentId: top.id });
    await createLink(db, top);
    await createLink(db, sub);
    await createLink(db, sub);
    const detail = await send('GET', `/teams/${team.id}`, 'orgAdmin');
    expect(detail.json()).toMatchObject({ collectionCount: 2, linkCount: 3, memberCount: 1 });
    const refused = await expectAdminRefused(
      db,
      () => send('DELETE', `/teams/${team.id}?collections=2&links=2`, 'orgAdmin'),
      409,
    );
    expect(refused.message).toContain('2 collections and 3 links');
    await expectAdminRefused(db, () => send('DELETE', `/teams/${team.id}`, 'orgAdmin'), 400);
    const deleted = await send('DELETE', `/teams/${team.id}?collections=2&links=3`, 'orgAdmin');
    expect(deleted.statusCode).toBe(204);
    expect(await teamRow(team.id)).toBeUndefined();
    expect(await db.select().from(collections).where(eq(collections.ownerTeamId, team.id))).toEqual(
      [],
    );
    expect(await db.select().from(links).where(eq(links.collectionId, sub.id))).toEqual([]);
    expect(await auditOf(team.id, 'team.deleted')).toEqual([
      expect.objectContaining({
        before: expect.objectContaining({ name: team.name, collections: 2, links: 3 }),
      }),
    ]);
    await expectAdminRefused(
      db,
      () => send('DELETE', `/teams/${team.id}?collections=0&links=0`, 'orgAdmin'),
      404,
    );
  });

  it('one administrator deleting while another adds a member: a clear outcome, never a 500', async () => {
    for (let round = 0; round < 4; round += 1) {
      const team = await createTeam(db, cast.org.id);
      const [removal, addition] = await Promise.all([
        send('DELETE', `/teams/${team.id}?collections=0&links=0`, 'orgAdmin'),
        send('POST', `/teams/${team.id}/members`, 'orgAdmin', { userIds: [cast.colleague.id] }),
      ]);
      expect(removal.statusCode).toBe(204);
      expect([200, 404]).toContain(addition.statusCode);
      expect(await teamRow(team.id)).toBeUndefined();
      expect(await membersOf(team.id)).toEqual([]);
    }
  });
});

describe('members', () => {
  it('adds several at once, idempotently, each audited once', async () => {
    const team = await createTeam(db, cast.org.id);
    const invited = await createUser(db, cast.org.id, { password: null });
    await db.update(users).set({ status: 'invited' }).where(eq(users.id, invited.id));
    const ids = [cast.colleague.id, cast.member.id, invited.id];
    const added = await send('POST', `/teams/${team.id}/members`, 'orgAdmin', { userIds: ids });
    expect(added.json()).toEqual({ changed: 3 });
    const again = await send('POST', `/teams/${team.id}/members`, 'orgAdmin', {
      userIds: ids,
      role: 'editor',
    });
    expect(again.json()).toEqual({ changed: 0 });
    expect(await membersOf(team.id)).toEqual(ids.map((id) => `${id}:member`).sort());
    expect(await auditOf(team.id, 'team.member-added')).toHaveLength(3);
  });

  it('refuses the whole call, naming the id, for a disabled, unknown or outside person', async () => {
    const team = await createTeam(db, cast.org.id);
    const gone = await createUser(db, cast.org.id, { status: 'disabled' });
    for (const id of [gone.id, newId(), cast.outsider.id]) {
      const answer = await expectAdminRefused(
        db,
        () =>
          send('POST', `/teams/${team.id}/members`, 'orgAdmin', {
            userIds: [cast.colleague.id, id],
          }),
        404,
      );
      expect(answer.message).toContain(id);
    }
  });

  it('lists members by name, searched, filtered by role, paged', async () => {
    const team = await createTeam(db, cast.org.id);
    const tag = `m${newId().replace(/[-_]/g, 'x').slice(0, 8)}`;
    const a = await createUser(db, cast.org.id, { name: `${tag} Ann` });
    const b = await createUser(db, cast.org.id, { name: `${tag} Bob` });
    const c = await createUser(db, cast.org.id, { name: `Carl`, email: `${tag}@example.test` });
    for (const u of [a, b, c]) await addTeamMember(db, team, u.id, u === b ? 'editor' : 'member');
    await addTeamMember(db, team, cast.colleague.id);
    const page1 = (
      await send('GET', `/teams/${team.id}/members?query=${tag}&limit=2`, 'orgAdmin')
    ).json();
    expect(page1.items.map((m: { id: string }) => m.id)).toEqual([c.id, a.id]);
    expect(page1.next).toBe(a.id);
    const page2 = (
      await send('GET', `/teams/${team.id}/members?query=${tag}&limit=2&after=${a.id}`, 'orgAdmin')
    ).json();
    expect(page2).toEqual({
      items: [expect.objectContaining({ id: b.id, role: 'editor', status: 'active' })],
      next: null,
    });
    const editors = (await send('GET', `/teams/${team.id}/members?role=editor`, 'orgAdmin')).json();
    expect(editors.items.map((m: { id: string }) => m.id)).toEqual([b.id]);
  });

  it('makes editors and members', async () => {
    const team = await createTeam(db, cast.org.id);
    await addTeamMember(db, team, cast.colleague.id);
    const made = await send('PATCH', `/teams/${team.id}/members/${cast.colleague.id}`, 'orgAdmin', {
      role: 'editor',
    });
    expect(made.statusCode).toBe(204);
    expect(await membersOf(team.id)).toEqual([`${cast.colleague.id}:editor`]);
    expect(await auditOf(team.id, 'team.member-role-changed')).toEqual([
      expect.objectContaining({ before: { role: 'member' }, after: { role: 'editor' } }),
    ]);
    await expectAdminRefused(
      db,
      () =>
        send('PATCH', `/teams/${team.id}/members/${cast.member.id}`, 'orgAdmin', {
          role: 'editor',
        }),
      404,
    );
  });

  it('chooses the buddy among members; removing the buddy clears it', async () => {
    const team = await createTeam(db, cast.org.id);
    await addTeamMember(db, team, cast.colleague.id);
    const notMember = await expectAdminRefused(
      db,
      () => send('PATCH', `/teams/${team.id}`, 'orgAdmin', { buddyId: cast.member.id }),
      409,
    );
    expect(notMember.message).toContain('not a member');
    await expectAdminRefused(
      db,
      () => send('PATCH', `/teams/${team.id}`, 'orgAdmin', { buddyId: cast.outsider.id }),
      404,
    );
    const chosen = await send('PATCH', `/teams/${team.id}`, 'orgAdmin', {
      buddyId: cast.colleague.id,
    });
    expect(chosen.json().buddy).toEqual({
      id: cast.colleague.id,
      name: cast.colleague.name,
      email: cast.colleague.email,
    });
    const removed = await send('POST', `/teams/${team.id}/members/remove`, 'orgAdmin', {
      userIds: [cast.colleague.id, cast.member.id],
    });
    expect(removed.json()).toEqual({ changed: 1 });
    expect(await teamRow(team.id)).toMatchObject({ buddyId: null });
    expect(await auditOf(team.id, 'team.member-removed')).toHaveLength(1);
    await addTeamMember(db, team, cast.member.id);
    await send('PATCH', `/teams/${team.id}`, 'orgAdmin', { buddyId: cast.member.id });
    const cleared = await send('PATCH', `/teams/${team.id}`, 'orgAdmin', { buddyId: null });
    expect(cleared.json().buddy).toBeNull();
  });
});

describe('races on one team', () => {
  it('choosing a buddy while another administrator removes them: never a buddy who is not a member', async () => {
    for (let round = 0; round < 4; round += 1) {
      const team = await createTeam(db, cast.org.id);
      await addTeamMember(db, team, cast.colleague.id);
      const [choose, remove] = await Promise.all([
        send('PATCH', `/teams/${team.id}`, 'orgAdmin', { buddyId: cast.colleague.id }),
        send('POST', `/teams/${team.id}/members/remove`, 'orgAdmin', {
          userIds: [cast.colleague.id],
        }),
      ]);
      expect([200, 409]).toContain(choose.statusCode);
      expect(remove.statusCode).toBe(200);
      expect(await membersOf(team.id)).toEqual([]);
      expect(await teamRow(team.id)).toMatchObject({ buddyId: null });
    }
  });
});

describe('bad input is refused with 400 and nothing stored', () => {
  const long = 'x'.repeat(201);
  const cases: [string, string, string, unknown][] = [
    ['POST', '/teams', 'missing name', {}],
    ['POST', '/teams', 'blank name', { name: '   ' }],
    ['POST', '/teams', 'name a number', { name: 5 }],
    ['POST', '/teams', 'name too long', { name: long }],
    ['POST', '/teams', 'unknown property', { name: 'Ok', color: 'red' }],
    ['PATCH', '/teams/:id', 'empty body', {}],
    ['PATCH', '/teams/:id', 'buddy not an id', { buddyId: 'nobody' }],
    ['PATCH', '/teams/:id', 'unknown property', { name: 'Ok', owner: 'me' }],
    ['POST', '/teams/:id/members', 'no ids', { userIds: [] }],
    ['POST', '/teams/:id/members', 'ids not a list', { userIds: 'a' }],
    ['POST', '/teams/:id/members', 'a hostile id', { userIds: ["'; DROP TABLE users; --"] }],
    [
      'POST',
      '/teams/:id/members',
      'repeated ids',
      { userIds: [newId(), newId()].flatMap((i) => [i, i]) },
    ],
    [
      'POST',
      '/teams/:id/members',
      'too many',
      { userIds: Array.from({ length: 101 }, () => newId()) },
    ],
    ['POST', '/teams/:id/members', 'unknown role', { userIds: [newId()], role: 'owner' }],
    ['POST', '/teams/:id/members/remove', 'missing ids', {}],
    ['PATCH', '/teams/:id/members/:userId', 'unknown role', { role: 'admin' }],
    ['PATCH', '/teams/:id/members/:userId', 'missing role', {}],
  ];
  it.each(cases)('%s %s: %s', async (method, path, _label, body) => {
    const team = await createTeam(db, cast.org.id);
    await addTeamMember(db, team, cast.colleague.id);
    const url = path.replace(':id', team.id).replace(':userId', cast.colleague.id);
    await expectAdminRefused(db, () => send(method as 'POST', url, 'orgAdmin', body), 400);
  });

  it('a NUL in a search is refused with 400 naming the field, rather than failing', async () => {
    const answer = await send('GET', `/teams?query=${encodeURIComponent('a\u0000b')}`, 'orgAdmin');
    expect(answer.statusCode).toBe(400);
    expect(answer.json().message).toBe(
      'querystring.query must not contain the control character U+0000',
    );
  });
});
