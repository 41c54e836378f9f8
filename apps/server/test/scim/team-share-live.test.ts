// A collection shared with a team follows the team however it changes (decision 0086): a
// person who joins it sees the collection, one who leaves stops seeing it, in their menu and
// their live-update stream within a second of the change — whether the console, SCIM or a
// sign-in's groups (through a real OpenID provider) changed the team.
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../app.ts';
import {
  addTeamMember,
  createCollection,
  createOrganization,
  createTeam,
  createUser,
  signIn,
} from '../factories.ts';
import { openStream } from '../support/live-stream.ts';
import { browserSignIn, sessionTokenOf } from '../support/sso-browser.ts';
import { ssoProviders } from '../support/sso-app.ts';

const { idp, env } = await ssoProviders();
const { app, db } = await createTestApp(env);
const org = await createOrganization(db, { name: 'Acme' });
const admin = await createUser(db, org.id, { role: 'admin' });
const adminSession = await signIn(app, admin);
const team = await createTeam(db, org.id, { name: 'Engineering' });
const owner = await createUser(db, org.id);
await addTeamMember(db, team, owner.id);
const ownerSession = await signIn(app, owner);
const collection = await createCollection(db, { user: owner }, { name: 'Runbooks' });
const shared = await app.inject({
  method: 'POST',
  url: '/api/consumer/collection-shares/',
  headers: ownerSession.headers,
  payload: { collectionId: collection.id, memberIds: [], teamIds: [team.id] },
});
expect(shared.statusCode, shared.body).toBe(204);

const scimToken = (
  await app.inject({
    method: 'POST',
    url: '/api/admin/scim-tokens',
    headers: adminSession.headers,
    payload: { name: 'Okta' },
  })
).json<{ token: string }>().token;
const mapped = await app.inject({
  method: 'PUT',
  url: '/api/admin/sso-groups/acme',
  headers: adminSession.headers,
  payload: {
    claim: 'groups',
    mappings: [{ group: 'eng', teamId: team.id, role: 'member', admin: false }],
  },
});
expect(mapped.statusCode, mapped.body).toBe(200);

const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const WITHIN_MS = 1000;

const scimPatchGroup = (operation: object) =>
  app.inject({
    method: 'PATCH',
    url: `/scim/v2/Groups/${team.id}`,
    headers: { authorization: `Bearer ${scimToken}`, 'content-type': 'application/scim+json' },
    payload: JSON.stringify({ schemas: [PATCH], Operations: [operation] }),
  });
const consoleChange = (verb: 'add' | 'remove', userId: string) =>
  app.inject({
    method: 'POST',
    url: `/api/admin/teams/${team.id}/members${verb === 'remove' ? '/remove' : ''}`,
    headers: adminSession.headers,
    payload: { userIds: [userId] },
  });

/** Whether the person's menu shows the shared collection (in shared-root). */
async function seesIt(headers: Record<string, string>) {
  const menu = await app.inject({ method: 'GET', url: '/api/consumer/menu', headers });
  expect(menu.statusCode).toBe(200);
  return menu.body.includes(`"id":"${collection.id}"`);
}

let accountNumber = 0;
/** Someone who signs in through the provider; their first sign-in makes them, in no group. */
async function ssoPerson() {
  accountNumber += 1;
  const who = {
    sub: `team-share-${accountNumber}-${Date.now()}`,
    email: `team-share${accountNumber}-${Date.now()}@acme.test`,
    email_verified: true,
    name: `Shared ${accountNumber}`,
  };
  const signInWith = async (groups: string[]) => {
    idp.nextLogin = { ...who, groups };
    const { location } = await browserSignIn(app, 'acme');
    const token = sessionTokenOf(location);
    expect(token, location).not.toBeNull();
    return { authorization: `Bearer ${token}` };
  };
  const headers = await signInWith([]);
  const me = await app.inject({ method: 'GET', url: '/api/consumer/menu', headers });
  const id = me.json<{ profile: { id: string } }>().profile.id;
  return { id, headers, signInWith };
}

/** A person with an open stream; `change` must bring a menu event within a second. */
async function eventWithin(headers: Record<string, string>, change: () => Promise<unknown>) {
  const stream = await openStream(app, headers);
  expect(await stream.next()).toBe('ready');
  const started = performance.now();
  const answer = (await change()) as { statusCode: number; body: string };
  expect(answer.statusCode, answer.body).toBeLessThan(300);
  expect(await stream.next(WITHIN_MS)).toBe('menu');
  const took = performance.now() - started;
  stream.close();
  expect(took).toBeLessThan(WITHIN_MS);
}

describe('a team share follows the team, live', () => {
  it('by the console', async () => {
    const person = await createUser(db, org.id);
    const { headers } = await signIn(app, person);
    expect(await seesIt(headers)).toBe(false);
    await eventWithin(headers, () => consoleChange('add', person.id));
    expect(await seesIt(headers)).toBe(true);
    await eventWithin(headers, () => consoleChange('remove', person.id));
    expect(await seesIt(headers)).toBe(false);
  });

  it('by SCIM', async () => {
    const person = await createUser(db, org.id);
    const { headers } = await signIn(app, person);
    await eventWithin(headers, () =>
      scimPatchGroup({ op: 'add', path: 'members', value: [{ value: person.id }] }),
    );
    expect(await seesIt(headers)).toBe(true);
    await eventWithin(headers, () =>
      scimPatchGroup({ op: 'remove', path: `members[value eq "${person.id}"]` }),
    );
    expect(await seesIt(headers)).toBe(false);
  });

  it('by a sign-in’s groups', async () => {
    const person = await ssoPerson();
    expect(await seesIt(person.headers)).toBe(false);
    await eventWithin(person.headers, () =>
      person.signInWith(['eng']).then(() => ({ statusCode: 200, body: '' })),
    );
    expect(await seesIt(person.headers)).toBe(true);
    await eventWithin(person.headers, () =>
      person.signInWith([]).then(() => ({ statusCode: 200, body: '' })),
    );
    expect(await seesIt(person.headers)).toBe(false);
  });
});
