// The rules of favorites, against the service and its real repositories: a favorite is a
// team or organization link the person sees, placed in one of their own collections that is
// not shared (favorites are private), once per link; only its owner moves or removes it.
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { favorites, teamMemberships, undoSnapshots } from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
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
import { callerOf } from '../../../test/support/callers.ts';
import {
  ORGANIZATION_READ_ONLY,
  OWNER_ONLY,
  READ_ONLY,
} from '../../../test/support/content-refusals.ts';

const { services, db } = await createTestServices();
const { favorites: service } = services;
const org = await createOrganization(db);
const otherOrg = await createOrganization(db);

const PERSONAL = 'Only team and organization links can be favorites; this link is personal.';
const PRIVATE = 'Favorites are private: they go in one of your own collections that is not shared.';
const TWICE = 'This link is already one of your favorites.';

const favoritesOf = (user: TestUser) =>
  db.select().from(favorites).where(eq(favorites.userId, user.id));

/** What a call that must be refused threw. */
async function refusal(call: () => Promise<unknown>): Promise<AppError> {
  const error = await call().then(
    () => new Error('the call was allowed'),
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

/** A person in a team, with a team link and an organization link they can see. */
async function teamPerson() {
  const user = await createUser(db, org.id);
  const team = await createTeam(db, org.id);
  await addTeamMember(db, team, user.id);
  const teamCollection = await createCollection(db, { team });
  const teamLink = await createLink(db, teamCollection);
  const orgCollection = await createCollection(db, { organizationId: org.id });
  const orgLink = await createLink(db, orgCollection);
  return { user, me: callerOf(user), team, teamCollection, teamLink, orgCollection, orgLink };
}

describe('favoriting a link', () => {
  it('places a team link at the end of My Space', async () => {
    const { user, me, teamLink } = await teamPerson();
    await createLink(db, { id: user.rootId, organizationId: org.id }, { position: 40 });
    await service.createFavorite(me, user.rootId, teamLink.id);
    expect(await favoritesOf(user)).toEqual([
      expect.objectContaining({
        id: expect.stringMatching(/^[A-Za-z0-9_-]{21}$/),
        organizationId: org.id,
        linkId: teamLink.id,
        collectionId: user.rootId,
        position: 41,
      }),
    ]);
  });

  it('places an organization link in a nested collection of the caller’s own', async () => {
    const { user, me, orgLink } = await teamPerson();
    const outer = await createCollection(db, { user });
    const inner = await createCollection(db, { user }, { parentId: outer.id });
    await service.createFavorite(me, inner.id, orgLink.id);
    expect(await favoritesOf(user)).toEqual([
      expect.objectContaining({ linkId: orgLink.id, collectionId: inner.id, position: 0 }),
    ]);
  });

  const links = [
    ['a link of a team they are not in', 404],
    ['a link of another organization', 404],
    ['another person’s personal link', 404],
    ['their own personal link', 409],
    ['a link in a collection shared with them', 409],
  ] as const;
  it.each(links)('refuses %s: %i, nothing stored', async (what, status) => {
    const { user, me } = await teamPerson();
    const someone = await createUser(db, org.id);
    const shared = await createCollection(db, { user: someone });
    await createShare(db, someone, shared.id, [user.id]);
    const places = {
      'a link of a team they are not in': async () =>
        createCollection(db, { team: await createTeam(db, org.id) }),
      'a link of another organization': () => createCollection(db, { organizationId: otherOrg.id }),
      'another person’s personal link': () => createCollection(db, { user: someone }),
      'their own personal link': () => createCollection(db, { user }),
      'a link in a collection shared with them': async () => shared,
    };
    const link = await createLink(db, await places[what]());
    const error = await refusal(() => service.createFavorite(me, user.rootId, link.id));
    expect(error).toMatchObject({
      statusCode: status,
      message: status === 404 ? `Link ${link.id} was not found` : PERSONAL,
    });
    expect(await favoritesOf(user)).toHaveLength(0);
  });

  it('refuses an administrator a link of a team they are not in: 403', async () => {
    const { teamLink } = await teamPerson();
    const admin = await createUser(db, org.id, { role: 'admin' });
    const error = await refusal(() =>
      service.createFavorite(callerOf(admin), admin.rootId, teamLink.id),
    );
    expect(error).toMatchObject({
      statusCode: 403,
      message: 'Favorites are for the members of the team.',
    });
    expect(await favoritesOf(admin)).toHaveLength(0);
  });

  const places = [
    ['another person’s collection', 404],
    ['a collection of another organization', 404],
    ['a team collection', 403],
    ['an organization collection', 403],
    ['a collection shared with them', 403],
    ['their own shared collection', 409],
    ['a collection inside their own shared collection', 409],
  ] as const;
  it.each(places)('refuses to place it in %s: %i, nothing stored', async (what, status) => {
    const { user, me, teamLink, teamCollection, orgCollection } = await teamPerson();
    const someone = await createUser(db, org.id);
    const ownShared = await createCollection(db, { user });
    await createShare(db, user, ownShared.id, [someone.id]);
    const theirsShared = await createCollection(db, { user: someone });
    await createShare(db, someone, theirsShared.id, [user.id]);
    const targets: Record<(typeof places)[number][0], [string, string]> = {
      'another person’s collection': [(await createCollection(db, { user: someone })).id, ''],
      'a collection of another organization': [(await createUser(db, otherOrg.id)).rootId, ''],
      'a team collection': [teamCollection.id, READ_ONLY],
      'an organization collection': [orgCollection.id, ORGANIZATION_READ_ONLY],
      'a collection shared with them': [theirsShared.id, OWNER_ONLY],
      'their own shared collection': [ownShared.id, PRIVATE],
      'a collection inside their own shared collection': [
        (await createCollection(db, { user }, { parentId: ownShared.id })).id,
        PRIVATE,
      ],
    };
    const [target, message] = targets[what];
    const error = await refusal(() => service.createFavorite(me, target, teamLink.id));
    expect(error).toMatchObject({
      statusCode: status,
      message: status === 404 ? `Collection ${target} was not found` : message,
    });
    expect(await favoritesOf(user)).toHaveLength(0);
  });

  it('refuses the same link a second time, even in another collection: 409', async () => {
    const { user, me, teamLink } = await teamPerson();
    await createFavorite(db, user, teamLink.id);
    const other = await createCollection(db, { user });
    const error = await refusal(() => service.createFavorite(me, other.id, teamLink.id));
    expect(error).toMatchObject({ statusCode: 409, message: TWICE });
    expect(await favoritesOf(user)).toHaveLength(1);
  });

  it('keeps one favorite when the same call comes three times at once', async () => {
    const { user, me, teamLink } = await teamPerson();
    const outcomes = await Promise.allSettled(
      [1, 2, 3].map(() => service.createFavorite(me, user.rootId, teamLink.id)),
    );
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual([
      'fulfilled',
      'rejected',
      'rejected',
    ]);
    for (const outcome of outcomes) {
      if (outcome.status === 'rejected') {
        expect(outcome.reason).toMatchObject({ statusCode: 409, message: TWICE });
      }
    }
    expect(await favoritesOf(user)).toHaveLength(1);
  });
});

describe('removing a favorite', () => {
  it('removes the caller’s own favorite, leaves the link, and keeps it to undo', async () => {
    const { user, me, teamLink } = await teamPerson();
    const favorite = await createFavorite(db, user, teamLink.id);
    const ticket = await service.deleteFavorite(me, favorite.id);
    expect(await favoritesOf(user)).toHaveLength(0);
    expect(await countRows(db, 'links', { column: 'id', value: teamLink.id })).toBe(1);
    const [kept] = await db.select().from(undoSnapshots).where(eq(undoSnapshots.id, ticket.id));
    expect(kept).toMatchObject({
      userId: user.id,
      kind: 'favorite',
      targetId: favorite.id,
      label: teamLink.name,
      expiresAt: ticket.expiresAt,
    });
  });

  it('removes a favorite whose link they no longer see', async () => {
    const { user, me, team, teamLink } = await teamPerson();
    const favorite = await createFavorite(db, user, teamLink.id);
    await db
      .delete(teamMemberships)
      .where(and(eq(teamMemberships.teamId, team.id), eq(teamMemberships.userId, user.id)));
    await service.deleteFavorite(me, favorite.id);
    expect(await favoritesOf(user)).toHaveLength(0);
  });

  it.each([
    ['a person of the same organization', () => createUser(db, org.id)],
    ['a person of another organization', () => createUser(db, otherOrg.id)],
  ])('refuses the favorite of %s with 404 and keeps it', async (_who, makeOwner) => {
    const { me } = await teamPerson();
    const owner = await makeOwner();
    const link = await createLink(
      db,
      await createCollection(db, { organizationId: owner.organizationId }),
    );
    const favorite = await createFavorite(db, owner, link.id);
    const error = await refusal(() => service.deleteFavorite(me, favorite.id));
    expect(error).toMatchObject({
      statusCode: 404,
      message: `Favorite ${favorite.id} was not found`,
    });
    expect(await favoritesOf(owner)).toHaveLength(1);
  });

  it('refuses an unknown favorite with 404', async () => {
    const { me } = await teamPerson();
    const id = newId();
    const error = await refusal(() => service.deleteFavorite(me, id));
    expect(error).toMatchObject({ statusCode: 404, message: `Favorite ${id} was not found` });
  });
});

describe('moving a favorite', () => {
  it('puts it at the end of another of the caller’s collections', async () => {
    const { user, me, teamLink } = await teamPerson();
    const favorite = await createFavorite(db, user, teamLink.id);
    const target = await createCollection(db, { user });
    await createLink(db, target, { position: 3 });
    await createCollection(db, { user }, { parentId: target.id, position: 9 });
    await service.moveFavorite(me, favorite.id, target.id);
    expect(await favoritesOf(user)).toEqual([
      expect.objectContaining({ id: favorite.id, collectionId: target.id, position: 10 }),
    ]);
  });

  const refused = [
    ['someone else’s favorite', 404],
    ['another person’s collection', 404],
    ['a collection of another organization', 404],
    ['a team collection', 403],
    ['a collection shared with them', 403],
    ['their own shared collection', 409],
    ['a collection inside their own shared collection', 409],
  ] as const;
  it.each(refused)('refuses %s: %i, nothing moves', async (what, status) => {
    const { user, me, teamLink, teamCollection } = await teamPerson();
    const someone = await createUser(db, org.id);
    const mine = await createFavorite(db, user, teamLink.id);
    const theirs = await createFavorite(db, someone, teamLink.id);
    const ownShared = await createCollection(db, { user });
    await createShare(db, user, ownShared.id, [someone.id]);
    const theirsShared = await createCollection(db, { user: someone });
    await createShare(db, someone, theirsShared.id, [user.id]);
    const someonesCollection = (await createCollection(db, { user: someone })).id;
    const strangersRoot = (await createUser(db, otherOrg.id)).rootId;
    const cases: Record<(typeof refused)[number][0], [string, string, string]> = {
      'someone else’s favorite': [
        theirs.id,
        someonesCollection,
        `Favorite ${theirs.id} was not found`,
      ],
      'another person’s collection': [
        mine.id,
        someonesCollection,
        `Collection ${someonesCollection} was not found`,
      ],
      'a collection of another organization': [
        mine.id,
        strangersRoot,
        `Collection ${strangersRoot} was not found`,
      ],
      'a team collection': [mine.id, teamCollection.id, READ_ONLY],
      'a collection shared with them': [mine.id, theirsShared.id, OWNER_ONLY],
      'their own shared collection': [mine.id, ownShared.id, PRIVATE],
      'a collection inside their own shared collection': [
        mine.id,
        (await createCollection(db, { user }, { parentId: ownShared.id })).id,
        PRIVATE,
      ],
    };
    const [favoriteId, collectionId, message] = cases[what];
    const error = await refusal(() => service.moveFavorite(me, favoriteId, collectionId));
    expect(error).toMatchObject({ statusCode: status, message });
    expect((await favoritesOf(user))[0]?.collectionId).toBe(user.rootId);
    expect((await favoritesOf(someone))[0]?.collectionId).toBe(someone.rootId);
  });
});
