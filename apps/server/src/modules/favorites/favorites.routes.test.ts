import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { favorites, teamMemberships } from '../../db/schema/index.ts';
import { createTestApp } from '../../../test/app.ts';
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
  signIn,
  type TestUser,
} from '../../../test/factories.ts';

const { app, db } = await createTestApp();
const org = await createOrganization(db);
const otherOrg = await createOrganization(db);

type Headers = Record<string, string>;

const addFavorite = (headers: Headers, collectionId: string, payload: unknown) =>
  app.inject({
    method: 'POST',
    url: `/api/consumer/collections/${collectionId}/favorites`,
    headers,
    payload: payload as object,
  });

const favoritesOf = (user: TestUser) =>
  db.select().from(favorites).where(eq(favorites.userId, user.id));

/** A person in a team, with a team link and an organization link they can see. */
async function teamPerson() {
  const user = await createUser(db, org.id);
  const team = await createTeam(db, org.id);
  await addTeamMember(db, team, user.id);
  const teamCollection = await createCollection(db, { team });
  const teamLink = await createLink(db, teamCollection);
  const orgCollection = await createCollection(db, { organizationId: org.id });
  const orgLink = await createLink(db, orgCollection);
  const { headers } = await signIn(app, user);
  return { user, team, teamCollection, teamLink, orgCollection, orgLink, headers };
}

describe('POST /api/consumer/collections/:id/favorites', () => {
  it('requires authentication', async () => {
    const { user, teamLink } = await teamPerson();
    const response = await addFavorite({}, user.rootId, { type: 'link', id: teamLink.id });
    expect(response.statusCode).toBe(401);
    expect(await favoritesOf(user)).toHaveLength(0);
  });

  it('favorites a team link at the end of My Space', async () => {
    const { user, teamLink, headers } = await teamPerson();
    await createLink(db, { id: user.rootId, organizationId: org.id }, { position: 40 });
    const response = await addFavorite(headers, user.rootId, { type: 'link', id: teamLink.id });
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect(await favoritesOf(user)).toEqual([
      expect.objectContaining({
        organizationId: org.id,
        linkId: teamLink.id,
        collectionId: user.rootId,
        position: 41,
      }),
    ]);
  });

  it('favorites an organization link in a nested collection of their own (trailing slash)', async () => {
    const { user, orgLink, headers } = await teamPerson();
    const outer = await createCollection(db, { user });
    const inner = await createCollection(db, { user }, { parentId: outer.id });
    const response = await app.inject({
      method: 'POST',
      url: `/api/consumer/collections/${inner.id}/favorites/`,
      headers,
      payload: { type: 'link', id: orgLink.id },
    });
    expect(response.statusCode).toBe(204);
    expect(await favoritesOf(user)).toEqual([
      expect.objectContaining({ linkId: orgLink.id, collectionId: inner.id, position: 0 }),
    ]);
  });

  it.each([
    ['a link of a team they are not in', 404],
    ['a link of another organization', 404],
    ["another person's personal link", 404],
    ['their own personal link', 409],
    ['a link in a collection shared with them', 409],
  ] as const)('refuses %s with %i, nothing stored', async (what, status) => {
    const { user, headers } = await teamPerson();
    const someone = await createUser(db, org.id);
    const mine = await createCollection(db, { user });
    const shared = await createCollection(db, { user: someone });
    await createShare(db, someone, shared.id, [user.id]);
    const places = {
      'a link of a team they are not in': { team: await createTeam(db, org.id) },
      'a link of another organization': { organizationId: otherOrg.id },
      "another person's personal link": { user: someone },
    } as const;
    const collection =
      what === 'their own personal link'
        ? mine
        : what === 'a link in a collection shared with them'
          ? shared
          : await createCollection(db, places[what]);
    const link = await createLink(db, collection);
    const response = await addFavorite(headers, user.rootId, { type: 'link', id: link.id });
    expect(response.statusCode).toBe(status);
    if (status === 404) expect(response.json().message).toContain(link.id);
    expect(await favoritesOf(user)).toHaveLength(0);
  });

  it.each([
    ["another person's collection", 404],
    ['a collection of another organization', 404],
    ['a team collection', 403],
    ['an organization collection', 403],
    ['a collection shared with them', 403],
    ['their own shared collection', 409],
    ['a collection inside their own shared collection', 409],
  ] as const)('refuses to place it in %s with %i, nothing stored', async (what, status) => {
    const { user, teamLink, teamCollection, orgCollection, headers } = await teamPerson();
    const someone = await createUser(db, org.id);
    const stranger = await createUser(db, otherOrg.id);
    const ownShared = await createCollection(db, { user });
    await createShare(db, user, ownShared.id, [someone.id]);
    const theirsShared = await createCollection(db, { user: someone });
    await createShare(db, someone, theirsShared.id, [user.id]);
    const targets: Record<typeof what, string> = {
      "another person's collection": (await createCollection(db, { user: someone })).id,
      'a collection of another organization': stranger.rootId,
      'a team collection': teamCollection.id,
      'an organization collection': orgCollection.id,
      'a collection shared with them': theirsShared.id,
      'their own shared collection': ownShared.id,
      'a collection inside their own shared collection': (
        await createCollection(db, { user }, { parentId: ownShared.id })
      ).id,
    };
    const response = await addFavorite(headers, targets[what], { type: 'link', id: teamLink.id });
    expect(response.statusCode).toBe(status);
    if (status === 404) expect(response.json().message).toContain(targets[what]);
    expect(await favoritesOf(user)).toHaveLength(0);
  });

  it('refuses the same link a second time, even in another collection', async () => {
    const { user, teamLink, headers } = await teamPerson();
    await createFavorite(db, user, teamLink.id);
    const other = await createCollection(db, { user });
    const response = await addFavorite(headers, other.id, { type: 'link', id: teamLink.id });
    expect(response.statusCode).toBe(409);
    expect(response.json().code).toBe('CONFLICT');
    expect(await favoritesOf(user)).toHaveLength(1);
  });

  it('leaves one row when the same request arrives twice at once', async () => {
    const { user, teamLink, headers } = await teamPerson();
    const responses = await Promise.all(
      [1, 2, 3].map(() => addFavorite(headers, user.rootId, { type: 'link', id: teamLink.id })),
    );
    expect(responses.map((r) => r.statusCode).sort()).toEqual([204, 409, 409]);
    expect(await favoritesOf(user)).toHaveLength(1);
  });

  it.each([
    ['a wrong type', { type: 'collection', id: 'x'.repeat(21) }],
    ['a missing type', { id: 'x'.repeat(21) }],
    ['a missing id', { type: 'link' }],
    ['a number id', { type: 'link', id: 12 }],
    ['a malformed id', { type: 'link', id: 'not-an-id' }],
    ['an unknown property', { type: 'link', id: 'x'.repeat(21), position: 1 }],
    ['an array', [{ type: 'link', id: 'x'.repeat(21) }]],
  ])('refuses %s with 400, nothing stored', async (_what, payload) => {
    const { user, headers } = await teamPerson();
    const before = await countRows(db, 'favorites');
    const response = await addFavorite(headers, user.rootId, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('VALIDATION_ERROR');
    expect(await countRows(db, 'favorites')).toBe(before);
  });

  it('refuses a malformed collection id with 400', async () => {
    const { teamLink, headers } = await teamPerson();
    const response = await addFavorite(headers, 'short', { type: 'link', id: teamLink.id });
    expect(response.statusCode).toBe(400);
  });
});

describe('DELETE /api/consumer/favorites/:id', () => {
  const remove = (headers: Headers, id: string) =>
    app.inject({ method: 'DELETE', url: `/api/consumer/favorites/${id}`, headers });

  it('requires authentication', async () => {
    const { user, teamLink } = await teamPerson();
    const favorite = await createFavorite(db, user, teamLink.id);
    expect((await remove({}, favorite.id)).statusCode).toBe(401);
    expect(await favoritesOf(user)).toHaveLength(1);
  });

  it('removes their own favorite and leaves the link', async () => {
    const { user, teamLink, headers } = await teamPerson();
    const favorite = await createFavorite(db, user, teamLink.id);
    const response = await remove(headers, `${favorite.id}/`);
    expect(response.statusCode).toBe(204);
    expect(await favoritesOf(user)).toHaveLength(0);
    expect(await countRows(db, 'links', { column: 'id', value: teamLink.id })).toBe(1);
  });

  it('removes a favorite whose link they no longer see', async () => {
    const { user, team, teamLink, headers } = await teamPerson();
    const favorite = await createFavorite(db, user, teamLink.id);
    await db
      .delete(teamMemberships)
      .where(and(eq(teamMemberships.teamId, team.id), eq(teamMemberships.userId, user.id)));
    expect((await remove(headers, favorite.id)).statusCode).toBe(204);
    expect(await favoritesOf(user)).toHaveLength(0);
  });

  it.each([
    ['a person of the same organization', () => createUser(db, org.id)],
    ['a person of another organization', () => createUser(db, otherOrg.id)],
  ])('answers 404 for the favorite of %s and keeps it', async (_who, makeOwner) => {
    const { headers } = await teamPerson();
    const owner = await makeOwner();
    const link = await createLink(
      db,
      await createCollection(db, { organizationId: owner.organizationId }),
    );
    const favorite = await createFavorite(db, owner, link.id);
    const response = await remove(headers, favorite.id);
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toContain(favorite.id);
    expect(await favoritesOf(owner)).toHaveLength(1);
  });

  it('answers 404 for an unknown id and 400 for a malformed one', async () => {
    const { headers } = await teamPerson();
    expect((await remove(headers, 'x'.repeat(21))).statusCode).toBe(404);
    expect((await remove(headers, 'x'.repeat(22))).statusCode).toBe(400);
  });
});

describe('PUT /api/consumer/favorites/:id/collection', () => {
  const move = (headers: Headers, id: string, payload: unknown) =>
    app.inject({
      method: 'PUT',
      url: `/api/consumer/favorites/${id}/collection`,
      headers,
      payload: payload as object,
    });

  it('requires authentication', async () => {
    const { user, teamLink } = await teamPerson();
    const favorite = await createFavorite(db, user, teamLink.id);
    const target = await createCollection(db, { user });
    expect((await move({}, favorite.id, { collectionId: target.id })).statusCode).toBe(401);
    expect(await favoritesOf(user)).toEqual([
      expect.objectContaining({ collectionId: user.rootId }),
    ]);
  });

  it('moves their favorite to the end of another of their collections', async () => {
    const { user, teamLink, headers } = await teamPerson();
    const favorite = await createFavorite(db, user, teamLink.id);
    const target = await createCollection(db, { user });
    await createLink(db, target, { position: 3 });
    await createCollection(db, { user }, { parentId: target.id, position: 9 });
    const response = await move(headers, favorite.id, { collectionId: target.id });
    expect(response.statusCode).toBe(204);
    expect(await favoritesOf(user)).toEqual([
      expect.objectContaining({ id: favorite.id, collectionId: target.id, position: 10 }),
    ]);
  });

  it.each([
    ["someone else's favorite", 404],
    ["another person's collection", 404],
    ['a collection of another organization', 404],
    ['a team collection', 403],
    ['a collection shared with them', 403],
    ['their own shared collection', 409],
    ['a collection inside their own shared collection', 409],
  ] as const)('refuses %s with %i, nothing moves', async (what, status) => {
    const { user, teamLink, teamCollection, headers } = await teamPerson();
    const someone = await createUser(db, org.id);
    const mine = await createFavorite(db, user, teamLink.id);
    const theirs = await createFavorite(db, someone, teamLink.id);
    const ownShared = await createCollection(db, { user });
    await createShare(db, user, ownShared.id, [someone.id]);
    const theirsShared = await createCollection(db, { user: someone });
    await createShare(db, someone, theirsShared.id, [user.id]);
    const cases: Record<typeof what, [string, string]> = {
      "someone else's favorite": [theirs.id, (await createCollection(db, { user: someone })).id],
      "another person's collection": [mine.id, (await createCollection(db, { user: someone })).id],
      'a collection of another organization': [mine.id, (await createUser(db, otherOrg.id)).rootId],
      'a team collection': [mine.id, teamCollection.id],
      'a collection shared with them': [mine.id, theirsShared.id],
      'their own shared collection': [mine.id, ownShared.id],
      'a collection inside their own shared collection': [
        mine.id,
        (await createCollection(db, { user }, { parentId: ownShared.id })).id,
      ],
    };
    const [favoriteId, collectionId] = cases[what];
    const response = await move(headers, favoriteId, { collectionId });
    expect(response.statusCode).toBe(status);
    if (status === 404) expect(response.json().message).toMatch(/was not found/);
    expect((await favoritesOf(user))[0]?.collectionId).toBe(user.rootId);
    expect((await favoritesOf(someone))[0]?.collectionId).toBe(someone.rootId);
  });

  it.each([
    ['a missing collectionId', {}],
    ['a number collectionId', { collectionId: 7 }],
    ['a malformed collectionId', { collectionId: 'abc' }],
    ['a null collectionId', { collectionId: null }],
    ['an unknown property', { collectionId: 'x'.repeat(21), position: 0 }],
  ])('refuses %s with 400, nothing moves', async (_what, payload) => {
    const { user, teamLink, headers } = await teamPerson();
    const favorite = await createFavorite(db, user, teamLink.id);
    const response = await move(headers, favorite.id, payload);
    expect(response.statusCode).toBe(400);
    expect((await favoritesOf(user))[0]?.collectionId).toBe(user.rootId);
  });

  it('refuses a malformed favorite id with 400', async () => {
    const { user, headers } = await teamPerson();
    expect((await move(headers, 'nope', { collectionId: user.rootId })).statusCode).toBe(400);
  });
});
