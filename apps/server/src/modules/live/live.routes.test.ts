// Live updates of the menu (decision 0062): the stream of GET /api/consumer/menu/events is
// told exactly when something its person sees changes, follows memberships as they change,
// ends with the session, and keeps to its limits. Real app, real migrations, both databases.
import { eq, sql } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sessions, users } from '../../db/schema/index.ts';
import { hashToken } from '../auth/auth.service.ts';
import { createTestApp } from '../../../test/app.ts';
import {
  addTeamMember,
  createCollection,
  createLink,
  createOrganization,
  createShare,
  createTeam,
  signIn,
} from '../../../test/factories.ts';
import { call } from '../../../test/support/consumer-call.ts';
import { createPerson, type Person } from '../../../test/support/world.ts';
import { openStream, type OpenedStream } from '../../../test/support/live-stream.ts';

const { app, db } = await createTestApp({
  LIVE_MAX_STREAMS: '12',
  LIVE_MAX_STREAMS_PER_SESSION: '3',
});

/** How long a stream must stay quiet to count as not told. */
const QUIET_MS = 600;

const opened: OpenedStream[] = [];
afterEach(async () => {
  for (const stream of opened.splice(0)) stream.close();
  // The server sees the closes before the next test counts streams.
  await expect.poll(() => app.services.live.size).toBe(0);
});

/** Opens a person's stream and waits for its `ready`. */
async function streamOf(who: { headers: Record<string, string> }) {
  const stream = await openStream(app, who.headers);
  opened.push(stream);
  expect(stream.status, stream.body).toBe(200);
  expect(await stream.next()).toBe('ready');
  return stream;
}

/** Asserts that nothing arrives on these streams for a while. */
async function expectQuiet(...streams: OpenedStream[]) {
  await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
  for (const stream of streams) expect(stream.queued).toEqual([]);
}

const addLink = async (who: Person, collectionId: string) => {
  const response = await call(app, 'POST', `/collections/${collectionId}/links`, who, {
    name: 'A new link',
    url: 'https://example.com/new',
  });
  expect(response.statusCode, response.body).toBe(204);
};

let org: { id: string };
let people: Record<
  'admin' | 'owner' | 'shareMember' | 'editor' | 'teamMember' | 'bystander' | 'stranger',
  Person
>;
let team: { id: string; organizationId: string };
let otherTeam: { id: string; organizationId: string };
let teamCollection: { id: string; organizationId: string };
let otherTeamCollection: { id: string };
let orgCollection: { id: string };
let sharedCollection: { id: string };
let share: { id: string };
let strangerCollection: { id: string };

beforeAll(async () => {
  org = await createOrganization(db);
  const other = await createOrganization(db);
  const person = (role: 'member' | 'admin' = 'member', organizationId = org.id) =>
    createPerson(app, db, organizationId, role);
  people = {
    admin: await person('admin'),
    owner: await person(),
    shareMember: await person(),
    editor: await person(),
    teamMember: await person(),
    bystander: await person(),
    stranger: await person('admin', other.id),
  };
  team = await createTeam(db, org.id);
  otherTeam = await createTeam(db, org.id);
  await addTeamMember(db, team, people.editor.id, 'editor');
  await addTeamMember(db, team, people.teamMember.id);
  await addTeamMember(db, otherTeam, people.bystander.id, 'editor');
  teamCollection = await createCollection(db, { team });
  otherTeamCollection = await createCollection(db, { team: otherTeam });
  orgCollection = await createCollection(db, { organizationId: org.id });
  sharedCollection = await createCollection(db, { user: people.owner });
  share = await createShare(db, people.owner, sharedCollection.id, [people.shareMember.id]);
  strangerCollection = await createCollection(db, { organizationId: other.id });
});

describe('the menu event stream', () => {
  it('is an uncompressed, uncached event stream that opens with ready', async () => {
    const stream = await openStream(app, {
      ...people.teamMember.headers,
      'accept-encoding': 'gzip, deflate, br',
    });
    opened.push(stream);
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(stream.headers['cache-control']).toBe('no-store, no-transform');
    expect(stream.headers['x-accel-buffering']).toBe('no');
    expect(stream.headers['content-encoding']).toBeUndefined();
    expect(stream.headers['content-length']).toBeUndefined();
    // The application's security headers are there too.
    expect(stream.headers['x-content-type-options']).toBe('nosniff');
    expect(await stream.next()).toBe('ready');
  });

  it('needs a live session, like every call', async () => {
    const none = await openStream(app, {});
    expect(none.status).toBe(401);
    expect(JSON.parse(none.body)).toMatchObject({ code: 'UNAUTHORIZED' });
    const wrong = await openStream(app, { authorization: `Bearer ${'x'.repeat(43)}` });
    expect(wrong.status).toBe(401);
    expect(app.services.live.size).toBe(0);
  });

  it('tells a team member when an editor adds a link to the team', async () => {
    const member = await streamOf(people.teamMember);
    const bystander = await streamOf(people.bystander);
    await addLink(people.editor, teamCollection.id);
    expect(await member.next()).toBe('menu');
    // Someone of the organization outside the team is told nothing.
    await expectQuiet(member, bystander);
  });

  it("tells a share's member when its owner adds a link, and nobody else", async () => {
    const member = await streamOf(people.shareMember);
    const teamMember = await streamOf(people.teamMember);
    await addLink(people.owner, sharedCollection.id);
    expect(await member.next()).toBe('menu');
    await expectQuiet(member, teamMember);
  });

  it("tells everyone of the organization when its space changes, and no one of another's", async () => {
    const streams = await Promise.all(
      (['owner', 'shareMember', 'teamMember', 'bystander'] as const).map((name) =>
        streamOf(people[name]),
      ),
    );
    const stranger = await streamOf(people.stranger);
    await addLink(people.admin, orgCollection.id);
    for (const stream of streams) expect(await stream.next()).toBe('menu');
    await expectQuiet(stranger, ...streams);
  });

  it('tells nobody of a change in a space they cannot see, or in another organization', async () => {
    const streams = await Promise.all(
      (['shareMember', 'teamMember', 'editor', 'admin'] as const).map((name) =>
        streamOf(people[name]),
      ),
    );
    // Another team's space (the administrator is in no team: not told either).
    await addLink(people.bystander, otherTeamCollection.id);
    // Someone's private collection.
    await addLink(people.owner, people.owner.rootId);
    // Another organization's space.
    await addLink(people.stranger, strangerCollection.id);
    await expectQuiet(...streams);
    // The streams were listening all along: a change they see arrives.
    await addLink(people.admin, orgCollection.id);
    for (const stream of streams) expect(await stream.next()).toBe('menu');
  });

  it("starts telling a person of a team's changes once they join it, and stops once they leave", async () => {
    const newcomer = await createPerson(app, db, org.id);
    const stream = await streamOf(newcomer);
    await addLink(people.editor, teamCollection.id);
    await expectQuiet(stream);

    const added = await app.inject({
      method: 'POST',
      url: `/api/admin/teams/${team.id}/members`,
      headers: people.admin.headers,
      payload: { userIds: [newcomer.id] },
    });
    expect(added.statusCode, added.body).toBe(200);
    // Joining changes their menu (the team's space appears).
    expect(await stream.next()).toBe('menu');
    await expect.poll(() => app.services.live.listeners(`t:${team.id}`)).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 150));
    await addLink(people.editor, teamCollection.id);
    expect(await stream.next()).toBe('menu');

    const removed = await app.inject({
      method: 'POST',
      url: `/api/admin/teams/${team.id}/members/remove`,
      headers: people.admin.headers,
      payload: { userIds: [newcomer.id] },
    });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(await stream.next()).toBe('menu');
    await new Promise((resolve) => setTimeout(resolve, 150));
    await addLink(people.editor, teamCollection.id);
    await expectQuiet(stream);
  });

  it("starts telling a person of a share's changes once they are added to it", async () => {
    const newcomer = await createPerson(app, db, org.id);
    const stream = await streamOf(newcomer);
    const added = await call(app, 'POST', `/collection-shares/${share.id}/members`, people.owner, {
      memberIds: [newcomer.id],
    });
    expect(added.statusCode, added.body).toBe(204);
    // Only the share's scope was announced: the hub looked up who is in it.
    expect(await stream.next()).toBe('menu');
    await new Promise((resolve) => setTimeout(resolve, 150));
    await addLink(people.owner, sharedCollection.id);
    expect(await stream.next()).toBe('menu');

    const removed = await call(
      app,
      'DELETE',
      `/collection-shares/${share.id}/members/${newcomer.id}`,
      people.owner,
    );
    expect(removed.statusCode, removed.body).toBe(204);
    expect(await stream.next()).toBe('menu');
    await new Promise((resolve) => setTimeout(resolve, 150));
    await addLink(people.owner, sharedCollection.id);
    await expectQuiet(stream);
  });

  it('turns a burst of changes into one or two events', async () => {
    const stream = await streamOf(people.teamMember);
    // Six transactions one after the other, within a few milliseconds.
    for (let i = 0; i < 6; i += 1) await createLink(db, teamCollection);
    await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
    expect(stream.queued.length).toBeGreaterThanOrEqual(1);
    expect(stream.queued.length).toBeLessThanOrEqual(2);
    expect(new Set(stream.queued)).toEqual(new Set(['menu']));
  });
});

describe('the end of a stream', () => {
  it('ends with session-ended when the person signs out', async () => {
    const session = await signIn(app, people.teamMember);
    const stream = await streamOf(session);
    const other = await streamOf(people.teamMember);
    const out = await app.inject({
      method: 'DELETE',
      url: '/api/auth/sessions/current',
      headers: session.headers,
    });
    expect(out.statusCode).toBe(204);
    expect(await stream.next()).toBe('session-ended');
    await stream.ended;
    // The person's other session keeps its stream.
    await addLink(people.editor, teamCollection.id);
    expect(await other.next()).toBe('menu');
  });

  it('ends when the session is revoked elsewhere (found by the session check)', async () => {
    const session = await signIn(app, people.shareMember);
    const stream = await streamOf(session);
    // Revoked by another instance: nothing here answered the request.
    await db
      .update(sessions)
      .set({ revokedAt: sql`now()` })
      .where(eq(sessions.tokenHash, hashToken(session.token)));
    await app.services.live.checkSessions();
    expect(await stream.next()).toBe('session-ended');
    await stream.ended;
    expect(app.services.live.size).toBe(0);
  });

  it('ends when the person is disabled, on any instance (announced with their scope)', async () => {
    const person = await createPerson(app, db, org.id);
    const stream = await streamOf(person);
    await db.update(users).set({ status: 'disabled' }).where(eq(users.id, person.id));
    expect(await stream.next()).toBe('session-ended');
    await stream.ended;
  });
});

describe('the limits of streams', () => {
  it('refuses a session more streams than it may have (429), and another session may open', async () => {
    const session = await signIn(app, people.editor);
    for (let i = 0; i < 3; i += 1) await streamOf(session);
    const fourth = await openStream(app, session.headers);
    expect(fourth.status).toBe(429);
    expect(JSON.parse(fourth.body)).toMatchObject({ code: 'RATE_LIMITED' });
    await streamOf(people.editor);
    expect(app.services.live.size).toBe(4);
  });

  it('refuses more streams than the instance allows (503 with Retry-After)', async () => {
    for (let n = 0; n < 4; n += 1) {
      const session = await signIn(app, people.bystander);
      for (let i = 0; i < 3; i += 1) await streamOf(session);
    }
    expect(app.services.live.size).toBe(12);
    const refused = await openStream(app, people.admin.headers);
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBe('30');
    expect(JSON.parse(refused.body)).toMatchObject({ code: 'RATE_LIMITED' });
  });
});
