// Sharing a personal collection with people of one's organization: who may share what, add
// and remove members, leave or delete a share; what is refused and why; the rows and audit
// entries each change writes; and what a deletion or a departure answers (its undo ticket).
import { and, asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, collectionShares, shareMembers } from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';
import { createTestServices } from '../../../test/app.ts';
import {
  addTeamMember,
  countRows,
  createCollection,
  createFavorite,
  createLink,
  createOrganization,
  createShare,
  createTeam,
  createUser,
  type TestUser,
} from '../../../test/factories.ts';
import { expectServiceRefused } from '../../../test/support/refused.ts';
import { callerOf } from '../../../test/support/callers.ts';

const { services, db } = await createTestServices();
const { shares } = services;
const org = await createOrganization(db);
const otherOrg = await createOrganization(db);
const ORIGIN = { ip: '10.9.8.7', userAgent: 'Browser' };
const ID = 'x'.repeat(21);

/** A call that must be refused with `status` and this message, writing nothing. */
const refused = (call: () => Promise<unknown>, status: number, message: string | RegExp) =>
  expectServiceRefused(db, call, status, message);

/** The status a call ends with: 200 when it succeeds, the refusal's otherwise. */
const outcome = (call: Promise<unknown>) =>
  call.then(
    () => 200,
    (error: unknown) => (error instanceof AppError ? error.statusCode : String(error)),
  );

const sharesOf = (collectionId: string) =>
  db.select().from(collectionShares).where(eq(collectionShares.collectionId, collectionId));
async function membersOf(shareId: string) {
  const rows = await db
    .select({ userId: shareMembers.userId })
    .from(shareMembers)
    .where(eq(shareMembers.shareId, shareId));
  return rows.map((row) => row.userId).sort();
}
/** The entries of one action about one target, oldest first. */
const entries = (action: string, targetId: string) =>
  db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.targetId, targetId)))
    .orderBy(asc(auditLog.occurredAt));
const byPerson = (user: TestUser) => ({
  organizationId: org.id,
  actorId: user.id,
  actorName: user.name,
  actorEmail: user.email,
  ip: ORIGIN.ip,
  userAgent: ORIGIN.userAgent,
});

/** An owner with a collection to share and two colleagues to share it with. */
async function owner() {
  const user = await createUser(db, org.id);
  const collection = await createCollection(db, { user }, { name: 'Onboarding' });
  const ann = await createUser(db, org.id);
  const bob = await createUser(db, org.id);
  return { user, me: callerOf(user), collection, ann, bob };
}

/** A share of `owner` with `ann` as member; `bob` and `cid` are colleagues outside it. */
async function sharedCollection() {
  const { user, me, collection, ann, bob } = await owner();
  const cid = await createUser(db, org.id);
  const { id: shareId } = await createShare(db, user, collection.id, [ann.id]);
  return { owner: user, me, collection, ann, bob, cid, shareId };
}

/**
 * An owner (an editor of a team) and the places they may not share, each refused without
 * writing anything: built once for the table of refusals.
 */
async function placesToRefuse() {
  const { user, me, ann, bob } = await owner();
  const team = await createTeam(db, org.id);
  await addTeamMember(db, team, user.id, 'editor');
  const theirs = await createCollection(db, { user: ann });
  await createShare(db, ann, theirs.id, [user.id]);
  const sharedOuter = await createCollection(db, { user });
  await createShare(db, user, sharedOuter.id, []);
  const outer = await createCollection(db, { user });
  const deep = await createCollection(db, { user }, { parentId: outer.id });
  const deeper = await createCollection(db, { user }, { parentId: deep.id });
  await createShare(db, user, deeper.id, []);
  const targets = {
    "another person's collection": (await createCollection(db, { user: ann })).id,
    'a collection of another organization': (await createUser(db, otherOrg.id)).rootId,
    'a team collection, even as its editor': (await createCollection(db, { team })).id,
    'an organization collection': (await createCollection(db, { organizationId: org.id })).id,
    'a collection shared with them': theirs.id,
    'My Space': user.rootId,
    'a collection shared already': sharedOuter.id,
    'a collection inside a shared one': (
      await createCollection(db, { user }, { parentId: sharedOuter.id })
    ).id,
    'a collection that contains a shared one': outer.id,
  };
  return { me, bob, targets };
}
let refusals: ReturnType<typeof placesToRefuse> | undefined;

describe('sharing a collection', () => {
  it('shares one of the owner’s collections: the owner and the members become its members, audited', async () => {
    const { user, me, collection, ann, bob } = await owner();
    await shares.createShare(me, collection.id, [ann.id, bob.id], ORIGIN);
    const rows = await sharesOf(collection.id);
    expect(rows).toEqual([expect.objectContaining({ organizationId: org.id, createdBy: user.id })]);
    const shareId = rows[0]!.id;
    expect(await membersOf(shareId)).toEqual([user.id, ann.id, bob.id].sort());
    expect(await entries('share.created', shareId)).toEqual([
      expect.objectContaining({
        ...byPerson(user),
        targetType: 'share',
        targetLabel: 'Onboarding',
        after: { collectionId: collection.id, members: [ann.id, bob.id] },
      }),
    ]);
  });

  const READ_ONLY =
    'Only the editors of this team or an administrator can change it; suggest a link instead.';
  it.each([
    ["another person's collection", 404, null],
    ['a collection of another organization', 404, null],
    ['a team collection, even as its editor', 403, READ_ONLY],
    ['an organization collection', 403, 'Only an administrator can change the organization space'],
    ['a collection shared with them', 403, 'Only the person who owns this collection can do that.'],
    ['My Space', 409, 'My Space cannot be shared; share a collection inside it instead.'],
    [
      'a collection shared already',
      409,
      'This collection is already shared; add members to its share instead.',
    ],
    [
      'a collection inside a shared one',
      409,
      'This collection is inside a shared collection; shares do not nest.',
    ],
    [
      'a collection that contains a shared one',
      409,
      'This collection contains a shared collection; shares do not nest.',
    ],
  ] as const)('refuses to share %s: %i, nothing written', async (what, status, message) => {
    const { me, bob, targets } = await (refusals ??= placesToRefuse());
    const target = targets[what];
    await refused(
      () => shares.createShare(me, target, [bob.id], ORIGIN),
      status,
      message ?? `Collection ${target} was not found`,
    );
  });

  it.each([
    ['an unknown id', async () => ID],
    ['a disabled person', async () => (await createUser(db, org.id, { status: 'disabled' })).id],
    ['an invited person', async () => (await createUser(db, org.id, { status: 'invited' })).id],
    ['a person of another organization', async () => (await createUser(db, otherOrg.id)).id],
    ['the owner', async () => ''],
  ])('refuses %s as a member: 404 naming the id, nothing written', async (_who, make) => {
    const { user, me, collection, ann } = await owner();
    const id = (await make()) || user.id;
    await refused(
      () => shares.createShare(me, collection.id, [ann.id, id], ORIGIN),
      404,
      `Person ${id} was not found`,
    );
  });

  it.each(['itself', 'below'] as const)(
    'refuses to share a collection holding favorites %s: 409 (favorites are private)',
    async (where) => {
      const team = await createTeam(db, org.id);
      const teamLink = await createLink(db, await createCollection(db, { team }));
      const { user, me, collection, ann } = await owner();
      await addTeamMember(db, team, user.id);
      const place =
        where === 'itself'
          ? collection
          : await createCollection(db, { user }, { parentId: collection.id });
      await createFavorite(db, user, teamLink.id, place.id);
      await refused(
        () => shares.createShare(me, collection.id, [ann.id], ORIGIN),
        409,
        'Favorites are private: move them out of this collection before sharing it.',
      );
    },
  );

  it('leaves one share when the same request arrives twice at once; the other gets 409', async () => {
    const { me, collection, ann } = await owner();
    const outcomes = await Promise.all([
      outcome(shares.createShare(me, collection.id, [ann.id], ORIGIN)),
      outcome(shares.createShare(me, collection.id, [ann.id], ORIGIN)),
    ]);
    expect(outcomes.sort()).toEqual([200, 409]);
    const rows = await sharesOf(collection.id);
    expect(rows).toHaveLength(1);
    expect(await membersOf(rows[0]!.id)).toHaveLength(2);
  });
});

describe('deleting a share', () => {
  it('deletes the shared collection and everything inside it, and nothing else, audited', async () => {
    const { owner: user, me, collection, ann, shareId } = await sharedCollection();
    const inner = await createCollection(db, { user }, { parentId: collection.id });
    const innermost = await createCollection(db, { user }, { parentId: inner.id });
    await createLink(db, collection, { createdBy: user.id });
    await createLink(db, inner, { createdBy: ann.id });
    await createLink(db, innermost);
    const sibling = await createCollection(db, { user });
    const siblingLink = await createLink(db, sibling);
    const orgLink = await createLink(db, await createCollection(db, { organizationId: org.id }));
    const kept = await createFavorite(db, user, orgLink.id, sibling.id);

    const ticket = await shares.deleteShare(me, shareId, ORIGIN);
    expect(ticket).toEqual({ id: expect.any(String), expiresAt: expect.any(Date) });
    for (const gone of [collection.id, inner.id, innermost.id]) {
      expect(await countRows(db, 'collections', { column: 'id', value: gone })).toBe(0);
      expect(await countRows(db, 'links', { column: 'collection_id', value: gone })).toBe(0);
    }
    expect(await countRows(db, 'collection_shares', { column: 'id', value: shareId })).toBe(0);
    expect(await countRows(db, 'share_members', { column: 'share_id', value: shareId })).toBe(0);
    expect(await countRows(db, 'links', { column: 'id', value: siblingLink.id })).toBe(1);
    expect(await countRows(db, 'favorites', { column: 'id', value: kept.id })).toBe(1);
    expect(await countRows(db, 'collections', { column: 'id', value: user.rootId })).toBe(1);
    expect(await entries('share.deleted', shareId)).toEqual([
      expect.objectContaining({
        ...byPerson(user),
        targetLabel: 'Onboarding',
        before: { collectionId: collection.id, name: 'Onboarding' },
      }),
    ]);
  });

  it('answers a ticket with which the owner brings the share back, members and all', async () => {
    const { owner: user, me, collection, ann, shareId } = await sharedCollection();
    const link = await createLink(db, collection, { createdBy: ann.id });
    const ticket = await shares.deleteShare(me, shareId, ORIGIN);
    await services.undo.undo(me, ticket.id, ORIGIN);
    expect(await sharesOf(collection.id)).toEqual([expect.objectContaining({ id: shareId })]);
    expect(await membersOf(shareId)).toEqual([user.id, ann.id].sort());
    expect(await countRows(db, 'links', { column: 'id', value: link.id })).toBe(1);
  });

  it('refuses a member who is not the owner: 403, pointing them to leaving instead', async () => {
    const { ann, shareId } = await sharedCollection();
    await refused(
      () => shares.deleteShare(callerOf(ann), shareId, ORIGIN),
      403,
      'Only the person who owns this shared collection can do that. To stop seeing it, leave it instead.',
    );
  });

  it.each([
    ['a colleague outside it', () => createUser(db, org.id)],
    ['a person of another organization', () => createUser(db, otherOrg.id)],
  ])('answers %s 404, as for an unknown share', async (_who, make) => {
    const { shareId } = await sharedCollection();
    const me = callerOf(await make());
    await refused(
      () => shares.deleteShare(me, shareId, ORIGIN),
      404,
      `Share ${shareId} was not found`,
    );
    await refused(() => shares.deleteShare(me, ID, ORIGIN), 404, `Share ${ID} was not found`);
  });
});

describe('adding members', () => {
  it('lets the owner add people, each audited with the share', async () => {
    const { owner: user, me, ann, bob, cid, shareId } = await sharedCollection();
    await shares.addMembers(me, shareId, [bob.id, cid.id], ORIGIN);
    expect(await membersOf(shareId)).toEqual([user.id, ann.id, bob.id, cid.id].sort());
    for (const added of [bob, cid]) {
      expect(await entries('share.member-added', added.id)).toEqual([
        expect.objectContaining({
          ...byPerson(user),
          targetType: 'person',
          details: { shareId, collection: 'Onboarding' },
        }),
      ]);
    }
  });

  it.each([
    ['an unknown id', async () => ID],
    ['a disabled person', async () => (await createUser(db, org.id, { status: 'disabled' })).id],
    ['a person of another organization', async () => (await createUser(db, otherOrg.id)).id],
    ['the owner', async () => ''],
  ])('refuses %s: 404 naming the id, nobody added', async (_who, make) => {
    const { owner: user, me, bob, shareId } = await sharedCollection();
    const id = (await make()) || user.id;
    await refused(
      () => shares.addMembers(me, shareId, [bob.id, id], ORIGIN),
      404,
      `Person ${id} was not found`,
    );
  });

  it('refuses someone already a member: 409 naming them, nobody added', async () => {
    const { me, ann, bob, shareId } = await sharedCollection();
    await refused(
      () => shares.addMembers(me, shareId, [bob.id, ann.id], ORIGIN),
      409,
      `Person ${ann.id} is already a member of this share.`,
    );
  });

  it('refuses a member who is not the owner: 403', async () => {
    const { ann, bob, shareId } = await sharedCollection();
    await refused(
      () => shares.addMembers(callerOf(ann), shareId, [bob.id], ORIGIN),
      403,
      'Only the person who owns this shared collection can do that.',
    );
  });

  it('leaves one membership when the same request arrives twice at once; the other gets 409', async () => {
    const { owner: user, me, ann, bob, shareId } = await sharedCollection();
    const outcomes = await Promise.all([
      outcome(shares.addMembers(me, shareId, [bob.id], ORIGIN)),
      outcome(shares.addMembers(me, shareId, [bob.id], ORIGIN)),
    ]);
    expect(outcomes.sort()).toEqual([200, 409]);
    expect(await membersOf(shareId)).toEqual([user.id, ann.id, bob.id].sort());
  });
});

describe('removing members and leaving', () => {
  it('lets the owner remove a member, audited, with nothing to undo', async () => {
    const { owner: user, me, ann, shareId } = await sharedCollection();
    expect(await shares.removeMember(me, shareId, ann.id, ORIGIN)).toBeNull();
    expect(await membersOf(shareId)).toEqual([user.id]);
    expect(await entries('share.member-removed', ann.id)).toEqual([
      expect.objectContaining({
        ...byPerson(user),
        details: { shareId, collection: 'Onboarding' },
      }),
    ]);
  });

  it('lets a member leave with their own id, audited, and answers a ticket to come back', async () => {
    const { owner: user, ann, shareId } = await sharedCollection();
    const me = callerOf(ann);
    const ticket = await shares.removeMember(me, shareId, ann.id, ORIGIN);
    expect(ticket).toEqual({ id: expect.any(String), expiresAt: expect.any(Date) });
    expect(await membersOf(shareId)).toEqual([user.id]);
    expect(await entries('share.member-removed', ann.id)).toEqual([
      expect.objectContaining({
        ...byPerson(ann),
        details: { shareId, collection: 'Onboarding', left: true },
      }),
    ]);
    await services.undo.undo(me, ticket!.id, ORIGIN);
    expect(await membersOf(shareId)).toEqual([user.id, ann.id].sort());
  });

  it('refuses the owner leaving their own share: 409', async () => {
    const { owner: user, me, shareId } = await sharedCollection();
    await refused(
      () => shares.removeMember(me, shareId, user.id, ORIGIN),
      409,
      'The owner cannot leave their own shared collection; remove its members or delete it instead.',
    );
  });

  it('refuses a member removing anyone else, the owner too: 403', async () => {
    const { owner: user, ann, bob, shareId } = await sharedCollection();
    await db.insert(shareMembers).values({ shareId, userId: bob.id, organizationId: org.id });
    for (const other of [bob, user]) {
      await refused(
        () => shares.removeMember(callerOf(ann), shareId, other.id, ORIGIN),
        403,
        'Only the person who owns this shared collection can do that.',
      );
    }
  });

  it.each([
    ['another person of the organization', () => createUser(db, org.id)],
    ['a person of another organization', () => createUser(db, otherOrg.id)],
  ])('answers %s 404 for the share, even naming themself', async (_who, make) => {
    const { ann, shareId } = await sharedCollection();
    const outsider = await make();
    for (const memberId of [ann.id, outsider.id]) {
      await refused(
        () => shares.removeMember(callerOf(outsider), shareId, memberId, ORIGIN),
        404,
        `Share ${shareId} was not found`,
      );
    }
  });

  it.each([
    ['a colleague who is not a member', async () => (await createUser(db, org.id)).id],
    ['a person of another organization', async () => (await createUser(db, otherOrg.id)).id],
    ['an unknown id', async () => ID],
  ])('answers the owner 404 naming %s', async (_who, make) => {
    const { me, shareId } = await sharedCollection();
    const id = await make();
    await refused(
      () => shares.removeMember(me, shareId, id, ORIGIN),
      404,
      `Member ${id} was not found`,
    );
  });
});
