import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../../db/schema/index.ts';
import { newId } from '../../lib/ids.ts';
import { createTestApp } from '../../../test/app.ts';
import { addTeamMember, createCollection, createTeam } from '../../../test/factories.ts';
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

// The rules of each call (who may, what is written, what is refused and why) are tested
// against the service (teams.service.test.ts); here, the answer each kind of outcome gets.
describe('answers of /api/admin/teams', () => {
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

  it.each([
    [null, 401],
    ['disabled', 401],
    ['teamEditor', 403],
  ] as [Who, number][])(
    '%s is refused every call with %i and nothing changes',
    async (who, status) => {
      const team = await createTeam(db, cast.org.id);
      await addTeamMember(db, team, cast.colleague.id);
      for (const [method, url, body] of calls(team.id, cast.colleague.id)) {
        const answer = await expectAdminRefused(db, () => send(method, url, who, body), status);
        expect(answer.code).toBe(status === 401 ? 'UNAUTHORIZED' : 'FORBIDDEN');
      }
    },
  );

  it("another organization's administrator gets 404 for this organization's teams", async () => {
    const team = await createTeam(db, cast.org.id);
    await addTeamMember(db, team, cast.colleague.id);
    for (const [method, url, body] of calls(team.id, cast.colleague.id).slice(2)) {
      const answer = await expectAdminRefused(db, () => send(method, url, 'outsider', body), 404);
      expect(answer.code).toBe('NOT_FOUND');
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

  it('answers a conflict with 409 and its reason: a name taken, counts that changed', async () => {
    const team = await createTeam(db, cast.org.id);
    const other = await createTeam(db, cast.org.id);
    await createCollection(db, { team });
    const taken = await expectAdminRefused(
      db,
      () => send('POST', '/teams', 'orgAdmin', { name: other.name }),
      409,
    );
    expect(taken).toMatchObject({
      code: 'CONFLICT',
      message: expect.stringContaining('already exists'),
    });
    await expectAdminRefused(
      db,
      () => send('PATCH', `/teams/${team.id}`, 'orgAdmin', { name: other.name }),
      409,
    );
    const counts = await expectAdminRefused(
      db,
      () => send('DELETE', `/teams/${team.id}?collections=0&links=0`, 'orgAdmin'),
      409,
    );
    expect(counts.message).toContain('1 collections and 0 links');
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

  it('a deletion without the confirmed counts is refused with 400', async () => {
    const team = await createTeam(db, cast.org.id);
    await expectAdminRefused(db, () => send('DELETE', `/teams/${team.id}`, 'orgAdmin'), 400);
  });

  it('a NUL in a search is refused with 400 naming the field, rather than failing', async () => {
    const answer = await send('GET', `/teams?query=${encodeURIComponent('a\u0000b')}`, 'orgAdmin');
    expect(answer.statusCode).toBe(400);
    expect(answer.json().message).toBe('The search cannot contain the control character U+0000.');
  });
});
