// Live updates of the menu (decision 0062) over HTTP: GET /api/consumer/menu/events is an
// event stream with its headers, told when something its person sees changes, ended after a
// sign-out answered here, and refused past its limits with the statuses and headers below.
// Who is told of what, how memberships are followed and which streams the session check ends
// are live.service.test.ts, against the hub and the database.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/app.ts';
import { DEFAULT_TIMINGS } from './live.hub.ts';
import {
  addTeamMember,
  createCollection,
  createLink,
  createOrganization,
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

let people: Record<'admin' | 'editor' | 'teamMember' | 'bystander' | 'stranger', Person>;
let teamCollection: { id: string; organizationId: string };
let teamId: string;

beforeAll(async () => {
  const org = await createOrganization(db);
  const person = (role: 'member' | 'admin' = 'member') => createPerson(app, db, org.id, role);
  people = {
    admin: await person('admin'),
    editor: await person(),
    teamMember: await person(),
    bystander: await person(),
    // An administrator of another organization.
    stranger: await createPerson(app, db, (await createOrganization(db)).id, 'admin'),
  };
  const team = await createTeam(db, org.id);
  teamId = team.id;
  await addTeamMember(db, team, people.editor.id, 'editor');
  await addTeamMember(db, team, people.teamMember.id);
  teamCollection = await createCollection(db, { team });
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

  it('turns a burst of changes into one or two events', async () => {
    const stream = await streamOf(people.teamMember);
    // Six transactions one after the other, usually within a few milliseconds.
    const started = performance.now();
    for (let i = 0; i < 6; i += 1) await createLink(db, teamCollection);
    const spread = performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
    // A stream is told at most once per coalescing window, and once more at its end: within
    // one window that is one or two events; a slow machine spreads the burst over more.
    const windows = Math.ceil(spread / DEFAULT_TIMINGS.coalesceMs);
    expect(stream.queued.length).toBeGreaterThanOrEqual(1);
    expect(stream.queued.length).toBeLessThanOrEqual(Math.min(6, 1 + Math.max(1, windows)));
    expect(new Set(stream.queued)).toEqual(new Set(['menu']));
  });
});

describe("the console's stream of a team's space", () => {
  const path = () => `/api/admin/teams/${teamId}/space/events`;

  it('tells an administrator outside the team when an editor changes its space', async () => {
    const stream = await openStream(app, people.admin.headers, path());
    opened.push(stream);
    expect(stream.status, stream.body).toBe(200);
    expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(stream.headers['cache-control']).toBe('no-store, no-transform');
    expect(await stream.next()).toBe('ready');
    // The administrator's portal stream hears no team they are not in.
    const portal = await streamOf(people.admin);
    await addLink(people.editor, teamCollection.id);
    expect(await stream.next()).toBe('menu');
    await expectQuiet(portal);
  });

  it("is refused, as the team's space is, to whoever does not run the team", async () => {
    const refusals: [Person | null, string, number][] = [
      [null, path(), 401],
      [people.teamMember, path(), 403],
      [people.bystander, path(), 404],
      [people.stranger, path(), 404],
      [people.admin, '/api/admin/teams/unknown-team-00000000/space/events', 404],
    ];
    for (const [who, address, status] of refusals) {
      const refused = await openStream(app, who?.headers ?? {}, address);
      expect(refused.status, `${who?.email ?? 'nobody'} ${address}`).toBe(status);
      expect(refused.headers['content-type']).toMatch(/^application\/json/);
      expect(JSON.parse(refused.body)).toHaveProperty('message');
    }
    expect(app.services.live.size).toBe(0);
  });

  it("gives the team's editors the same stream", async () => {
    const stream = await openStream(app, people.editor.headers, path());
    opened.push(stream);
    expect(stream.status, stream.body).toBe(200);
    expect(await stream.next()).toBe('ready');
    await addLink(people.editor, teamCollection.id);
    expect(await stream.next()).toBe('menu');
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
