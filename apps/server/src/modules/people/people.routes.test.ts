import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { selectRows } from '../../db/client.ts';
import { createTestApp } from '../../../test/app.ts';
import {
  addTeamMember,
  countRows,
  createCollection,
  createLink,
  createOrganization,
  createShare,
  createUser,
  signIn,
} from '../../../test/factories.ts';
import { createPerson, createSignedInCast } from '../../../test/support/world.ts';

const { app, db } = await createTestApp();
const cast = await createSignedInCast(app, db);
const admin = cast.orgAdmin.headers;
// An editor of the other team, for the "team editor of another team" cell.
const otherEditor = await createPerson(app, db, cast.org.id);
await addTeamMember(db, cast.otherTeam, otherEditor.id, 'editor');

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
const auditCount = (action: string, targetId: string) =>
  selectRows<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM audit_log WHERE action = ${action} AND target_id = ${targetId}`,
  ).then((rows) => rows[0]?.n ?? 0);

const auditDetails = (action: string, targetId: string) =>
  selectRows<{ details: unknown }>(
    db,
    sql`SELECT details FROM audit_log WHERE action = ${action} AND target_id = ${targetId}`,
  ).then((rows) => rows.map((row) => row.details));

describe('who may use the people console', () => {
  const disabled = createUser(db, cast.org.id, { role: 'admin' });
  const cells = [
    ['team editor', cast.teamEditor.headers, 403],
    ['editor of another team', otherEditor.headers, 403],
    ['team member', cast.teamMember.headers, 403],
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

  it('an administrator of another organization sees none of this one (404)', async () => {
    const response = await call('PATCH', `/people/${cast.member.id}`, cast.outsider.headers, {
      name: 'Taken over',
    });
    expect(response.statusCode).toBe(404);
    expect((await userRow(cast.member.id))?.name).toBe(cast.member.name);
    const list = await call(
      'GET',
      `/people?q=${encodeURIComponent(cast.member.email)}`,
      cast.outsider.headers,
    );
    expect(list.json().items).toEqual([]);
  });
});

describe('the list', () => {
  it('searches name and e-mail with % _ \\ literal, filters and pages by cursor', async () => {
    const org = cast.org.id;
    await createUser(db, org, { name: 'Zed 100% sure', email: 'zed_a@example.test' });
    await createUser(db, org, { name: 'Zed plain', email: 'zedxa@example.test' });
    const percent = await call('GET', `/people?q=${encodeURIComponent('100%')}`);
    expect(percent.json().items.map((p: { name: string }) => p.name)).toEqual(['Zed 100% sure']);
    const underscore = await call('GET', `/people?q=${encodeURIComponent('zed_')}`);
    expect(underscore.json().items.map((p: { email: string }) => p.email)).toEqual([
      'zed_a@example.test',
    ]);
    const admins = await call('GET', '/people?role=admin');
    expect(admins.json().items.every((p: { role: string }) => p.role === 'admin')).toBe(true);
    const team = await call('GET', `/people?team=${cast.team.id}`);
    expect(
      team
        .json()
        .items.map((p: { id: string }) => p.id)
        .sort(),
    ).toEqual([cast.teamMember.id, cast.teamEditor.id, cast.owner.id].sort());
    const row = team.json().items.find((p: { id: string }) => p.id === cast.teamEditor.id);
    expect(row).toMatchObject({ teamCount: 1, teams: [cast.team.name], hasPassword: true });

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const url: string = `/people?limit=3${cursor ? `&cursor=${cursor}` : ''}`;
      const page = await call('GET', url);
      expect(page.statusCode).toBe(200);
      seen.push(...page.json().items.map((p: { id: string }) => p.id));
      cursor = page.json().nextCursor;
    } while (cursor);
    const all = await selectRows<{ id: string }>(
      db,
      sql`SELECT id FROM users WHERE organization_id = ${org} ORDER BY lower(name), id`,
    );
    expect(seen).toEqual(all.map((r) => r.id));
  });

  it('never signed in and single sign-on filters', async () => {
    // Everyone of the cast signed in; a person made now never did.
    const newcomer = await createUser(db, cast.org.id);
    const never = await call('GET', '/people?signIn=never');
    const ids = never.json().items.map((p: { id: string }) => p.id);
    expect(ids).not.toContain(cast.member.id);
    expect(ids).toContain(newcomer.id);
    const sso = await call('GET', '/people?signIn=sso');
    expect(sso.json().items).toEqual([]);
  });

  it('refuses a cursor it did not give out, and bad filters', async () => {
    expect((await call('GET', '/people?cursor=nonsense')).statusCode).toBe(400);
    expect((await call('GET', '/people?role=owner')).statusCode).toBe(400);
    expect((await call('GET', '/people?limit=0')).statusCode).toBe(400);
    expect((await call('GET', '/people?extra=1')).statusCode).toBe(400);
  });
});

describe('creating, inviting and editing', () => {
  it('invites by e-mail: an invited person, a link to copy (no mail configured), 409 for a taken e-mail', async () => {
    const response = await call('POST', '/people/invitations', admin, {
      name: 'Ivy Invited',
      email: 'ivy@example.test',
    });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toMatchObject({
      mailed: false,
      person: { status: 'invited', email: 'ivy@example.test' },
    });
    expect(body.link).toMatch(/^http:\/\/localhost:3000\/#invitation=[A-Za-z0-9_-]{43}$/);
    const stored = await selectRows<{ token_hash: string }>(
      db,
      sql`SELECT token_hash FROM invitations WHERE user_id = ${body.person.id}`,
    );
    expect(stored[0]?.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(body.link).not.toContain(stored[0]?.token_hash);
    expect(await auditCount('person.invited', body.person.id)).toBe(1);
    const again = await call('POST', '/people/invitations', admin, {
      name: 'Ivy',
      email: 'IVY@example.test',
    });
    expect(again.statusCode).toBe(409);
  });

  it('creates with a password, edits name and e-mail, audited with before and after', async () => {
    const created = await call('POST', '/people', admin, {
      name: 'Carl',
      email: 'carl@example.test',
      password: 'a long password',
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().id;
    await signIn(app, { email: 'carl@example.test' }, 'a long password');
    const edited = await call('PATCH', `/people/${id}`, admin, {
      name: 'Carla',
      email: 'carla@example.test',
    });
    expect(edited.json()).toMatchObject({ name: 'Carla', email: 'carla@example.test' });
    const [entry] = await selectRows<{ before: unknown; after: unknown }>(
      db,
      sql`SELECT before, after FROM audit_log WHERE action = 'person.updated' AND target_id = ${id}`,
    );
    expect(entry).toEqual({
      before: { name: 'Carl', email: 'carl@example.test' },
      after: { name: 'Carla', email: 'carla@example.test' },
    });
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

  it('stores hostile strings as text', async () => {
    const name = "<script>alert(1)</script>'; DROP TABLE users; --";
    const created = await call('POST', '/people', admin, {
      name,
      email: 'hostile@example.test',
      password: 'long enough',
    });
    expect(created.json().name).toBe(name);
  });
});

describe('roles, status, sessions and the last administrator', () => {
  it('disabling ends sessions and access tokens at once; enabling lets them sign in again', async () => {
    const person = await createPerson(app, db, cast.org.id);
    expect(
      (await app.inject({ url: '/api/consumer/menu', headers: person.headers })).statusCode,
    ).toBe(200);
    const made = await app.inject({
      method: 'POST',
      url: '/api/auth/tokens',
      headers: person.headers,
      payload: { name: 'script' },
    });
    const tokenHeaders = { authorization: `Bearer ${made.json().token}` };
    expect(
      (await app.inject({ url: '/api/consumer/menu', headers: tokenHeaders })).statusCode,
    ).toBe(200);
    const off = await call('PATCH', `/people/${person.id}`, admin, { status: 'disabled' });
    expect(off.json().status).toBe('disabled');
    expect(
      (await app.inject({ url: '/api/consumer/menu', headers: person.headers })).statusCode,
    ).toBe(401);
    expect(
      (await app.inject({ url: '/api/consumer/menu', headers: tokenHeaders })).statusCode,
    ).toBe(401);
    expect(await auditCount('person.disabled', person.id)).toBe(1);
    expect(await auditDetails('person.disabled', person.id)).toEqual([
      { sessionsEnded: 1, accessTokensRevoked: 1 },
    ]);
    await call('PATCH', `/people/${person.id}`, admin, { status: 'active' });
    await signIn(app, person);
    expect(await auditCount('person.enabled', person.id)).toBe(1);
    // Revoked for good: enabling the person again brings neither back.
    expect(
      (await app.inject({ url: '/api/consumer/menu', headers: person.headers })).statusCode,
    ).toBe(401);
    expect(
      (await app.inject({ url: '/api/consumer/menu', headers: tokenHeaders })).statusCode,
    ).toBe(401);
  });

  it('resetting the second factor ends the sessions opened with it; access tokens go on', async () => {
    const person = await createPerson(app, db, cast.org.id);
    const made = await app.inject({
      method: 'POST',
      url: '/api/auth/tokens',
      headers: person.headers,
      payload: { name: 'script' },
    });
    const tokenHeaders = { authorization: `Bearer ${made.json().token}` };
    await db.execute(
      sql`INSERT INTO second_factors (user_id, secret, enabled_at) VALUES (${person.id}, 'secret', now())`,
    );
    expect((await call('POST', `/people/${person.id}/second-factor/reset`)).statusCode).toBe(204);
    expect(
      (await app.inject({ url: '/api/consumer/menu', headers: person.headers })).statusCode,
    ).toBe(401);
    expect(
      (await app.inject({ url: '/api/consumer/menu', headers: tokenHeaders })).statusCode,
    ).toBe(200);
    expect(await auditDetails('second-factor.reset', person.id)).toEqual([{ sessionsEnded: 1 }]);
    // The password alone signs in again.
    await signIn(app, person);
  });

  it('a deleted person’s sessions and access tokens stop at once', async () => {
    const person = await createPerson(app, db, cast.org.id);
    const made = await app.inject({
      method: 'POST',
      url: '/api/auth/tokens',
      headers: person.headers,
      payload: { name: 'script' },
    });
    const tokenHeaders = { authorization: `Bearer ${made.json().token}` };
    const gone = await call('DELETE', `/people/${person.id}`, admin, { collections: 'delete' });
    expect(gone.statusCode).toBe(204);
    for (const headers of [person.headers, tokenHeaders]) {
      expect((await app.inject({ url: '/api/consumer/menu', headers })).statusCode).toBe(401);
    }
    expect(await countRows(db, 'access_tokens', { column: 'user_id', value: person.id })).toBe(0);
  });

  it('signs a person out everywhere and resets their second factor', async () => {
    const person = await createPerson(app, db, cast.org.id);
    expect((await call('POST', `/people/${person.id}/sign-out`)).statusCode).toBe(204);
    expect(
      (await app.inject({ url: '/api/consumer/menu', headers: person.headers })).statusCode,
    ).toBe(401);
    expect(await auditCount('sessions.ended-everywhere', person.id)).toBe(1);
    expect((await call('POST', `/people/${person.id}/second-factor/reset`)).statusCode).toBe(409);
    await db.execute(
      sql`INSERT INTO second_factors (user_id, secret, enabled_at) VALUES (${person.id}, 'secret', now())`,
    );
    expect((await call('POST', `/people/${person.id}/second-factor/reset`)).statusCode).toBe(204);
    expect(await countRows(db, 'second_factors', { column: 'user_id', value: person.id })).toBe(0);
    expect(await auditCount('second-factor.reset', person.id)).toBe(1);
  });

  it('the last active administrator cannot be demoted, disabled or deleted', async () => {
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
    expect((await userRow(only))?.role).toBe('admin');
  });

  it('two administrators demoting each other at the same moment: one wins, the other is refused', async () => {
    const o = await createOrganization(db);
    const a = await createPerson(app, db, o.id, 'admin');
    const b = await createPerson(app, db, o.id, 'admin');
    const [one, two] = await Promise.all([
      app.inject({
        method: 'PATCH',
        url: `/api/admin/people/${b.id}`,
        headers: a.headers,
        payload: { role: 'member' },
      }),
      app.inject({
        method: 'PATCH',
        url: `/api/admin/people/${a.id}`,
        headers: b.headers,
        payload: { role: 'member' },
      }),
    ]);
    // One wins; the other is refused: 409 (the last administrator) when both were signed in
    // as administrators before the winner committed, 403 when the loser's request was
    // authorized after it (they are an administrator no more). Which depends on timing only.
    const statuses = [one.statusCode, two.statusCode].sort();
    expect(statuses[0]).toBe(200);
    expect([403, 409]).toContain(statuses[1]);
    const admins = await selectRows<{ n: number }>(
      db,
      sql`SELECT count(*)::int AS n FROM users WHERE organization_id = ${o.id} AND role = 'admin'`,
    );
    expect(admins[0]?.n).toBe(1);
  });

  it('bulk: all or nothing, each id authorized', async () => {
    const p1 = await createUser(db, cast.org.id);
    const p2 = await createUser(db, cast.org.id);
    const mixed = await call('POST', '/people/bulk', admin, {
      ids: [p1.id, cast.outsider.id],
      action: 'disable',
    });
    expect(mixed.statusCode).toBe(404);
    expect((await userRow(p1.id))?.status).toBe('active');
    const ok = await call('POST', '/people/bulk', admin, {
      ids: [p1.id, p2.id],
      action: 'disable',
    });
    expect(ok.json()).toEqual({ action: 'disable', changed: 2, unchanged: 0 });
    const again = await call('POST', '/people/bulk', admin, {
      ids: [p1.id, p2.id],
      action: 'disable',
    });
    expect(again.json()).toEqual({ action: 'disable', changed: 0, unchanged: 2 });
    const role = await call('POST', '/people/bulk', admin, {
      ids: [p1.id],
      action: 'role',
      role: 'admin',
    });
    expect(role.json().changed).toBe(1);
    expect((await userRow(p1.id))?.role).toBe('admin');
    expect(
      (await call('POST', '/people/bulk', admin, { ids: [], action: 'disable' })).statusCode,
    ).toBe(400);
    expect(
      (await call('POST', '/people/bulk', admin, { ids: [p1.id], action: 'explode' })).statusCode,
    ).toBe(400);
    const del = await call('POST', '/people/bulk', admin, {
      ids: [p1.id, p2.id],
      action: 'delete',
      offboarding: { collections: 'delete' },
    });
    expect(del.statusCode).toBe(200);
    expect(await userRow(p1.id)).toBeUndefined();
  });
});

describe('offboarding', () => {
  it('previews, then transfers shared collections to a colleague: members stay, links stay', async () => {
    const leaver = await createUser(db, cast.org.id);
    const heir = await createUser(db, cast.org.id);
    const shared = await createCollection(db, { user: leaver }, { name: 'Runbooks' });
    const inner = await createCollection(
      db,
      { user: leaver },
      { name: 'Inner', parentId: shared.id },
    );
    const share = await createShare(db, leaver, shared.id, [cast.member.id]);
    const privateOne = await createCollection(db, { user: leaver }, { name: 'Private' });
    // A link the leaver added to someone else's share stays.
    const othersShared = await createCollection(db, { user: cast.colleague }, { name: 'Theirs' });
    await createShare(db, cast.colleague, othersShared.id, [leaver.id]);
    const kept = await createLink(db, othersShared, { createdBy: leaver.id });

    const preview = await call('GET', `/people/${leaver.id}/offboarding`);
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
    const moved = await selectRows<{ id: string; owner_user_id: string; parent_id: string }>(
      db,
      sql`SELECT id, owner_user_id, parent_id FROM collections WHERE id IN (${shared.id}, ${inner.id}) ORDER BY name`,
    );
    expect(moved.map((c) => c.owner_user_id)).toEqual([heir.id, heir.id]);
    expect(moved.find((c) => c.id === shared.id)?.parent_id).toBe(heir.rootId);
    const members = await selectRows<{ user_id: string }>(
      db,
      sql`SELECT user_id FROM share_members WHERE share_id = ${share.id} ORDER BY user_id`,
    );
    expect(members.map((m) => m.user_id).sort()).toEqual([cast.member.id, heir.id].sort());
    expect(await countRows(db, 'collections', { column: 'id', value: privateOne.id })).toBe(0);
    expect(await countRows(db, 'links', { column: 'id', value: kept.id })).toBe(1);
    expect(await auditCount('person.deleted', leaver.id)).toBe(1);
  });

  it('or deletes them', async () => {
    const leaver = await createUser(db, cast.org.id);
    const shared = await createCollection(db, { user: leaver });
    await createShare(db, leaver, shared.id, [cast.member.id]);
    const response = await call('DELETE', `/people/${leaver.id}`, admin, { collections: 'delete' });
    expect(response.statusCode).toBe(204);
    expect(await countRows(db, 'collections', { column: 'id', value: shared.id })).toBe(0);
  });

  it('refuses deleting oneself, or transferring to someone of another organization', async () => {
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
