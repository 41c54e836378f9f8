import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { favorites } from '../../db/schema/index.ts';
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

  it('answers 204 with an empty body, with or without a trailing slash', async () => {
    const { user, teamLink, orgLink, headers } = await teamPerson();
    const plain = await addFavorite(headers, user.rootId, { type: 'link', id: teamLink.id });
    const slashed = await app.inject({
      method: 'POST',
      url: `/api/consumer/collections/${user.rootId}/favorites/`,
      headers,
      payload: { type: 'link', id: orgLink.id },
    });
    for (const response of [plain, slashed]) {
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');
    }
    expect((await favoritesOf(user)).map((row) => row.linkId).sort()).toEqual(
      [teamLink.id, orgLink.id].sort(),
    );
  });

  // Which links may be favorites, where, and how often: favorites.service.test.ts. One answer
  // of each status here.
  it.each([
    ['a link of a team they are not in', 404, 'NOT_FOUND'],
    ['a team collection as the place', 403, 'FORBIDDEN'],
    ['their own personal link', 409, 'CONFLICT'],
  ] as const)('answers %s with %i, nothing stored', async (what, status, code) => {
    const { user, teamLink, teamCollection, headers } = await teamPerson();
    const otherTeam = { team: await createTeam(db, org.id) };
    const cases: Record<typeof what, () => Promise<[string, string]>> = {
      'a link of a team they are not in': async () => [
        user.rootId,
        (await createLink(db, await createCollection(db, otherTeam))).id,
      ],
      'a team collection as the place': async () => [teamCollection.id, teamLink.id],
      'their own personal link': async () => [
        user.rootId,
        (await createLink(db, await createCollection(db, { user }))).id,
      ],
    };
    const [place, linkId] = await cases[what]();
    const response = await addFavorite(headers, place, { type: 'link', id: linkId });
    expect(response.statusCode).toBe(status);
    expect(response.json()).toMatchObject({ code, message: expect.any(String) });
    expect(await favoritesOf(user)).toHaveLength(0);
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

  it('answers 204 with an empty body, with or without a trailing slash', async () => {
    const { user, teamLink, orgLink, headers } = await teamPerson();
    const first = await createFavorite(db, user, teamLink.id);
    const second = await createFavorite(db, user, orgLink.id);
    for (const id of [`${first.id}/`, second.id]) {
      const response = await remove(headers, id);
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');
    }
    expect(await favoritesOf(user)).toHaveLength(0);
  });

  // Whose favorites one may remove: favorites.service.test.ts.
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

  it('answers 204 with an empty body and moves the favorite', async () => {
    const { user, teamLink, headers } = await teamPerson();
    const favorite = await createFavorite(db, user, teamLink.id);
    const target = await createCollection(db, { user });
    const response = await move(headers, favorite.id, { collectionId: target.id });
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect((await favoritesOf(user))[0]?.collectionId).toBe(target.id);
  });

  // Where a favorite may go, and whose may move: favorites.service.test.ts. One answer of
  // each status here.
  it.each([
    ["someone else's favorite", 404, 'NOT_FOUND'],
    ['a team collection', 403, 'FORBIDDEN'],
    ['their own shared collection', 409, 'CONFLICT'],
  ] as const)('answers moving %s with %i, nothing moves', async (what, status, code) => {
    const { user, teamLink, teamCollection, headers } = await teamPerson();
    const someone = await createUser(db, org.id);
    const mine = await createFavorite(db, user, teamLink.id);
    const theirs = await createFavorite(db, someone, teamLink.id);
    const ownShared = await createCollection(db, { user });
    await createShare(db, user, ownShared.id, [someone.id]);
    const cases: Record<typeof what, [string, string]> = {
      "someone else's favorite": [theirs.id, user.rootId],
      'a team collection': [mine.id, teamCollection.id],
      'their own shared collection': [mine.id, ownShared.id],
    };
    const [favoriteId, collectionId] = cases[what];
    const response = await move(headers, favoriteId, { collectionId });
    expect(response.statusCode).toBe(status);
    expect(response.json()).toMatchObject({ code, message: expect.any(String) });
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
