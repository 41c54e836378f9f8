// SCIM's promises that only HTTP shows (decision 0084): its tokens open /scim/v2 and nothing
// else, deprovisioning locks a person out at once, a sync never undoes an administrator's own
// memberships or a disabling, and a refused request changes nothing.
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/app.ts';
import {
  addTeamMember,
  createCollection,
  createOrganization,
  createUser,
  signIn,
} from '../../../test/factories.ts';
import { auditLog, collections, teamMemberships, teams, users } from '../../db/schema/index.ts';

const { app, db } = await createTestApp();

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

/** An organization, its signed-in administrator, and a SCIM token they made. */
async function organization() {
  const org = await createOrganization(db);
  const admin = await createUser(db, org.id, { role: 'admin' });
  const { headers } = await signIn(app, admin);
  const made = await app.inject({
    method: 'POST',
    url: '/api/admin/scim-tokens',
    headers,
    payload: { name: 'Okta' },
  });
  expect(made.statusCode).toBe(201);
  const { token, scimToken } = made.json<{ token: string; scimToken: { id: string } }>();
  const scim = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
    app.inject({
      method,
      url: `/scim/v2${url}`,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/scim+json' }),
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
  return { org, admin, headers, token, tokenId: scimToken.id, scim };
}

const newUser = (userName: string, extra: Record<string, unknown> = {}) => ({
  schemas: [USER],
  userName,
  name: { givenName: 'Ada', familyName: 'Lovelace' },
  emails: [{ value: userName, type: 'work', primary: true }],
  active: true,
  ...extra,
});

const deactivate = { schemas: [PATCH], Operations: [{ op: 'replace', value: { active: false } }] };

describe('SCIM tokens', () => {
  it('are made, listed and revoked by administrators, shown once, and audited', async () => {
    const { org, headers, token, tokenId, scim } = await organization();
    expect(token).toMatch(/^spscim_[A-Za-z0-9_-]{43}$/);
    const list = await app.inject({ method: 'GET', url: '/api/admin/scim-tokens', headers });
    expect(list.statusCode).toBe(200);
    const [listed] = list.json<{ items: Record<string, unknown>[] }>().items;
    expect(listed).toMatchObject({ id: tokenId, name: 'Okta', hint: token.slice(0, 11) });
    expect(JSON.stringify(list.json())).not.toContain(token);
    expect((await scim('GET', '/Users')).statusCode).toBe(200);
    const used = await app.inject({ method: 'GET', url: '/api/admin/scim-tokens', headers });
    expect(
      used.json<{ items: { lastUsedAt: string | null }[] }>().items[0]!.lastUsedAt,
    ).not.toBeNull();

    const revoked = await app.inject({
      method: 'DELETE',
      url: `/api/admin/scim-tokens/${tokenId}`,
      headers,
    });
    expect(revoked.statusCode).toBe(204);
    const after = await scim('GET', '/Users');
    expect(after.statusCode).toBe(401);
    expect(after.json()).toMatchObject({
      status: '401',
      detail: expect.stringContaining('revoked'),
    });
    const entries = await db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(and(eq(auditLog.organizationId, org.id), eq(auditLog.targetId, tokenId)));
    expect(entries.map((e) => e.action).sort()).toEqual([
      'scim-token.created',
      'scim-token.revoked',
    ]);
  });

  it('are not for members, and not made without a fresh sign-in', async () => {
    const org = await createOrganization(db);
    const member = await createUser(db, org.id);
    const { headers } = await signIn(app, member);
    const refused = await app.inject({
      method: 'POST',
      url: '/api/admin/scim-tokens',
      headers,
      payload: { name: 'Mine' },
    });
    expect(refused.statusCode).toBe(403);
    expect(
      (await app.inject({ method: 'GET', url: '/api/admin/scim-tokens', headers })).statusCode,
    ).toBe(403);
  });

  it('open nothing but /scim/v2, and /scim/v2 takes nothing else', async () => {
    const { headers, token } = await organization();
    const menu = await app.inject({
      method: 'GET',
      url: '/api/consumer/menu',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(menu.statusCode).toBe(401);
    expect(menu.json().message).toBe('A SCIM token opens /scim/v2 and nothing else.');
    const withSession = await app.inject({ method: 'GET', url: '/scim/v2/Users', headers });
    expect(withSession.statusCode).toBe(401);
    expect(withSession.headers['www-authenticate']).toBe('Bearer realm="SCIM"');
    const anonymous = await app.inject({ method: 'GET', url: '/scim/v2/ServiceProviderConfig' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['content-type']).toMatch(/^application\/scim\+json/);
  });

  it('of one organization see nothing of another', async () => {
    const one = await organization();
    const other = await organization();
    const made = await one.scim('POST', '/Users', newUser('only.one@example.org'));
    const id = made.json<{ id: string }>().id;
    expect((await other.scim('GET', `/Users/${id}`)).statusCode).toBe(404);
    expect((await other.scim('PATCH', `/Users/${id}`, deactivate)).statusCode).toBe(404);
    const listed = await other.scim('GET', '/Users?filter=userName eq "only.one@example.org"');
    expect(listed.json()).toMatchObject({ totalResults: 0, Resources: [] });
    const [person] = await db.select().from(users).where(eq(users.id, id));
    expect(person!.status).toBe('active');
  });
});

describe('deprovisioning', () => {
  it('locks the person out at once: every session and access token answers 401', async () => {
    const { org, admin, scim, tokenId } = await organization();
    const person = await createUser(db, org.id);
    const session = await signIn(app, person);
    const pat = await app.inject({
      method: 'POST',
      url: '/api/auth/tokens',
      headers: session.headers,
      payload: { name: 'script' },
    });
    const patToken = pat.json<{ token: string }>().token;
    const menuWith = (authorization: string) =>
      app.inject({ method: 'GET', url: '/api/consumer/menu', headers: { authorization } });
    expect((await menuWith(session.headers.authorization)).statusCode).toBe(200);

    const found = await scim('GET', `/Users?filter=userName eq "${person.email}"`);
    const id = found.json<{ Resources: { id: string }[] }>().Resources[0]!.id;
    expect(id).toBe(person.id);
    const off = await scim('PATCH', `/Users/${id}`, deactivate);
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({ active: false });
    expect((await menuWith(session.headers.authorization)).statusCode).toBe(401);
    expect((await menuWith(`Bearer ${patToken}`)).statusCode).toBe(401);

    const entries = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetId, id), eq(auditLog.action, 'person.disabled')));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actorId: null,
      actorName: 'SCIM token "Okta"',
      details: expect.objectContaining({ via: 'scim', scimToken: { id: tokenId, name: 'Okta' } }),
    });
    expect(admin.id).not.toBe(id);
  });

  it('by DELETE keeps the person and their content, disabled; the User is gone; a new POST brings them back', async () => {
    const { scim } = await organization();
    const made = await scim('POST', '/Users', newUser('leaver@example.org'));
    const id = made.json<{ id: string }>().id;
    expect((await scim('DELETE', `/Users/${id}`)).statusCode).toBe(204);
    expect((await scim('GET', `/Users/${id}`)).statusCode).toBe(404);
    expect((await scim('DELETE', `/Users/${id}`)).statusCode).toBe(404);
    const [kept] = await db.select().from(users).where(eq(users.id, id));
    expect(kept).toMatchObject({ status: 'disabled' });
    expect(kept!.scimDeletedAt).not.toBeNull();
    const mySpace = await db.select().from(collections).where(eq(collections.ownerUserId, id));
    expect(mySpace).toHaveLength(1);

    const again = await scim('POST', '/Users', newUser('leaver@example.org'));
    expect(again.statusCode).toBe(201);
    expect(again.json()).toMatchObject({ id, active: true });
  });

  it('never enables a person an administrator disabled, and never disables the last administrator', async () => {
    const { org, admin, headers, scim } = await organization();
    const made = await scim('POST', '/Users', newUser('paused@example.org'));
    const id = made.json<{ id: string }>().id;
    const byHand = await app.inject({
      method: 'PATCH',
      url: `/api/admin/people/${id}`,
      headers,
      payload: { status: 'disabled' },
    });
    expect(byHand.statusCode).toBe(200);
    const put = await scim('PUT', `/Users/${id}`, newUser('paused@example.org', { active: true }));
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({ active: false });

    const adminUser = await scim('GET', `/Users?filter=userName eq "${admin.email}"`);
    const adminId = adminUser.json<{ Resources: { id: string }[] }>().Resources[0]!.id;
    const refused = await scim('PATCH', `/Users/${adminId}`, deactivate);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().schemas).toEqual(['urn:ietf:params:scim:api:messages:2.0:Error']);
    const [still] = await db.select().from(users).where(eq(users.id, admin.id));
    expect(still!.status).toBe('active');
    expect(org.id).toBeTruthy();
  });

  it('a PUT without active suspends nobody; "False" as a string disables', async () => {
    const { scim } = await organization();
    const id = (await scim('POST', '/Users', newUser('steady@example.org'))).json<{ id: string }>()
      .id;
    const { active: _, ...withoutActive } = newUser('steady@example.org', {
      displayName: 'Ada L.',
    });
    const put = await scim('PUT', `/Users/${id}`, withoutActive);
    expect(put.json()).toMatchObject({ active: true, displayName: 'Ada L.' });
    const entra = await scim('PATCH', `/Users/${id}`, {
      schemas: [PATCH],
      Operations: [{ op: 'Replace', path: 'active', value: 'False' }],
    });
    expect(entra.json()).toMatchObject({ active: false });
  });
});

describe('groups', () => {
  it('a sync changes the memberships it made, never those made by hand', async () => {
    const { org, scim } = await organization();
    const ids: string[] = [];
    for (const name of ['ana', 'ben', 'cy']) {
      ids.push(
        (await scim('POST', '/Users', newUser(`${name}@example.org`))).json<{ id: string }>().id,
      );
    }
    const byHand = await createUser(db, org.id);
    const group = await scim('POST', '/Groups', {
      displayName: 'Platform',
      members: [{ value: ids[0] }, { value: ids[1] }],
    });
    expect(group.statusCode).toBe(201);
    const teamId = group.json<{ id: string }>().id;
    const team = { id: teamId, organizationId: org.id };
    await addTeamMember(db, team, byHand.id);
    // ana was added by hand as well: SCIM taking her out leaves her in.
    const console = await app.inject({
      method: 'POST',
      url: `/api/admin/teams/${teamId}/members`,
      headers: (await organizationAdminHeaders(org.id)).headers,
      payload: { userIds: [ids[0]] },
    });
    expect(console.statusCode).toBeLessThan(300);

    const replaced = await scim('PUT', `/Groups/${teamId}`, {
      displayName: 'Platform',
      members: [{ value: ids[2] }],
    });
    expect(replaced.statusCode).toBe(200);
    expect(replaced.json<{ members: { value: string }[] }>().members.map((m) => m.value)).toEqual([
      ids[2],
    ]);
    const members = await db
      .select({ userId: teamMemberships.userId })
      .from(teamMemberships)
      .where(eq(teamMemberships.teamId, teamId));
    expect(members.map((m) => m.userId).sort()).toEqual([ids[0], ids[2], byHand.id].sort());
    const synced = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetId, teamId), eq(auditLog.action, 'team.members-synced')));
    expect(synced.at(-1)!.details).toMatchObject({ added: [ids[2]] });
  });

  it('a group deleted while its team holds content leaves the team, no longer a group', async () => {
    const { org, scim } = await organization();
    const teamId = (await scim('POST', '/Groups', { displayName: 'Keepers' })).json<{
      id: string;
    }>().id;
    await createCollection(
      db,
      { team: { id: teamId, organizationId: org.id } },
      { name: 'Runbooks' },
    );
    expect((await scim('DELETE', `/Groups/${teamId}`)).statusCode).toBe(204);
    expect((await scim('GET', `/Groups/${teamId}`)).statusCode).toBe(404);
    const [team] = await db.select().from(teams).where(eq(teams.id, teamId));
    expect(team).toMatchObject({ name: 'Keepers' });
    const empty = (await scim('POST', '/Groups', { displayName: 'Passing' })).json<{ id: string }>()
      .id;
    expect((await scim('DELETE', `/Groups/${empty}`)).statusCode).toBe(204);
    expect(await db.select().from(teams).where(eq(teams.id, empty))).toEqual([]);
  });

  it('refuses a member who is not a User of the organization, changing nothing', async () => {
    const { scim } = await organization();
    const other = await organization();
    const stranger = (await other.scim('POST', '/Users', newUser('stranger@example.org'))).json<{
      id: string;
    }>().id;
    const teamId = (await scim('POST', '/Groups', { displayName: 'Closed' })).json<{ id: string }>()
      .id;
    const refused = await scim('PATCH', `/Groups/${teamId}`, {
      schemas: [PATCH],
      Operations: [{ op: 'add', path: 'members', value: [{ value: stranger }] }],
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ scimType: 'invalidValue' });
    expect(
      await db.select().from(teamMemberships).where(eq(teamMemberships.teamId, teamId)),
    ).toEqual([]);
  });
});

describe('bad requests change nothing', () => {
  it('answers malformed bodies, filters, paths and versions with SCIM errors', async () => {
    const { scim, token } = await organization();
    const id = (await scim('POST', '/Users', newUser('exact@example.org'))).json<{ id: string }>()
      .id;
    const before = await db.select().from(users).where(eq(users.id, id));

    const malformed = await app.inject({
      method: 'PATCH',
      url: `/scim/v2/Users/${id}`,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/scim+json' },
      payload: '{"Operations": [',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ scimType: 'invalidSyntax' });

    const cases: [string, unknown, number, string][] = [
      [
        'unknown op',
        { schemas: [PATCH], Operations: [{ op: 'move', path: 'active' }] },
        400,
        'invalidSyntax',
      ],
      ['no operations', { schemas: [PATCH], Operations: [] }, 400, 'invalidSyntax'],
      [
        'remove without path',
        { schemas: [PATCH], Operations: [{ op: 'remove' }] },
        400,
        'noTarget',
      ],
      [
        'active not a boolean',
        { schemas: [PATCH], Operations: [{ op: 'replace', path: 'active', value: 'maybe' }] },
        400,
        'invalidValue',
      ],
      [
        'id changed',
        { schemas: [PATCH], Operations: [{ op: 'replace', path: 'id', value: 'x' }] },
        400,
        'mutability',
      ],
    ];
    for (const [what, body, status, scimType] of cases) {
      const response = await scim('PATCH', `/Users/${id}`, body);
      expect({ what, status: response.statusCode, scimType: response.json().scimType }).toEqual({
        what,
        status,
        scimType,
      });
    }
    const stale = await app.inject({
      method: 'PUT',
      url: `/scim/v2/Users/${id}`,
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/scim+json',
        'if-match': 'W/"not-this-one"',
      },
      payload: JSON.stringify(newUser('exact@example.org', { active: false })),
    });
    expect(stale.statusCode).toBe(412);
    for (const filter of ['userName eq', 'nickName eq "x"', 'userName xx "a"', 'active eq "yes"']) {
      const response = await scim('GET', `/Users?filter=${encodeURIComponent(filter)}`);
      expect({ filter, status: response.statusCode, type: response.json().scimType }).toEqual({
        filter,
        status: 400,
        type: 'invalidFilter',
      });
    }
    expect(await db.select().from(users).where(eq(users.id, id))).toEqual(before);
  });

  it('refuses control characters in any text, in SCIM words, changing nothing', async () => {
    const { scim } = await organization();
    const id = (await scim('POST', '/Users', newUser('plain@example.org'))).json<{ id: string }>()
      .id;
    const before = await db.select().from(users).where(eq(users.id, id));
    for (const text of ['a\u0000b', 'a\u0007b', 'a\ud800b']) {
      const response = await scim('PATCH', `/Users/${id}`, {
        schemas: [PATCH],
        Operations: [{ op: 'replace', path: 'displayName', value: text }],
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ status: '400', scimType: 'invalidValue' });
    }
    expect(await db.select().from(users).where(eq(users.id, id))).toEqual(before);
  });

  it('pages, projects and filters as RFC 7644 says', async () => {
    const { scim } = await organization();
    for (const n of [1, 2, 3]) await scim('POST', '/Users', newUser(`pager${n}@example.org`));
    const page = await scim('GET', '/Users?filter=userName sw "pager"&startIndex=2&count=1');
    expect(page.json()).toMatchObject({ totalResults: 3, startIndex: 2, itemsPerPage: 1 });
    expect(page.json().Resources[0].userName).toBe('pager2@example.org');
    const countOnly = await scim('GET', '/Users?filter=userName sw "pager"&count=0');
    expect(countOnly.json()).toMatchObject({ totalResults: 3, itemsPerPage: 0, Resources: [] });
    const projected = await scim(
      'GET',
      '/Users?filter=userName eq "PAGER1@example.org"&attributes=userName,name.givenName',
    );
    expect(projected.json().Resources[0]).toEqual({
      schemas: [USER],
      id: expect.any(String),
      userName: 'pager1@example.org',
      name: { givenName: 'Ada' },
    });
    const or = await scim(
      'GET',
      `/Users?filter=${encodeURIComponent('userName eq "pager1@example.org" or emails[type eq "work" and value eq "pager3@example.org"]')}`,
    );
    expect(or.json().totalResults).toBe(2);
    const notActive = await scim(
      'GET',
      '/Users?filter=userName sw "pager" and not (active eq true)',
    );
    expect(notActive.json().totalResults).toBe(0);
  });
});

async function organizationAdminHeaders(organizationId: string) {
  const admin = await createUser(db, organizationId, { role: 'admin' });
  return signIn(app, admin);
}
