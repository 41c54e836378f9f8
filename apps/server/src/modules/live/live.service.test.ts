// Live updates of the menu (decision 0062) against the server's hub and its real repository
// on the test database: what a transaction announces reaches the hub through its listener,
// as on a running server, and the hub tells exactly the streams whose person sees a changed
// scope, reads a person's scopes again when their memberships change, and ends the streams
// of sessions and people that are no longer live. Frames go to sinks in memory; the stream
// over HTTP is live.routes.test.ts.
import { eq, sql } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { sessions, users } from '../../db/schema/index.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { createTestServices } from '../../../test/app.ts';
import {
  addTeamMember,
  createCollection,
  createOrganization,
  createShare,
  createTeam,
  createUser,
  PASSWORD,
} from '../../../test/factories.ts';
import { FRAMES, type Sink } from './live.hub.ts';
import { createListener } from './live.listener.ts';
import { scopeKeys, type Credential } from './live.types.ts';

const { services, database, db } = await createTestServices();
const { auth, live } = services;
const origin = { ip: '10.0.0.9', userAgent: 'Firefox' };

/** A response in memory: the frames written to it, and whether it was ended. */
class MemorySink implements Sink {
  readonly frames: string[] = [];
  ended = false;
  readonly writableLength = 0;
  write(chunk: string) {
    this.frames.push(chunk);
    return true;
  }
  end() {
    this.ended = true;
  }
  destroy() {
    this.ended = true;
  }
}

const NAMES = new Map<string, string>([
  [FRAMES.ready, 'ready'],
  [FRAMES.menu, 'menu'],
  [FRAMES.ended, 'session-ended'],
]);
/** The events a sink received, by name. */
const events = (sink: MemorySink) => sink.frames.map((frame) => NAMES.get(frame) ?? frame);

let address = 0;
async function signIn(user: { email: string }) {
  const token = await auth.login({
    email: user.email,
    password: PASSWORD,
    ip: `10.7.0.${(address += 1)}`,
    userAgent: undefined,
  });
  return { token, me: (await auth.authenticate(token))! };
}

/** A person of the organization, signed in. */
async function person(organizationId: string, role: 'member' | 'admin' = 'member') {
  const user = await createUser(db, organizationId, { role });
  return { ...user, ...(await signIn(user)) };
}
type Person = Awaited<ReturnType<typeof person>>;

const opened: { close: () => void }[] = [];
afterEach(() => {
  for (const stream of opened.splice(0)) stream.close();
});

/**
 * Opens a stream on the hub as the menu's route does, for the bearer of a token; with `team`,
 * as the console's route for that team's space does, once the menu service let them.
 */
async function streamOf(who: { token: string }, team?: string) {
  const me = (await auth.authenticate(who.token, true)) as AuthContext;
  const credential: Credential = me.sessionId
    ? { kind: 'session', id: me.sessionId }
    : { kind: 'token', id: me.accessTokenId! };
  expect(live.refusal(credential)).toBeNull();
  if (team) await services.menu.assertRunsTeam(me, team);
  const sink = new MemorySink();
  opened.push(
    live.open(sink, {
      userId: me.userId,
      credential,
      scopes: scopeKeys(me.menuScopes),
      ...(team ? { team } : {}),
    }),
  );
  return sink;
}

const org = await createOrganization(db);
const otherOrg = await createOrganization(db);
const people = {
  admin: await person(org.id, 'admin'),
  owner: await person(org.id),
  shareMember: await person(org.id),
  editor: await person(org.id),
  teamMember: await person(org.id),
  bystander: await person(org.id),
  stranger: await person(otherOrg.id, 'admin'),
};
const team = await createTeam(db, org.id);
const otherTeam = await createTeam(db, org.id);
await addTeamMember(db, team, people.editor.id, 'editor');
await addTeamMember(db, team, people.teamMember.id);
await addTeamMember(db, otherTeam, people.bystander.id, 'editor');
const teamCollection = await createCollection(db, { team });
const otherTeamCollection = await createCollection(db, { team: otherTeam });
const orgCollection = await createCollection(db, { organizationId: org.id });
const sharedCollection = await createCollection(db, { user: people.owner });
const share = await createShare(db, people.owner, sharedCollection.id, [people.shareMember.id]);
const strangerCollection = await createCollection(db, { organizationId: otherOrg.id });

// The database's announcements from here on reach the hub, as the root wires them.
const heard: string[] = [];
const listener = createListener(
  database,
  {
    notification: (payload) => {
      live.handle(payload);
      heard.push(payload);
    },
    resync: () => live.resync(),
  },
  pino({ level: 'silent' }),
);
await listener.start();
afterAll(async () => {
  await listener.stop();
  live.close();
});

/** Runs a write, then waits until the hub has handled the announcement naming `scope`. */
async function announcing(scope: string, write: () => Promise<unknown>) {
  const from = heard.length;
  await write();
  await vi.waitFor(() =>
    expect(heard.slice(from).some((payload) => payload.split(' ').includes(scope))).toBe(true),
  );
}

/** Adds a link to a collection as someone, through the links service. */
const addLink = (who: Person, collectionId: string) =>
  services.links.createLink(
    who.me,
    collectionId,
    { name: 'A new link', url: 'https://example.com/new' },
    origin,
  );

describe('who is told of a change', () => {
  it("tells a share's members when its owner adds a link, and nobody else", async () => {
    const member = await streamOf(people.shareMember);
    const teamMember = await streamOf(people.teamMember);
    await announcing(`s:${share.id}`, () => addLink(people.owner, sharedCollection.id));
    await vi.waitFor(() => expect(events(member)).toEqual(['ready', 'menu']));
    expect(events(teamMember)).toEqual(['ready']);
  });

  it("tells everyone of the organization when its space changes, and no one of another's", async () => {
    const streams = await Promise.all(
      (['owner', 'shareMember', 'teamMember', 'bystander'] as const).map((name) =>
        streamOf(people[name]),
      ),
    );
    const stranger = await streamOf(people.stranger);
    await announcing(`o:${org.id}`, () => addLink(people.admin, orgCollection.id));
    for (const stream of streams) expect(events(stream)).toEqual(['ready', 'menu']);
    expect(events(stranger)).toEqual(['ready']);
  });

  it('tells nobody of a change in a space they cannot see, or in another organization', async () => {
    const streams = await Promise.all(
      (['shareMember', 'teamMember', 'editor', 'admin'] as const).map((name) =>
        streamOf(people[name]),
      ),
    );
    // Another team's space (the administrator is in no team: not told either).
    await announcing(`t:${otherTeam.id}`, () => addLink(people.bystander, otherTeamCollection.id));
    // Someone's private collection.
    await announcing(`p:${people.owner.id}`, () => addLink(people.owner, people.owner.rootId));
    // Another organization's space.
    await announcing(`o:${otherOrg.id}`, () => addLink(people.stranger, strangerCollection.id));
    for (const stream of streams) expect(events(stream)).toEqual(['ready']);
    // The streams were listening all along: a change they see arrives.
    await announcing(`o:${org.id}`, () => addLink(people.admin, orgCollection.id));
    for (const stream of streams) expect(events(stream)).toEqual(['ready', 'menu']);
  });
});

describe("a team's space followed in the console", () => {
  it('tells an administrator outside the team of its changes, and of no other team', async () => {
    const admin = await person(org.id, 'admin');
    const plain = await streamOf(admin);
    const console = await streamOf(admin, team.id);
    expect(live.listeners(`te:${team.id}`)).toBe(1);
    await announcing(`t:${team.id}`, () => addLink(people.editor, teamCollection.id));
    await vi.waitFor(() => expect(events(console)).toEqual(['ready', 'menu']));
    // Their portal's stream hears no team they are not in.
    expect(events(plain)).toEqual(['ready']);
    await announcing(`t:${otherTeam.id}`, () => addLink(people.bystander, otherTeamCollection.id));
    expect(events(console)).toEqual(['ready', 'menu']);
  });

  it('refuses the people who do not run the team, as reading its space does', async () => {
    const refusal = (who: Person, teamId = team.id) =>
      services.menu.assertRunsTeam(who.me, teamId).then(
        () => null,
        (error: { statusCode?: number }) => error.statusCode,
      );
    expect(await refusal(people.teamMember)).toBe(403);
    expect(await refusal(people.bystander)).toBe(404);
    expect(await refusal(people.stranger)).toBe(404);
    expect(await refusal(people.admin, 'no-such-team-0000000')).toBe(404);
    expect(await refusal(people.admin)).toBeNull();
    expect(await refusal(people.editor)).toBeNull();
  });

  it('stops telling an administrator of the team once they are no longer one', async () => {
    const admin = await person(org.id, 'admin');
    const console = await streamOf(admin, team.id);
    const before = live.listeners(`t:${team.id}`);
    // Their role is theirs: the change announces their own scope, and the hub checks again.
    await announcing(`p:${admin.id}`, () =>
      db.update(users).set({ role: 'member' }).where(eq(users.id, admin.id)),
    );
    await vi.waitFor(() => expect(events(console)).toEqual(['ready', 'menu']));
    expect(live.listeners(`t:${team.id}`)).toBe(before - 1);
    expect(live.listeners(`te:${team.id}`)).toBe(0);
    await announcing(`t:${team.id}`, () => addLink(people.editor, teamCollection.id));
    expect(events(console)).toEqual(['ready', 'menu']);
    expect(console.ended).toBe(false);
  });

  it("keeps an editor's team, and stops its editors' part once they are only a member", async () => {
    const editor = await person(org.id);
    await addTeamMember(db, team, editor.id, 'editor');
    const console = await streamOf(await signIn(editor), team.id);
    await announcing(`t:${team.id}`, () => addLink(people.editor, teamCollection.id));
    await vi.waitFor(() => expect(events(console)).toEqual(['ready', 'menu']));
    await services.teams.setMemberRole(people.admin.me, origin, team.id, editor.id, 'member');
    await vi.waitFor(() => expect(events(console)).toEqual(['ready', 'menu', 'menu']));
    // A member still hears the team's space (their portal shows it), not what its editors see.
    await announcing(`t:${team.id}`, () => addLink(people.editor, teamCollection.id));
    await vi.waitFor(() => expect(events(console)).toEqual(['ready', 'menu', 'menu', 'menu']));
    expect(live.listeners(`te:${team.id}`)).toBe(0);
  });
});

describe('memberships that change', () => {
  it("reads a person's scopes again when they join a team, and again when they leave it", async () => {
    const newcomer = await person(org.id);
    const stream = await streamOf(newcomer);
    await announcing(`t:${team.id}`, () => addLink(people.editor, teamCollection.id));
    expect(events(stream)).toEqual(['ready']);

    await services.teams.addMembers(people.admin.me, origin, team.id, { userIds: [newcomer.id] });
    // Joining changes their menu (the team's space appears), and they hear the team now.
    await vi.waitFor(() => expect(events(stream)).toEqual(['ready', 'menu']));
    expect(live.listeners(`t:${team.id}`)).toBe(1);
    await addLink(people.editor, teamCollection.id);
    await vi.waitFor(() => expect(events(stream)).toEqual(['ready', 'menu', 'menu']));

    await services.teams.removeMembers(people.admin.me, origin, team.id, {
      userIds: [newcomer.id],
    });
    await vi.waitFor(() => expect(events(stream)).toEqual(['ready', 'menu', 'menu', 'menu']));
    expect(live.listeners(`t:${team.id}`)).toBe(0);
    await announcing(`t:${team.id}`, () => addLink(people.editor, teamCollection.id));
    expect(events(stream)).toEqual(['ready', 'menu', 'menu', 'menu']);
  });

  it('looks up the people of a share that changed, so that someone just added hears it', async () => {
    const newcomer = await person(org.id);
    const stream = await streamOf(newcomer);
    const member = await streamOf(people.shareMember);
    // Only the share's scope is announced, which the newcomer's stream does not hear yet.
    await services.shares.addMembers(people.owner.me, share.id, [newcomer.id], origin);
    await vi.waitFor(() => expect(events(stream)).toEqual(['ready', 'menu']));
    expect(live.listeners(`s:${share.id}`)).toBe(2);
    await addLink(people.owner, sharedCollection.id);
    await vi.waitFor(() => expect(events(stream)).toEqual(['ready', 'menu', 'menu']));

    await services.shares.removeMember(people.owner.me, share.id, newcomer.id, origin);
    await vi.waitFor(() => expect(events(stream)).toEqual(['ready', 'menu', 'menu', 'menu']));
    expect(live.listeners(`s:${share.id}`)).toBe(1);
    // A change of the share reaches its member, and no longer the newcomer.
    const told = events(member).length;
    await announcing(`s:${share.id}`, () => addLink(people.owner, sharedCollection.id));
    await vi.waitFor(() => expect(events(member).length).toBeGreaterThan(told));
    expect(events(stream)).toEqual(['ready', 'menu', 'menu', 'menu']);
  });
});

describe('the end of a stream', () => {
  it('ends the streams of a person who is disabled, announced with their scope', async () => {
    const disabled = await person(org.id);
    const streams = [await streamOf(disabled), await streamOf(await signIn(disabled))];
    await db.update(users).set({ status: 'disabled' }).where(eq(users.id, disabled.id));
    for (const stream of streams) {
      await vi.waitFor(() => expect(stream.ended).toBe(true));
      expect(events(stream)).toEqual(['ready', 'session-ended']);
    }
    expect(live.size).toBe(0);
  });

  it('ends at the session check the streams whose session or token is no longer live, touching none', async () => {
    const owner = await person(org.id);
    const token = async (name: string) => {
      const made = await services.accessTokens.create(owner.me, origin, { name });
      return { token: made.token, id: made.accessToken.id };
    };
    const [signedOut, endedElsewhere, idle] = [
      await signIn(owner),
      await signIn(owner),
      await signIn(owner),
    ];
    const [liveToken, revokedToken, expiredToken] = [
      await token('live'),
      await token('revoked'),
      await token('expired'),
    ];
    const kept = [await streamOf(owner), await streamOf(liveToken)];
    const ended = [
      await streamOf(signedOut),
      await streamOf(endedElsewhere),
      await streamOf(idle),
      await streamOf(revokedToken),
      await streamOf(expiredToken),
    ];
    // Ended elsewhere, or on another instance: nothing tells this hub but its check.
    await auth.logout(signedOut.me, origin);
    await auth.endSession(owner.me, endedElsewhere.me.sessionId!, origin);
    await db
      .update(sessions)
      .set({ lastSeenAt: sql`now() - interval '8 days'` })
      .where(eq(sessions.id, idle.me.sessionId!));
    await services.accessTokens.revoke(owner.me, origin, revokedToken.id);
    await db.execute(
      sql`UPDATE access_tokens SET expires_at = now() - interval '1 second' WHERE id = ${expiredToken.id}`,
    );
    const lastSeen = async () =>
      (await db.select().from(sessions).where(eq(sessions.id, owner.me.sessionId!)))[0]?.lastSeenAt;
    const before = await lastSeen();

    await live.checkSessions();
    for (const stream of ended) {
      expect(events(stream)).toEqual(['ready', 'session-ended']);
      expect(stream.ended).toBe(true);
    }
    for (const stream of kept) {
      expect(events(stream)).toEqual(['ready']);
      expect(stream.ended).toBe(false);
    }
    expect(live.size).toBe(2);
    // An open stream does not keep its session from going idle.
    expect(await lastSeen()).toEqual(before);
  });
});
