// Sharing a personal collection with whole teams (decision 0086): who may share with which
// team; members who join the team later see it and members who leave stop seeing it, however
// the team changed (console, SCIM, a sign-in's groups: all write team_memberships, which the
// triggers of migration 0023 follow); people named by the share and through several teams
// keep it while any holds; leaving, removing and undoing; refusals that change nothing.
import { and, asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, shareMembers, shareTeams, teams } from '../../db/schema/index.ts';
import { createTestServices } from '../../../test/app.ts';
import {
  addTeamMember,
  countRows,
  createCollection,
  createLink,
  createOrganization,
  createTeam,
  createUser,
} from '../../../test/factories.ts';
import { expectServiceRefused } from '../../../test/support/refused.ts';
import { callerOf } from '../../../test/support/callers.ts';

const { services, db } = await createTestServices();
const { shares } = services;
const org = await createOrganization(db);
const otherOrg = await createOrganization(db);
const ORIGIN = { ip: '10.9.8.7', userAgent: 'Browser' };

/** A call that must be refused with `status` and this message, writing nothing. */
const refused = (call: () => Promise<unknown>, status: number, message: string | RegExp) =>
  expectServiceRefused(db, call, status, message);

/** Everyone who sees the share, with whether the share names them. */
async function membersOf(shareId: string) {
  const rows = await db
    .select({ userId: shareMembers.userId, direct: shareMembers.direct })
    .from(shareMembers)
    .where(eq(shareMembers.shareId, shareId));
  return Object.fromEntries(rows.map((row) => [row.userId, row.direct]));
}
const ids = (members: Record<string, boolean>) => Object.keys(members).sort();

async function shareIdOf(collectionId: string) {
  const share = await db.query.collectionShares.findFirst({
    where: (s, { eq: is }) => is(s.collectionId, collectionId),
  });
  return share!.id;
}

/**
 * An owner in a team of three (the owner, ann, bob) with a collection shared with that team
 * and nobody else; cid is a colleague in no team.
 */
let teamNumber = 0;
async function teamShare() {
  const owner = await createUser(db, org.id);
  const ann = await createUser(db, org.id);
  const bob = await createUser(db, org.id);
  const cid = await createUser(db, org.id);
  const team = await createTeam(db, org.id, { name: `Platform ${(teamNumber += 1)}` });
  for (const person of [owner, ann, bob]) await addTeamMember(db, team, person.id);
  const collection = await createCollection(db, { user: owner }, { name: 'Runbooks' });
  const me = callerOf(owner);
  await shares.createShare(me, collection.id, [], ORIGIN, [team.id]);
  return { owner, me, ann, bob, cid, team, collection, shareId: await shareIdOf(collection.id) };
}

const admin = await createUser(db, org.id, { role: 'admin' });
const asAdmin = { ...callerOf(admin), recentlyAuthenticated: true };

describe('sharing with a team', () => {
  it('makes every member of the team a member through it, the owner named; audited with the team', async () => {
    const { owner, ann, bob, team, collection, shareId } = await teamShare();
    expect(await membersOf(shareId)).toEqual({
      [owner.id]: true,
      [ann.id]: false,
      [bob.id]: false,
    });
    const [entry] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'share.created'), eq(auditLog.targetId, shareId)));
    expect(entry!.after).toEqual({ collectionId: collection.id, members: [], teams: [team.id] });
  });

  it('lets an administrator share with a team they are not in', async () => {
    const team = await createTeam(db, org.id);
    const ann = await createUser(db, org.id);
    await addTeamMember(db, team, ann.id);
    const collection = await createCollection(db, { user: admin });
    await shares.createShare(asAdmin, collection.id, [], ORIGIN, [team.id]);
    expect(await membersOf(await shareIdOf(collection.id))).toEqual({
      [admin.id]: true,
      [ann.id]: false,
    });
  });

  it.each([
    ['nobody at all', () => [], 400, 'Choose at least one person or team to share it with.'],
    [
      'a team the owner is not in',
      (t: { outside: string }) => [t.outside],
      404,
      /^Team .* was not found$/,
    ],
    [
      'a team of another organization',
      (t: { foreign: string }) => [t.foreign],
      404,
      /^Team .* was not found$/,
    ],
  ] as const)('refuses a share with %s, writing nothing', async (_, pick, status, message) => {
    const owner = await createUser(db, org.id);
    const collection = await createCollection(db, { user: owner });
    const outside = (await createTeam(db, org.id)).id;
    const foreign = (await createTeam(db, otherOrg.id)).id;
    const teamIds = pick({ outside, foreign } as { outside: string; foreign: string });
    await refused(
      () => shares.createShare(callerOf(owner), collection.id, [], ORIGIN, [...teamIds]),
      status,
      message,
    );
  });
});

describe('the team changes, the share follows', () => {
  it('gives the collection to a person who joins the team by the console, and takes it from one who leaves', async () => {
    const { ann, cid, team, shareId } = await teamShare();
    await services.teams.addMembers(asAdmin, ORIGIN, team.id, { userIds: [cid.id] });
    expect(await membersOf(shareId)).toMatchObject({ [cid.id]: false });
    await services.teams.removeMembers(asAdmin, ORIGIN, team.id, { userIds: [ann.id, cid.id] });
    const after = await membersOf(shareId);
    expect(after).not.toHaveProperty(ann.id);
    expect(after).not.toHaveProperty(cid.id);
  });

  it('keeps a person named by the share when they leave the team, and one who is still in another of its teams', async () => {
    const { me, ann, bob, team, shareId } = await teamShare();
    const second = await createTeam(db, org.id);
    await addTeamMember(db, second, me.userId);
    await addTeamMember(db, second, bob.id);
    await shares.addTeams(me, shareId, [second.id], ORIGIN);
    await shares.addMembers(me, shareId, [ann.id], ORIGIN);
    expect(await membersOf(shareId)).toMatchObject({ [ann.id]: true, [bob.id]: false });
    await services.teams.removeMembers(asAdmin, ORIGIN, team.id, { userIds: [ann.id, bob.id] });
    expect(await membersOf(shareId)).toMatchObject({ [ann.id]: true, [bob.id]: false });
    await services.teams.removeMembers(asAdmin, ORIGIN, second.id, { userIds: [bob.id] });
    expect(await membersOf(shareId)).not.toHaveProperty(bob.id);
  });

  it('takes the collection from the members of a team that is deleted, and leaves the owner and the content', async () => {
    const { owner, team, collection, shareId } = await teamShare();
    await createLink(db, collection, { createdBy: owner.id });
    await services.teams.remove(asAdmin, ORIGIN, team.id, { collections: 0, links: 0 });
    expect(await membersOf(shareId)).toEqual({ [owner.id]: true });
    expect(await countRows(db, 'links', { column: 'collection_id', value: collection.id })).toBe(1);
  });

  it('follows a hundred people joining and leaving at once', async () => {
    const { owner, team, shareId } = await teamShare();
    const many: string[] = [];
    for (let i = 0; i < 100; i += 1) many.push((await createUser(db, org.id)).id);
    await services.teams.addMembers(asAdmin, ORIGIN, team.id, { userIds: many });
    expect(ids(await membersOf(shareId))).toHaveLength(3 + 100);
    await services.teams.removeMembers(asAdmin, ORIGIN, team.id, { userIds: many });
    expect(ids(await membersOf(shareId))).toHaveLength(3);
    expect(await membersOf(shareId)).toMatchObject({ [owner.id]: true });
  });
});

describe('the owner changes the teams', () => {
  it('adds a team (audited) and removes it: its members not named by the share stop seeing it', async () => {
    const owner = await createUser(db, org.id);
    const ann = await createUser(db, org.id);
    const bob = await createUser(db, org.id);
    const team = await createTeam(db, org.id, { name: 'Data' });
    for (const person of [owner, ann, bob]) await addTeamMember(db, team, person.id);
    const collection = await createCollection(db, { user: owner });
    const me = callerOf(owner);
    await shares.createShare(me, collection.id, [ann.id], ORIGIN);
    const shareId = await shareIdOf(collection.id);
    await shares.addTeams(me, shareId, [team.id], ORIGIN);
    expect(await membersOf(shareId)).toEqual({
      [owner.id]: true,
      [ann.id]: true,
      [bob.id]: false,
    });
    await shares.removeTeam(me, shareId, team.id, ORIGIN);
    expect(await membersOf(shareId)).toEqual({ [owner.id]: true, [ann.id]: true });
    const entries = await db
      .select({ action: auditLog.action, targetId: auditLog.targetId, label: auditLog.targetLabel })
      .from(auditLog)
      .where(eq(auditLog.targetId, team.id))
      .orderBy(asc(auditLog.occurredAt));
    expect(entries).toEqual([
      { action: 'share.team-added', targetId: team.id, label: 'Data' },
      { action: 'share.team-removed', targetId: team.id, label: 'Data' },
    ]);
  });

  it('refuses a team already in the share (409), a member adding a team (403) and removing one not in it (404)', async () => {
    const { me, ann, team, shareId } = await teamShare();
    await refused(
      () => shares.addTeams(me, shareId, [team.id], ORIGIN),
      409,
      `Team ${team.id} is already in this share.`,
    );
    await refused(
      () => shares.addTeams(callerOf(ann), shareId, [team.id], ORIGIN),
      403,
      /^Only the person who owns this shared collection/,
    );
    const other = await createTeam(db, org.id);
    await refused(
      () => shares.removeTeam(me, shareId, other.id, ORIGIN),
      404,
      `Team ${other.id} is not in this share`,
    );
  });

  it('refuses removing a member who sees it through a team only (409 naming the team); one also named stays through it', async () => {
    const { me, ann, bob, team, shareId } = await teamShare();
    await refused(
      () => shares.removeMember(me, shareId, ann.id, ORIGIN),
      409,
      `This person sees the collection through the team ${team.name}; remove the team from the share to stop sharing with them.`,
    );
    await shares.addMembers(me, shareId, [bob.id], ORIGIN);
    expect(await membersOf(shareId)).toMatchObject({ [bob.id]: true });
    await shares.removeMember(me, shareId, bob.id, ORIGIN);
    expect(await membersOf(shareId)).toMatchObject({ [bob.id]: false });
  });
});

describe('leaving a share seen through a team', () => {
  it('takes it away for good: the team does not bring it back; the owner naming them does', async () => {
    const { me, ann, team, shareId } = await teamShare();
    const ticket = await shares.removeMember(callerOf(ann), shareId, ann.id, ORIGIN);
    expect(ticket).not.toBeNull();
    expect(await membersOf(shareId)).not.toHaveProperty(ann.id);
    await services.teams.removeMembers(asAdmin, ORIGIN, team.id, { userIds: [ann.id] });
    await services.teams.addMembers(asAdmin, ORIGIN, team.id, { userIds: [ann.id] });
    expect(await membersOf(shareId)).not.toHaveProperty(ann.id);
    await shares.addMembers(me, shareId, [ann.id], ORIGIN);
    expect(await membersOf(shareId)).toMatchObject({ [ann.id]: true });
  });

  it('can be undone while still in the team; not once out of it', async () => {
    const { ann, bob, team, shareId } = await teamShare();
    const annTicket = await shares.removeMember(callerOf(ann), shareId, ann.id, ORIGIN);
    await services.undo.undo(callerOf(ann), annTicket!.id, ORIGIN);
    expect(await membersOf(shareId)).toMatchObject({ [ann.id]: false });
    // Back through the team: leaving the team takes it away again.
    await services.teams.removeMembers(asAdmin, ORIGIN, team.id, { userIds: [ann.id] });
    expect(await membersOf(shareId)).not.toHaveProperty(ann.id);

    const bobTicket = await shares.removeMember(callerOf(bob), shareId, bob.id, ORIGIN);
    await services.teams.removeMembers(asAdmin, ORIGIN, team.id, { userIds: [bob.id] });
    await refused(
      () => services.undo.undo(callerOf(bob), bobTicket!.id, ORIGIN),
      409,
      'It cannot come back: you are no longer in a team this collection is shared with.',
    );
  });
});

describe('deleting a share with teams, and undoing it', () => {
  it('brings back its teams, the people it named and the team members of now, not those who left', async () => {
    const { me, owner, ann, bob, cid, team, shareId } = await teamShare();
    await shares.addMembers(me, shareId, [cid.id], ORIGIN);
    const left = await shares.removeMember(callerOf(bob), shareId, bob.id, ORIGIN);
    expect(left).not.toBeNull();
    const ticket = await shares.deleteShare(me, shareId, ORIGIN);
    expect(await countRows(db, 'share_teams', { column: 'share_id', value: shareId })).toBe(0);
    const newcomer = await createUser(db, org.id);
    await addTeamMember(db, team, newcomer.id);
    await services.teams.removeMembers(asAdmin, ORIGIN, team.id, { userIds: [ann.id] });
    await services.undo.undo(me, ticket.id, ORIGIN);
    expect(
      await db
        .select({ teamId: shareTeams.teamId })
        .from(shareTeams)
        .where(eq(shareTeams.shareId, shareId)),
    ).toEqual([{ teamId: team.id }]);
    expect(await membersOf(shareId)).toEqual({
      [owner.id]: true,
      [cid.id]: true,
      [newcomer.id]: false,
    });
  });

  it('comes back without a team deleted meanwhile', async () => {
    const { me, owner, team, shareId } = await teamShare();
    const ticket = await shares.deleteShare(me, shareId, ORIGIN);
    await db.delete(teams).where(eq(teams.id, team.id));
    await services.undo.undo(me, ticket.id, ORIGIN);
    expect(await membersOf(shareId)).toEqual({ [owner.id]: true });
  });
});
