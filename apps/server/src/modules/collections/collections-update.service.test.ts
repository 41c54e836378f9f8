// Editing and moving a collection, against the service and its real repositories: what an
// edit writes, who may edit or move which, and the moves that would break the tree (409).
import { sql } from 'drizzle-orm';
import { selectRows } from '../../db/client.ts';
import { describe, expect, it } from 'vitest';
import { createTestServices } from '../../../test/app.ts';
import {
  createCollection,
  createFavorite,
  createLink,
  createShare,
  createUser,
} from '../../../test/factories.ts';
import { collectionRow } from '../../../test/support/rows.ts';
import { createCast, createSpaces, type Place, type Role } from '../../../test/support/world.ts';
import { callerOf } from '../../../test/support/callers.ts';
import {
  OTHER_SPACE,
  OWNER_ONLY,
  REFUSALS,
  type Refused,
  expectRefusedUnchanged,
} from '../../../test/support/content-refusals.ts';

const { services, db } = await createTestServices();
const { collections: service } = services;
const cast = await createCast(db);

/** The version of a menu scope (decision 0057): a change anyone should be told of bumps it. */
const scopeVersion = async (scope: string) =>
  (
    await selectRows<{ version: string }>(
      db,
      sql`SELECT version::text AS version FROM menu_scopes WHERE scope = ${scope}`,
    )
  )[0]?.version ?? '0';

const as = (role: Role) => callerOf(cast[role]);

const TOO_DEEP = 'Collections nest at most 10 levels below My Space.';
const notFound = (id: string) => `Collection ${id} was not found`;

/** Runs a call that must be refused: its AppError, and no content row changed. */
const expectRefused = (call: () => Promise<unknown>, statusCode: number, message: string) =>
  expectRefusedUnchanged(db, call, statusCode, message);

/** A chain of `levels` collections of the owner under `parentId`; returns them top down. */
async function chain(parentId: string, levels: number) {
  const made: { id: string }[] = [];
  for (let i = 0; i < levels; i += 1) {
    const parent: string = made.at(-1)?.id ?? parentId;
    made.push(await createCollection(db, { user: cast.owner }, { parentId: parent }));
  }
  return made;
}

describe('editing a collection', () => {
  it('changes only the fields given, trimming the name', async () => {
    const own = await createCollection(
      db,
      { user: cast.owner },
      { name: 'Old', description: 'Keep', color: '#000000' },
    );
    const before = await collectionRow(db, own.id);
    await service.updateCollection(as('owner'), own.id, { name: '  New  ', color: '#ABCDEF' });
    const after = await collectionRow(db, own.id);
    expect(after).toMatchObject({
      name: 'New',
      description: 'Keep',
      color: '#ABCDEF',
      parentId: before!.parentId,
      position: before!.position,
    });
    expect(after!.updatedAt.getTime()).toBeGreaterThanOrEqual(before!.updatedAt.getTime());
    await service.updateCollection(as('owner'), own.id, { color: null, description: '' });
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
    await service.updateCollection(as('owner'), moving!.id, { parentId: target.id });
    expect(await collectionRow(db, moving!.id)).toMatchObject({ parentId: target.id, position: 5 });
    expect(await collectionRow(db, child!.id)).toMatchObject({ parentId: moving!.id });
  });

  it('moves back to My Space when the target is the root', async () => {
    const { own } = await createSpaces(db, cast);
    const [inner] = await chain(own.id, 1);
    await service.updateCollection(as('owner'), inner!.id, { parentId: cast.owner.rootId });
    expect(await collectionRow(db, inner!.id)).toMatchObject({ parentId: cast.owner.rootId });
  });

  it('keeps the place when the parent named is the current one', async () => {
    const { own } = await createSpaces(db, cast);
    const [inner] = await chain(own.id, 1);
    await createLink(db, own, { position: 99 });
    const before = await collectionRow(db, inner!.id);
    await service.updateCollection(as('owner'), inner!.id, { parentId: own.id });
    expect(await collectionRow(db, inner!.id)).toMatchObject({
      parentId: own.id,
      position: before!.position,
    });
  });

  it('writes nothing for an edit that changes nothing: no one is told of a change', async () => {
    const { own } = await createSpaces(db, cast);
    const [inner] = await chain(own.id, 1);
    const before = await collectionRow(db, inner!.id);
    const version = await scopeVersion(`p:${cast.owner.id}`);
    await service.updateCollection(as('owner'), inner!.id, {
      name: before!.name,
      description: before!.description,
      color: before!.color,
      parentId: own.id,
    });
    expect(await collectionRow(db, inner!.id)).toEqual(before);
    expect(await scopeVersion(`p:${cast.owner.id}`)).toBe(version);
  });

  it('never renames or moves My Space (409), but takes its unchanged name back', async () => {
    const { own } = await createSpaces(db, cast);
    const root = cast.owner.rootId;
    const update = (body: object) => () => service.updateCollection(as('owner'), root, body);
    await expectRefused(update({ name: 'Mine' }), 409, 'My Space cannot be renamed.');
    await expectRefused(update({ parentId: own.id }), 409, 'My Space cannot be moved.');
    await expectRefused(
      update({ name: 'My Space', parentId: own.id }),
      409,
      'My Space cannot be moved.',
    );
    const me = await createUser(db, cast.org.id);
    await service.updateCollection(callerOf(me), me.rootId, {
      name: 'My Space',
      description: 'Mine',
      color: '#112233',
    });
    expect(await collectionRow(db, me.rootId)).toMatchObject({
      name: 'My Space',
      description: 'Mine',
      color: '#112233',
      parentId: null,
      isRoot: true,
    });
  });

  describe('refuses a move that would break the tree (409), changing nothing', () => {
    const move =
      (id: string, parentId: string, role: Role = 'owner') =>
      () =>
        service.updateCollection(as(role), id, { parentId });

    it('into itself, its child or a deeper descendant', async () => {
      const { own } = await createSpaces(db, cast);
      const [child, grandchild] = await chain(own.id, 2);
      const message = 'A collection cannot move into itself or one of its sub-collections.';
      for (const target of [own, child!, grandchild!]) {
        await expectRefused(move(own.id, target.id), 409, message);
      }
    });

    it('deeper than 10 levels below My Space, counting what it holds', async () => {
      const deep = await chain(cast.owner.rootId, 8); // levels 1..8
      const [moving] = await chain(cast.owner.rootId, 2); // a tree two levels tall
      // Under level 8 it would reach levels 9 and 10: allowed. Under level 9: not.
      const level9 = await createCollection(db, { user: cast.owner }, { parentId: deep[7]!.id });
      await expectRefused(move(moving!.id, level9.id), 409, TOO_DEEP);
      await move(moving!.id, deep[7]!.id)();
      expect(await collectionRow(db, moving!.id)).toMatchObject({ parentId: deep[7]!.id });
    });

    it('a shared collection, or one holding a share, into a shared one', async () => {
      const { shared, sharedSub } = await createSpaces(db, cast);
      const otherShared = await createCollection(db, { user: cast.owner });
      await createShare(db, cast.owner, otherShared.id, [cast.colleague.id]);
      const holder = await createCollection(db, { user: cast.owner });
      const [inner] = await chain(holder.id, 1);
      await createShare(db, cast.owner, inner!.id, [cast.member.id]);
      const message = 'Shares do not nest: a shared collection cannot go into a shared one.';
      await expectRefused(move(otherShared.id, shared.id), 409, message);
      await expectRefused(move(otherShared.id, sharedSub.id), 409, message);
      await expectRefused(move(holder.id, shared.id), 409, message);
    });

    it('a collection holding favorites into a shared one (favorites are private)', async () => {
      const { own, shared, team } = await createSpaces(db, cast);
      const [inner] = await chain(own.id, 1);
      await createFavorite(db, cast.owner, (await createLink(db, team)).id, inner!.id);
      await expectRefused(
        move(own.id, shared.id),
        409,
        'Favorites are private: this collection holds favorites and cannot go into a shared one.',
      );
    });

    it('a personal collection into a team, and a team one into a personal one', async () => {
      const { team, teamSub } = await createSpaces(db, cast);
      const mine = await createCollection(db, { user: cast.teamEditor });
      await expectRefused(move(mine.id, team.id, 'teamEditor'), 409, OTHER_SPACE);
      await expectRefused(move(teamSub.id, mine.id, 'teamEditor'), 409, OTHER_SPACE);
    });

    it('but lets a plain collection go into a shared one', async () => {
      const { own, shared } = await createSpaces(db, cast);
      await move(own.id, shared.id)();
      expect(await collectionRow(db, own.id)).toMatchObject({ parentId: shared.id });
    });
  });

  it('lets only one of two crossing moves through, so no cycle is ever stored', async () => {
    const { own } = await createSpaces(db, cast);
    const [a, b] = [
      await createCollection(db, { user: cast.owner }, { parentId: own.id }),
      await createCollection(db, { user: cast.owner }, { parentId: own.id }),
    ];
    const outcomes = await Promise.allSettled([
      service.updateCollection(as('owner'), a.id, { parentId: b.id }),
      service.updateCollection(as('owner'), b.id, { parentId: a.id }),
    ]);
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = outcomes.find((outcome) => outcome.status === 'rejected');
    expect(refused?.reason).toMatchObject({ statusCode: 409 });
    const [rowA, rowB] = [await collectionRow(db, a.id), await collectionRow(db, b.id)];
    expect(rowA!.parentId === b.id && rowB!.parentId === a.id).toBe(false);
  });

  const edits: [Role, Place, 204 | 404 | Refused][] = [
    ['owner', 'own', 204],
    ['owner', 'sharedSub', 204],
    ['owner', 'colleagues', 404],
    ['owner', 'colleagueRoot', 404],
    ['owner', 'outsiders', 404],
    ['owner', 'otherTeam', 404],
    ['owner', 'otherOrganization', 404],
    ['owner', 'unknown', 404],
    ['owner', 'organization', 'organization'],
    ['member', 'sharedSub', 'personal'],
    ['orgAdmin', 'organization', 204],
    ['orgAdmin', 'otherTeam', 204],
    ['teamEditor', 'teamSub', 204],
    ['teamEditor', 'otherTeam', 404],
    ['teamMember', 'team', 'team'],
    ['outsider', 'own', 404],
  ];
  it.each(edits)('%s renaming %s: %s', async (role, place, outcome) => {
    const id = (await createSpaces(db, cast))[place].id;
    const rename = () => service.updateCollection(as(role), id, { name: 'Renamed' });
    if (outcome === 204) {
      await rename();
      expect(await collectionRow(db, id)).toMatchObject({ name: 'Renamed' });
    } else if (outcome === 404) {
      await expectRefused(rename, 404, notFound(id));
    } else {
      await expectRefused(rename, 403, REFUSALS[outcome]);
    }
  });

  // The collection moved and the target are authorized on their own; a 404 names the one
  // the caller cannot see.
  const targets: [Role, Place, Place, 204 | 'source' | 'target' | Refused][] = [
    ['owner', 'own', 'sharedSub', 204],
    ['owner', 'own', 'colleagues', 'target'],
    ['owner', 'own', 'colleagueRoot', 'target'],
    ['owner', 'own', 'outsiders', 'target'],
    ['owner', 'own', 'unknown', 'target'],
    ['owner', 'own', 'otherTeam', 'target'],
    ['owner', 'own', 'team', 'team'],
    ['owner', 'own', 'organization', 'organization'],
    ['owner', 'colleagues', 'own', 'source'],
    ['owner', 'team', 'own', 'team'],
    ['member', 'sharedSub', 'root', 'personal'],
  ];
  it.each(targets)('%s moving %s into %s: %s', async (role, place, target, outcome) => {
    const spaces = await createSpaces(db, cast);
    const [id, parentId] = [spaces[place].id, spaces[target].id];
    const move = () => service.updateCollection(as(role), id, { parentId });
    if (outcome === 204) {
      await move();
      expect(await collectionRow(db, id)).toMatchObject({ parentId });
    } else if (outcome === 'source' || outcome === 'target') {
      await expectRefused(move, 404, notFound(outcome === 'source' ? id : parentId));
    } else {
      await expectRefused(move, 403, REFUSALS[outcome]);
    }
  });

  it('refuses a share member moving their own collection into the owner’s share: 403', async () => {
    const { shared } = await createSpaces(db, cast);
    const mine = await createCollection(db, { user: cast.member });
    await expectRefused(
      () => service.updateCollection(as('member'), mine.id, { parentId: shared.id }),
      403,
      OWNER_ONLY,
    );
  });
});
