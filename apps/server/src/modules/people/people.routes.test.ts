import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { selectRows } from '../../db/client.ts';
import { createTestApp } from '../../../test/app.ts';
import {
  countRows,
  createCollection,
  createOrganization,
  createShare,
  createUser,
  signIn,
} from '../../../test/factories.ts';
import { createPerson, createSignedInCast } from '../../../test/support/world.ts';

const { app, db } = await createTestApp();
const cast = await createSignedInCast(app, db);
const admin = cast.orgAdmin.headers;

const call = (
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  headers: Record<string, string> = admin,
  payload?: unknown,
) => app.inject({ method, url: `/api/admin${url}`, headers, payload: payload as object });

const userRow = async (id: string) =>
  (
    await selectRows<{ status: string; role: string; name: string; email: string }>(
      db,
      sql`SELECT status, role, name, email FROM users WHERE id = ${id}`,
    )
  )[0];
// The console's rules — who may, what each change writes, the last administrator,
// offboarding's choices — are the people service's (people.service.test.ts). Here, what HTTP
// shows: each route's answers, the schemas, and authentication.
describe('who may use the people console', () => {
  const disabled = createUser(db, cast.org.id, { role: 'admin' });
  const cells = [
    ['member', cast.member.headers, 403],
    ['anonymous', {}, 401],
  ] as const;

  it.each(cells)(
    '%s is refused every call, and nothing changes',
    async (_role, headers, status) => {
      const before = await countRows(db, 'users');
      const audits = await countRows(db, 'audit_log');
      expect((await call('GET', '/people', headers)).statusCode).toBe(status);
      const invite = { name: 'New', email: 'refused-new@example.test' };
      expect((await call('POST', '/people/invitations', headers, invite)).statusCode).toBe(status);
      expect(
        (await call('PATCH', `/people/${cast.member.id}`, headers, { role: 'admin' })).statusCode,
      ).toBe(status);
      expect((await call('POST', `/people/${cast.member.id}/sign-out`, headers)).statusCode).toBe(
        status,
      );
      for (const [method, url, body] of [
        ['GET', `/people/${cast.member.id}`, undefined],
        ['GET', `/people/${cast.member.id}/offboarding`, undefined],
        ['POST', `/people/${cast.member.id}/second-factor/reset`, undefined],
        ['POST', `/people/${cast.member.id}/invitation`, undefined],
        ['POST', '/people/bulk', { ids: [cast.member.id], action: 'disable' }],
        [
          'POST',
          '/people',
          { name: 'X', email: 'refused-x@example.test', password: 'long enough' },
        ],
      ] as const) {
        expect((await call(method, url, headers, body)).statusCode).toBe(status);
      }
      expect(
        (await call('DELETE', `/people/${cast.member.id}`, headers, { collections: 'delete' }))
          .statusCode,
      ).toBe(status);
      expect(await countRows(db, 'users')).toBe(before);
      expect(await countRows(db, 'audit_log')).toBe(audits);
      expect((await userRow(cast.member.id))?.role).toBe('member');
    },
  );

  it('a disabled administrator is signed out (401)', async () => {
    const person = await disabled;
    const { headers } = await signIn(app, person);
    await db.execute(sql`UPDATE users SET status = 'disabled' WHERE id = ${person.id}`);
    expect((await call('GET', '/people', headers)).statusCode).toBe(401);
  });

  it('a demoted administrator is refused at their next request (403)', async () => {
    const o = await createOrganization(db);
    const a = await createPerson(app, db, o.id, 'admin');
    const b = await createPerson(app, db, o.id, 'admin');
    const demoted = await app.inject({
      method: 'PATCH',
      url: `/api/admin/people/${b.id}`,
      headers: a.headers,
      payload: { role: 'member' },
    });
    expect(demoted.statusCode).toBe(200);
    const refused = await app.inject({
      method: 'PATCH',
      url: `/api/admin/people/${a.id}`,
      headers: b.headers,
      payload: { role: 'member' },
    });
    expect(refused.statusCode).toBe(403);
    expect((await userRow(a.id))?.role).toBe('admin');
  });

  it('an administrator of another organization gets 404 for a person of this one', async () => {
    const response = await call('PATCH', `/people/${cast.member.id}`, cast.outsider.headers, {
      name: 'Taken over',
    });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: 'NOT_FOUND', message: expect.any(String) });
  });
});

describe('the list', () => {
  it('answers a page of rows and the cursor of the next one', async () => {
    const first = await call('GET', '/people?limit=2');
    expect(first.statusCode).toBe(200);
    expect(first.json().items).toHaveLength(2);
    expect(first.json().items[0]).toMatchObject({
      id: expect.any(String),
      name: expect.any(String),
      email: expect.any(String),
      role: expect.stringMatching(/^(member|admin)$/),
      status: 'active',
      hasPassword: true,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    const cursor = first.json().nextCursor as string;
    const second = await call('GET', `/people?limit=2&cursor=${encodeURIComponent(cursor)}`);
    expect(second.statusCode).toBe(200);
    expect(second.json().items[0].id).not.toBe(first.json().items[0].id);
  });

  it('refuses a cursor it did not give out, and bad filters', async () => {
    expect((await call('GET', '/people?cursor=nonsense')).statusCode).toBe(400);
    expect((await call('GET', '/people?role=owner')).statusCode).toBe(400);
    expect((await call('GET', '/people?limit=0')).statusCode).toBe(400);
    expect((await call('GET', '/people?extra=1')).statusCode).toBe(400);
  });
});

describe('the list names every team', () => {
  it('of a team made and filled after the list was read', async () => {
    const person = await createUser(db, cast.org.id, { name: 'Tessa Teamless' });
    const rowOf = async () => {
      const page = await call('GET', `/people?q=${encodeURIComponent('Tessa Teamless')}`);
      expect(page.statusCode).toBe(200);
      return (page.json().items as { id: string; teams: string[]; teamCount: number }[]).find(
        (item) => item.id === person.id,
      );
    };
    // Read twice, a moment apart, so that the list's directory is built and answers.
    await rowOf();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await rowOf()).toMatchObject({ teams: [], teamCount: 0 });

    const made = await call('POST', '/teams', admin, { name: 'Lighthouse Keepers' });
    expect(made.statusCode).toBe(201);
    const added = await call('POST', `/teams/${made.json().id}/members`, admin, {
      userIds: [person.id],
    });
    expect(added.statusCode).toBe(200);
    expect(await rowOf()).toMatchObject({ teams: ['Lighthouse Keepers'], teamCount: 1 });
  });
});

describe('creating, inviting and editing', () => {
  it('invites by e-mail: 201 with the person and a link to copy (no mail configured), 409 for a taken e-mail', async () => {
    const response = await call('POST', '/people/invitations', admin, {
      name: 'Ivy Invited',
      email: 'ivy@example.test',
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      mail: 'not-configured',
      mailed: false,
      person: { status: 'invited', email: 'ivy@example.test' },
      expiresAt: expect.any(String),
    });
    expect(response.json().link).toMatch(
      /^http:\/\/localhost:3000\/#invitation=[A-Za-z0-9_-]{43}$/,
    );
    // The person's page has the invitation, without a mail.
    const page = await call('GET', `/people/${response.json().person.id}`);
    expect(page.statusCode).toBe(200);
    expect(page.json()).toMatchObject({
      email: 'ivy@example.test',
      status: 'invited',
      invitation: { expiresAt: response.json().expiresAt, mail: null, mailAt: null },
    });
    const member = await call('GET', `/people/${cast.member.id}`);
    expect(member.json()).toMatchObject({ status: 'active', invitation: null });
    const again = await call('POST', '/people/invitations', admin, {
      name: 'Ivy',
      email: 'IVY@example.test',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'CONFLICT', message: expect.any(String) });
  });

  it('creates with a password (201) and edits (200); a taken e-mail is 409', async () => {
    const created = await call('POST', '/people', admin, {
      name: 'Carl',
      email: 'carl@example.test',
      password: 'a long password',
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().id;
    const edited = await call('PATCH', `/people/${id}`, admin, {
      name: 'Carla',
      email: 'carla@example.test',
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ name: 'Carla', email: 'carla@example.test' });
    const taken = await call('PATCH', `/people/${id}`, admin, { email: cast.member.email });
    expect(taken.statusCode).toBe(409);
  });

  const bad: [string, unknown][] = [
    ['missing name', { email: 'x@example.test', password: 'long enough' }],
    ['wrong type', { name: 5, email: 'x@example.test', password: 'long enough' }],
    ['short password', { name: 'X', email: 'x@example.test', password: 'short' }],
    ['long password', { name: 'X', email: 'x@example.test', password: 'p'.repeat(129) }],
    ['not an e-mail', { name: 'X', email: 'no at sign', password: 'long enough' }],
    ['oversized name', { name: 'n'.repeat(201), email: 'x@example.test', password: 'long enough' }],
    [
      'unknown property',
      { name: 'X', email: 'x@example.test', password: 'long enough', admin: true },
    ],
    ['bad role', { name: 'X', email: 'x@example.test', password: 'long enough', role: 'owner' }],
  ];
  it.each(bad)('refuses %s (400), storing nothing', async (_case, payload) => {
    const before = await countRows(db, 'users');
    expect((await call('POST', '/people', admin, payload)).statusCode).toBe(400);
    expect((await call('POST', '/people/invitations', admin, payload)).statusCode).toBe(400);
    expect(await countRows(db, 'users')).toBe(before);
  });

  const team = (value: unknown) => ({ name: 'X', email: 'team-x@example.test', team: value });
  it.each([
    ['a team without its id', team({ role: 'editor' })],
    ['a team with an unknown property', team({ id: 'AbCdEfGhIjKlMnOpQrStU', owner: true })],
    ['a team role that is none', team({ id: 'AbCdEfGhIjKlMnOpQrStU', role: 'owner' })],
  ])('refuses an invitation with %s (400), storing nothing', async (_case, payload) => {
    const before = await countRows(db, 'users');
    const answer = await call('POST', '/people/invitations', admin, payload);
    expect(answer.statusCode).toBe(400);
    // Named by its field, in words (decision 0078).
    expect(answer.json()).toMatchObject({ field: 'team' });
    expect(answer.json().message).not.toMatch(/body\.|must (NOT )?have/);
    expect(await countRows(db, 'users')).toBe(before);
  });
});

describe('sessions, the second factor and the last administrator', () => {
  it('signs a person out everywhere (204) and resets their second factor (204, 409 without one)', async () => {
    const person = await createPerson(app, db, cast.org.id);
    expect((await call('POST', `/people/${person.id}/sign-out`)).statusCode).toBe(204);
    expect(
      (await app.inject({ url: '/api/consumer/menu', headers: person.headers })).statusCode,
    ).toBe(401);
    expect((await call('POST', `/people/${person.id}/second-factor/reset`)).statusCode).toBe(409);
    await db.execute(
      sql`INSERT INTO second_factors (user_id, secret, enabled_at) VALUES (${person.id}, 'secret', now())`,
    );
    expect((await call('POST', `/people/${person.id}/second-factor/reset`)).statusCode).toBe(204);
  });

  it('answers 409 with the reason when the last active administrator would be demoted', async () => {
    const only = cast.orgAdmin.id;
    const demote = await call('PATCH', `/people/${only}`, admin, { role: 'member' });
    expect(demote.statusCode).toBe(409);
    expect(demote.json().message).toMatch(/at least one active administrator/);
    const bulk = await call('POST', '/people/bulk', admin, {
      ids: [only],
      action: 'role',
      role: 'member',
    });
    expect(bulk.statusCode).toBe(409);
  });

  it('bulk: 200 with the counts, 404 for an id of another organization, 400 for bad bodies', async () => {
    const p1 = await createUser(db, cast.org.id);
    const mixed = await call('POST', '/people/bulk', admin, {
      ids: [p1.id, cast.outsider.id],
      action: 'disable',
    });
    expect(mixed.statusCode).toBe(404);
    const ok = await call('POST', '/people/bulk', admin, { ids: [p1.id], action: 'disable' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ action: 'disable', changed: 1, unchanged: 0 });
    expect(
      (await call('POST', '/people/bulk', admin, { ids: [], action: 'disable' })).statusCode,
    ).toBe(400);
    expect(
      (await call('POST', '/people/bulk', admin, { ids: [p1.id], action: 'explode' })).statusCode,
    ).toBe(400);
  });
});

describe('offboarding', () => {
  it('previews the shared collections (200), then deletes the person (204)', async () => {
    const leaver = await createUser(db, cast.org.id);
    const heir = await createUser(db, cast.org.id);
    const shared = await createCollection(db, { user: leaver }, { name: 'Runbooks' });
    await createShare(db, leaver, shared.id, [cast.member.id]);
    const preview = await call('GET', `/people/${leaver.id}/offboarding`);
    expect(preview.statusCode).toBe(200);
    expect(preview.json()).toEqual({
      collections: [{ id: shared.id, name: 'Runbooks', memberCount: 1 }],
    });
    const missing = await call('DELETE', `/people/${leaver.id}`, admin, {
      collections: 'transfer',
    });
    expect(missing.statusCode).toBe(400);
    const gone = await call('DELETE', `/people/${leaver.id}`, admin, {
      collections: 'transfer',
      transferTo: heir.id,
    });
    expect(gone.statusCode).toBe(204);
    expect(await userRow(leaver.id)).toBeUndefined();
  });

  it('refuses deleting oneself (409), or transferring to someone of another organization (404)', async () => {
    const self = await call('DELETE', `/people/${cast.orgAdmin.id}`, admin, {
      collections: 'delete',
    });
    expect(self.statusCode).toBe(409);
    const leaver = await createUser(db, cast.org.id);
    const other = await call('DELETE', `/people/${leaver.id}`, admin, {
      collections: 'transfer',
      transferTo: cast.outsider.id,
    });
    expect(other.statusCode).toBe(404);
    expect(await userRow(leaver.id)).toBeDefined();
  });
});
