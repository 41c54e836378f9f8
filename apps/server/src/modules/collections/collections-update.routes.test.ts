import { describe, expect, it } from 'vitest';
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
import { expectRefused as refused } from '../../../test/support/refused.ts';
import { collectionRow } from '../../../test/support/rows.ts';

const { app, db } = await createTestApp();
const cast = await createSignedInCast(app, db);

const patch = (id: string, who: Role | null, payload: unknown) =>
  call(app, 'PATCH', `/collections/${id}`, who ? cast[who] : undefined, payload);

/** A chain of `levels` collections of the owner under `parentId`; returns them top down. */
async function chain(parentId: string, levels: number) {
  const made = [];
  for (let i = 0; i < levels; i += 1) {
    const row = await createCollection(
      db,
      { user: cast.owner },
      { parentId: made.at(-1)?.id ?? parentId },
    );
    made.push(row);
  }
  return made;
}

const expectRefused = (id: string, payload: unknown, status: number, who: Role | null = 'owner') =>
  refused(db, () => patch(id, who, payload), status);

describe('PATCH /api/consumer/collections/:id', () => {
  it('requires authentication', async () => {
    const { own } = await createSpaces(db, cast);
    await expectRefused(own.id, { name: 'New' }, 401, null);
  });

  it('edits only the fields given, trimming the name', async () => {
    const own = await createCollection(
      db,
      { user: cast.owner },
      { name: 'Old', description: 'Keep', color: '#000000' },
    );
    const before = await collectionRow(db, own.id);
    const renamed = await patch(own.id, 'owner', { name: '  New  ', color: '#ABCDEF' });
    expect(renamed.statusCode).toBe(204);
    expect(renamed.body).toBe('');
    const after = await collectionRow(db, own.id);
    expect(after).toMatchObject({
      name: 'New',
      description: 'Keep',
      color: '#ABCDEF',
      parentId: before!.parentId,
      position: before!.position,
    });
    expect(after!.updatedAt.getTime()).toBeGreaterThanOrEqual(before!.updatedAt.getTime());

    expect((await patch(own.id, 'owner', { color: null, description: '' })).statusCode).toBe(204);
    expect(await collectionRow(db, own.id)).toMatchObject({
      name: 'New',
      description: '',
      color: null,
    });
  });

  it('moves a collection with its contents to the end of another', async () => {
    const { own } = await createSpaces(db, cast);
    const target = await createCollection(db, { user: cast.owner });
    await createLink(db, target, { position: 4 });
    const [moving, child] = await chain(own.id, 2);
    const response = await patch(moving!.id, 'owner', { parentId: target.id });
    expect(response.statusCode).toBe(204);
    expect(await collectionRow(db, moving!.id)).toMatchObject({
      parentId: target.id,
      position: 5,
    });
    expect(await collectionRow(db, child!.id)).toMatchObject({ parentId: moving!.id });
  });

  it('moves back to My Space when the target is the root', async () => {
    const { own } = await createSpaces(db, cast);
    const [inner] = await chain(own.id, 1);
    expect((await patch(inner!.id, 'owner', { parentId: cast.owner.rootId })).statusCode).toBe(204);
    expect(await collectionRow(db, inner!.id)).toMatchObject({ parentId: cast.owner.rootId });
  });

  it('keeps the place when parentId is the current parent', async () => {
    const { own } = await createSpaces(db, cast);
    const [inner] = await chain(own.id, 1);
    await createLink(db, own, { position: 99 });
    const before = await collectionRow(db, inner!.id);
    expect((await patch(inner!.id, 'owner', { parentId: own.id })).statusCode).toBe(204);
    expect(await collectionRow(db, inner!.id)).toMatchObject({
      parentId: own.id,
      position: before!.position,
    });
  });

  it.each([
    [{}, 'body must NOT have fewer than 1 properties'],
    [{ name: '' }, 'body.name'],
    [
      { name: '   ' },
      'body.name must not be blank: spaces and invisible characters alone are not a name',
    ],
    [{ name: 3 }, 'body.name must be string'],
    [{ name: 'x'.repeat(201) }, 'body.name must NOT have more than 200 characters'],
    [{ description: 'x'.repeat(2001) }, 'body.description'],
    [{ color: 'blue' }, 'body.color'],
    [{ parentId: null }, 'body.parentId'],
    [{ parentId: 'short' }, 'body.parentId'],
    [{ parentId: 12 }, 'body.parentId'],
    [{ isRoot: true }, 'body has an unknown property "isRoot"'],
    [{ ownerUserId: 'x', name: 'A' }, 'body has an unknown property "ownerUserId"'],
  ])('refuses %j with 400 and changes nothing', async (payload, message) => {
    const { own } = await createSpaces(db, cast);
    const response = await expectRefused(own.id, payload, 400);
    expect(response.json().message).toContain(message);
  });

  it('refuses a malformed id with 400', async () => {
    await expectRefused('not-an-id', { name: 'A' }, 400);
  });

  describe('My Space', () => {
    it('cannot be renamed or moved (409)', async () => {
      const { own } = await createSpaces(db, cast);
      await expectRefused(cast.owner.rootId, { name: 'Mine' }, 409);
      await expectRefused(cast.owner.rootId, { parentId: own.id }, 409);
      await expectRefused(cast.owner.rootId, { name: 'My Space', parentId: own.id }, 409);
    });

    it('takes its unchanged name back with a new description and colour', async () => {
      const me = await createPerson(app, db, cast.org.id);
      const response = await call(app, 'PATCH', `/collections/${me.rootId}`, me, {
        name: 'My Space',
        description: 'Mine',
        color: '#112233',
      });
      expect(response.statusCode).toBe(204);
      expect(await collectionRow(db, me.rootId)).toMatchObject({
        name: 'My Space',
        description: 'Mine',
        color: '#112233',
        parentId: null,
        isRoot: true,
      });
    });
  });

  describe('moves that break a rule (409, nothing changes)', () => {
    it('into itself, its child or a deeper descendant', async () => {
      const { own } = await createSpaces(db, cast);
      const [child, grandchild] = await chain(own.id, 2);
      await expectRefused(own.id, { parentId: own.id }, 409);
      await expectRefused(own.id, { parentId: child!.id }, 409);
      await expectRefused(own.id, { parentId: grandchild!.id }, 409);
    });

    it('deeper than 10 levels below My Space, counting what it holds', async () => {
      const deep = await chain(cast.owner.rootId, 8); // levels 1..8
      const [moving] = await chain(cast.owner.rootId, 2); // a tree two levels tall
      // Under level 8 it would reach levels 9 and 10: allowed. Under level 9's place: not.
      const level9 = await createCollection(db, { user: cast.owner }, { parentId: deep[7]!.id });
      const response = await expectRefused(moving!.id, { parentId: level9.id }, 409);
      expect(response.json().message).toMatch(/10 levels/);
      expect((await patch(moving!.id, 'owner', { parentId: deep[7]!.id })).statusCode).toBe(204);
    });

    it('a shared collection, or one holding a share, into a shared one', async () => {
      const { shared, sharedSub } = await createSpaces(db, cast);
      const otherShared = await createCollection(db, { user: cast.owner });
      await createShare(db, cast.owner, otherShared.id, [cast.colleague.id]);
      const holder = await createCollection(db, { user: cast.owner });
      const [inner] = await chain(holder.id, 1);
      await createShare(db, cast.owner, inner!.id, [cast.member.id]);
      await expectRefused(otherShared.id, { parentId: shared.id }, 409);
      await expectRefused(otherShared.id, { parentId: sharedSub.id }, 409);
      await expectRefused(holder.id, { parentId: shared.id }, 409);
    });

    it('a collection holding favorites into a shared one (favorites are private)', async () => {
      const { own, shared, team } = await createSpaces(db, cast);
      const [inner] = await chain(own.id, 1);
      await createFavorite(db, cast.owner, (await createLink(db, team)).id, inner!.id);
      const response = await expectRefused(own.id, { parentId: shared.id }, 409);
      expect(response.json().message).toMatch(/favorites/i);
    });

    it('but a plain collection may go into a shared one', async () => {
      const { own, shared } = await createSpaces(db, cast);
      expect((await patch(own.id, 'owner', { parentId: shared.id })).statusCode).toBe(204);
      expect(await collectionRow(db, own.id)).toMatchObject({ parentId: shared.id });
    });
  });

  it('lets only one of two crossing moves through, so no cycle is ever stored', async () => {
    const { own } = await createSpaces(db, cast);
    const [a, b] = [
      await createCollection(db, { user: cast.owner }, { parentId: own.id }),
      await createCollection(db, { user: cast.owner }, { parentId: own.id }),
    ];
    const statuses = (
      await Promise.all([
        patch(a.id, 'owner', { parentId: b.id }),
        patch(b.id, 'owner', { parentId: a.id }),
      ])
    ).map((response) => response.statusCode);
    expect(statuses.sort()).toEqual([204, 409]);
    const [rowA, rowB] = [await collectionRow(db, a.id), await collectionRow(db, b.id)];
    expect(rowA!.parentId === b.id && rowB!.parentId === a.id).toBe(false);
  });

  // The cells of the permission table (test/permissions.test.ts) are not repeated here.
  const edits: [Role, Place, number][] = [
    ['owner', 'own', 204],
    ['owner', 'sharedSub', 204],
    ['owner', 'colleagues', 404],
    ['owner', 'colleagueRoot', 404],
    ['owner', 'outsiders', 404],
    ['owner', 'otherTeam', 404],
    ['owner', 'otherOrganization', 404],
    ['owner', 'unknown', 404],
    ['owner', 'organization', 403],
    ['member', 'sharedSub', 403],
    ['orgAdmin', 'organization', 204],
    ['orgAdmin', 'otherTeam', 204],
    ['teamEditor', 'teamSub', 204],
    ['teamEditor', 'otherTeam', 404],
    ['teamMember', 'team', 403],
    ['outsider', 'own', 404],
  ];
  it.each(edits)('%s renaming %s: %i', async (role, place, status) => {
    const spaces = await createSpaces(db, cast);
    const id = spaces[place].id;
    if (status === 204) {
      expect((await patch(id, role, { name: 'Renamed' })).statusCode).toBe(204);
      expect(await collectionRow(db, id)).toMatchObject({ name: 'Renamed' });
    } else {
      await expectRefused(id, { name: 'Renamed' }, status, role);
    }
  });

  // The collection moved and the target are authorized on their own.
  const targets: [Role, Place, Place, number][] = [
    ['owner', 'own', 'sharedSub', 204],
    ['owner', 'own', 'colleagues', 404],
    ['owner', 'own', 'colleagueRoot', 404],
    ['owner', 'own', 'outsiders', 404],
    ['owner', 'own', 'unknown', 404],
    ['owner', 'own', 'otherTeam', 404],
    ['owner', 'own', 'team', 403],
    ['owner', 'own', 'organization', 403],
    ['owner', 'colleagues', 'own', 404],
    ['owner', 'team', 'own', 403],
    ['member', 'sharedSub', 'root', 403],
  ];
  it.each(targets)('%s moving %s into %s: %i', async (role, place, target, status) => {
    const spaces = await createSpaces(db, cast);
    const id = spaces[place].id;
    const parentId = spaces[target].id;
    if (status === 204) {
      expect((await patch(id, role, { parentId })).statusCode).toBe(204);
      expect(await collectionRow(db, id)).toMatchObject({ parentId });
    } else {
      await expectRefused(id, { parentId }, status, role);
    }
  });

  it("refuses a share member moving their own collection into the owner's share", async () => {
    const { shared } = await createSpaces(db, cast);
    const mine = await createCollection(db, { user: cast.member });
    await expectRefused(mine.id, { parentId: shared.id }, 403, 'member');
  });

  it('refuses an unknown target id with 404 naming it', async () => {
    const { own } = await createSpaces(db, cast);
    const missing = newId();
    const response = await expectRefused(own.id, { parentId: missing }, 404);
    expect(response.json().message).toContain(missing);
  });
});
