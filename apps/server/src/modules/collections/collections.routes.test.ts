import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { collections } from '../../db/schema/index.ts';
import { newId } from '../../lib/ids.ts';
import { createTestApp } from '../../../test/app.ts';
import {
  createCollection,
  createFavorite,
  createLink,
  createShare,
} from '../../../test/factories.ts';
import {
  createSignedInCast,
  createPerson,
  createSpaces,
  type Place,
  type Role,
} from '../../../test/support/world.ts';
import { call } from '../../../test/support/consumer-call.ts';
import { collectionRow, snapshot } from '../../../test/support/rows.ts';

const { app, db } = await createTestApp();
const cast = await createSignedInCast(app, db);

const childrenOf = (parentId: string) =>
  db.select().from(collections).where(eq(collections.parentId, parentId));

describe('POST /api/consumer/collections', () => {
  it('requires authentication', async () => {
    const before = await snapshot(db);
    expect((await call(app, 'POST', '/collections', undefined, { name: 'X' })).statusCode).toBe(
      401,
    );
    const expired = { headers: { authorization: `Bearer ${'x'.repeat(43)}` } };
    expect((await call(app, 'POST', '/collections', expired, { name: 'X' })).statusCode).toBe(401);
    expect(await snapshot(db)).toEqual(before);
  });

  it('adds a collection at the end of My Space when parentId is omitted or null', async () => {
    const me = await createPerson(app, db, cast.org.id);
    await createLink(db, { id: me.rootId, organizationId: me.organizationId }, { position: 5 });

    const first = await call(app, 'POST', '/collections/', me, { name: '  Reading  ' });
    expect(first.statusCode).toBe(204);
    expect(first.body).toBe('');
    const second = await call(app, 'POST', '/collections', me, {
      name: 'Tools',
      description: 'Daily',
      color: '#3B82F6',
      parentId: null,
    });
    expect(second.statusCode).toBe(204);

    const rows = (await childrenOf(me.rootId)).sort((a, b) => a.position - b.position);
    expect(rows).toMatchObject([
      {
        name: 'Reading',
        description: '',
        color: null,
        position: 6,
        ownerType: 'user',
        ownerUserId: me.id,
        ownerTeamId: null,
        organizationId: me.organizationId,
        createdBy: me.id,
        isRoot: false,
      },
      { name: 'Tools', description: 'Daily', color: '#3B82F6', position: 7 },
    ]);
    expect(rows[0]?.id).toMatch(/^[A-Za-z0-9_-]{21}$/);
  });

  it("nests in one of the caller's own collections, after its items", async () => {
    const parent = await createCollection(db, { user: cast.owner });
    await createCollection(db, { user: cast.owner }, { parentId: parent.id, position: 3 });
    const response = await call(app, 'POST', '/collections', cast.owner, {
      name: 'Inner',
      parentId: parent.id,
    });
    expect(response.statusCode).toBe(204);
    const inner = (await childrenOf(parent.id)).find((row) => row.name === 'Inner');
    expect(inner).toMatchObject({ position: 4, ownerUserId: cast.owner.id });
  });

  it('nests 10 levels below My Space and refuses an 11th with 409', async () => {
    const me = await createPerson(app, db, cast.org.id);
    let parentId = me.rootId;
    for (let level = 1; level <= 10; level += 1) {
      const response = await call(app, 'POST', '/collections', me, {
        name: `Level ${level}`,
        parentId,
      });
      expect(response.statusCode).toBe(204);
      const [child] = await childrenOf(parentId);
      parentId = child!.id;
    }
    const before = await snapshot(db);
    const deeper = await call(app, 'POST', '/collections', me, { name: 'Level 11', parentId });
    expect(deeper.statusCode).toBe(409);
    expect(deeper.json()).toMatchObject({ code: 'CONFLICT', message: expect.stringMatching(/10/) });
    expect(await snapshot(db)).toEqual(before);
  });

  it.each([
    [{}, 'body.name is required'],
    [{ name: '' }, 'body.name must NOT have fewer than 1 characters'],
    [
      { name: ' \u200b\u00a0 ' },
      'body.name must not be blank: spaces and invisible characters alone are not a name',
    ],
    [{ name: 5 }, 'body.name must be string'],
    [{ name: null }, 'body.name must be string'],
    [{ name: 'x'.repeat(201) }, 'body.name must NOT have more than 200 characters'],
    [{ name: 'A', description: 'x'.repeat(2001) }, 'body.description must NOT have more'],
    [{ name: 'A', description: 7 }, 'body.description must be string'],
    [{ name: 'A', color: 'red' }, 'body.color'],
    [{ name: 'A', color: '#12345' }, 'body.color'],
    [{ name: 'A', parentId: 'short' }, 'body.parentId'],
    [{ name: 'A', parentId: 42 }, 'body.parentId'],
    [{ name: 'A', parentId: `${newId()}'--` }, 'body.parentId'],
    [{ name: 'A', ownerUserId: 'x' }, 'body has an unknown property "ownerUserId"'],
    [{ name: 'A', organizationId: 'x' }, 'body has an unknown property "organizationId"'],
    [['A'], 'body must be object'],
  ])('refuses %j with 400 and stores nothing', async (payload, message) => {
    const before = await snapshot(db);
    const response = await call(app, 'POST', '/collections', cast.owner, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: expect.stringContaining(message),
    });
    expect(await snapshot(db)).toEqual(before);
  });

  const parents: [Role, Place, number][] = [
    ['owner', 'own', 204],
    ['owner', 'root', 204],
    ['owner', 'sharedSub', 204],
    ['owner', 'colleagues', 404],
    ['owner', 'colleagueRoot', 404],
    ['owner', 'outsiders', 404],
    ['owner', 'otherOrganization', 404],
    ['owner', 'otherTeam', 404],
    ['owner', 'unknown', 404],
    ['member', 'sharedSub', 403],
    ['member', 'own', 404],
    ['outsider', 'own', 404],
  ];
  it.each(parents)('%s nesting in %s: %i', async (role, place, status) => {
    const spaces = await createSpaces(db, cast);
    const parentId = spaces[place].id;
    const before = await snapshot(db);
    const response = await call(app, 'POST', '/collections', cast[role], {
      name: 'Nested',
      parentId,
    });
    expect(response.statusCode).toBe(status);
    if (status === 204) {
      expect(await childrenOf(parentId)).toContainEqual(
        expect.objectContaining({ name: 'Nested', ownerUserId: cast[role].id }),
      );
    } else {
      expect(response.json().code).toBe(status === 404 ? 'NOT_FOUND' : 'FORBIDDEN');
      expect(await snapshot(db)).toEqual(before);
    }
  });
});

describe('DELETE /api/consumer/collections/:id', () => {
  it('requires authentication', async () => {
    const { own } = await createSpaces(db, cast);
    const response = await call(app, 'DELETE', `/collections/${own.id}`);
    expect(response.statusCode).toBe(401);
    expect(await collectionRow(db, own.id)).toBeDefined();
  });

  it('deletes the collection and everything inside it, and nothing else', async () => {
    const { own, team } = await createSpaces(db, cast);
    const sibling = await createCollection(db, { user: cast.owner });
    const siblingLink = await createLink(db, sibling);
    const sub = await createCollection(db, { user: cast.owner }, { parentId: own.id });
    const subSub = await createCollection(db, { user: cast.owner }, { parentId: sub.id });
    const sharedInside = await createCollection(db, { user: cast.owner }, { parentId: own.id });
    const share = await createShare(db, cast.owner, sharedInside.id, [cast.member.id]);
    const teamLink = await createLink(db, team);
    const favorite = await createFavorite(db, cast.owner, teamLink.id, sub.id);
    const inside = [
      await createLink(db, own),
      await createLink(db, subSub),
      await createLink(db, sharedInside, { createdBy: cast.member.id }),
    ];

    const response = await call(app, 'DELETE', `/collections/${own.id}/`, cast.owner);
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');

    const after = await snapshot(db);
    const gone = [own.id, sub.id, subSub.id, sharedInside.id];
    expect(after.collections.filter((row) => gone.includes(row.id))).toEqual([]);
    const linkIds = after.links.map((row) => row.id);
    for (const link of inside) expect(linkIds).not.toContain(link.id);
    expect(linkIds).toEqual(expect.arrayContaining([siblingLink.id, teamLink.id]));
    expect(after.favorites.map((row) => row.id)).not.toContain(favorite.id);
    expect(after.shares.map((row) => row.id)).not.toContain(share.id);
    expect(after.members.filter((row) => row.shareId === share.id)).toEqual([]);
    expect(await collectionRow(db, sibling.id)).toBeDefined();
  });

  it('lets the owner delete a shared collection with its share', async () => {
    const { shared, sharedSub, share } = await createSpaces(db, cast);
    const response = await call(app, 'DELETE', `/collections/${shared.id}`, cast.owner);
    expect(response.statusCode).toBe(204);
    const after = await snapshot(db);
    expect(after.collections.map((row) => row.id)).not.toContain(sharedSub.id);
    expect(after.shares.map((row) => row.id)).not.toContain(share.id);
    expect(after.members.filter((row) => row.shareId === share.id)).toEqual([]);
  });

  it('refuses to delete My Space with 409', async () => {
    const before = await snapshot(db);
    const response = await call(app, 'DELETE', `/collections/${cast.owner.rootId}`, cast.owner);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ code: 'CONFLICT', message: expect.any(String) });
    expect(await snapshot(db)).toEqual(before);
  });

  it('refuses a malformed id with 400', async () => {
    const before = await snapshot(db);
    for (const id of ['short', `${newId()}x`, '%27%20OR%201%3D1']) {
      const response = await call(app, 'DELETE', `/collections/${id}`, cast.owner);
      expect(response.statusCode).toBe(400);
    }
    expect(await snapshot(db)).toEqual(before);
  });

  // The cells of the permission table (test/permissions.test.ts) are not repeated here.
  const cells: [Role, Place, number][] = [
    ['owner', 'own', 204],
    ['owner', 'sharedSub', 204],
    ['owner', 'colleagues', 404],
    ['owner', 'colleagueRoot', 404],
    ['owner', 'outsiders', 404],
    ['owner', 'otherTeam', 404],
    ['owner', 'otherOrganization', 404],
    ['owner', 'unknown', 404],
    ['owner', 'team', 403],
    ['member', 'sharedSub', 403],
    ['colleague', 'own', 404],
    ['teamEditor', 'team', 204],
    ['teamEditor', 'otherTeam', 404],
    ['orgAdmin', 'otherTeam', 204],
    ['teamEditor', 'organization', 403],
    ['teamMember', 'team', 403],
    ['outsider', 'own', 404],
  ];
  it.each(cells)('%s deleting %s: %i', async (role, place, status) => {
    const spaces = await createSpaces(db, cast);
    const id = spaces[place].id;
    const before = await snapshot(db);
    const response = await call(app, 'DELETE', `/collections/${id}`, cast[role]);
    expect(response.statusCode).toBe(status);
    if (status === 204) {
      expect(await collectionRow(db, id)).toBeUndefined();
    } else {
      expect(await snapshot(db)).toEqual(before);
    }
  });
});
