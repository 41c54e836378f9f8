import { describe, expect, it } from 'vitest';
import { newId } from '../../lib/ids.ts';
import { createTestApp } from '../../../test/app.ts';
import { createCollection, createFavorite, createLink } from '../../../test/factories.ts';
import {
  createSignedInCast,
  createSpaces,
  type Place,
  type Role,
} from '../../../test/support/world.ts';
import { call } from '../../../test/support/consumer-call.ts';
import { expectRefused as refused } from '../../../test/support/refused.ts';
import { snapshot } from '../../../test/support/rows.ts';

const { app, db } = await createTestApp();
const cast = await createSignedInCast(app, db);

const order = (id: string, who: Role | null, payload: unknown) =>
  call(app, 'PUT', `/collections/${id}/order`, who ? cast[who] : undefined, payload);

/** A collection of the owner holding a link, a favorite and a sub-collection, in that order. */
async function filled() {
  const spaces = await createSpaces(db, cast);
  const link = await createLink(db, spaces.own, { position: 0 });
  const teamLink = await createLink(db, spaces.team);
  const favorite = await createFavorite(db, cast.owner, teamLink.id, spaces.own.id);
  const sub = await createCollection(db, { user: cast.owner }, { parentId: spaces.own.id });
  const items = [
    { type: 'link', id: link.id },
    { type: 'link-favorite', id: favorite.id },
    { type: 'collection', id: sub.id },
  ];
  return { ...spaces, link, favorite, sub, items };
}

/** The positions of a collection's items, as `type:id` in order. */
async function positions(collectionId: string) {
  const rows = await snapshot(db);
  return [
    ...rows.links
      .filter((row) => row.collectionId === collectionId)
      .map((row) => ({ key: `link:${row.id}`, position: row.position })),
    ...rows.favorites
      .filter((row) => row.collectionId === collectionId)
      .map((row) => ({ key: `link-favorite:${row.id}`, position: row.position })),
    ...rows.collections
      .filter((row) => row.parentId === collectionId)
      .map((row) => ({ key: `collection:${row.id}`, position: row.position })),
  ].sort((a, b) => a.position - b.position);
}

const expectRefused = (id: string, payload: unknown, status: number, who: Role | null) =>
  refused(db, () => order(id, who, payload), status);

describe('PUT /api/consumer/collections/:id/order', () => {
  it('requires authentication', async () => {
    const { own, items } = await filled();
    await expectRefused(own.id, { items }, 401, null);
  });

  it('puts links, favorites and sub-collections in the order given', async () => {
    const { own, link, favorite, sub } = await filled();
    const items = [
      { type: 'collection', id: sub.id },
      { type: 'link', id: link.id },
      { type: 'link-favorite', id: favorite.id },
    ];
    const response = await order(own.id, 'owner', { items });
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect(await positions(own.id)).toEqual([
      { key: `collection:${sub.id}`, position: 0 },
      { key: `link:${link.id}`, position: 1 },
      { key: `link-favorite:${favorite.id}`, position: 2 },
    ]);

    // What is added afterwards goes to the end of the new order.
    const added = await call(app, 'POST', '/collections', cast.owner, {
      name: 'Last',
      parentId: own.id,
    });
    expect(added.statusCode).toBe(204);
    expect((await positions(own.id)).at(-1)?.position).toBe(3);
  });

  it('orders the items the person sees: a favorite hidden by lost access keeps its place', async () => {
    const { own, otherTeam, link, favorite, sub } = await filled();
    // A favorite of a team link the owner cannot see (not, or no longer, in that team):
    // the menu hides it, so the owner cannot name it, and must not have to.
    const hiddenLink = await createLink(db, otherTeam);
    const hidden = await createFavorite(db, cast.owner, hiddenLink.id, own.id);
    const before = (await positions(own.id)).find((p) => p.key === `link-favorite:${hidden.id}`);
    const items = [
      { type: 'link-favorite', id: favorite.id },
      { type: 'collection', id: sub.id },
      { type: 'link', id: link.id },
    ];
    expect((await order(own.id, 'owner', { items })).statusCode).toBe(204);
    const after = await positions(own.id);
    expect(after.find((p) => p.key === `link-favorite:${favorite.id}`)?.position).toBe(0);
    expect(after.find((p) => p.key === `link-favorite:${hidden.id}`)).toEqual(before);
  });

  it('takes an empty list for an empty collection', async () => {
    const { own } = await createSpaces(db, cast);
    expect((await order(own.id, 'owner', { items: [] })).statusCode).toBe(204);
  });

  it('reorders My Space', async () => {
    const first = await createCollection(db, { user: cast.member });
    const second = await createCollection(db, { user: cast.member });
    const current = (await positions(cast.member.rootId)).map(({ key }) => {
      const [type, id] = key.split(':');
      return { type, id };
    });
    const items = current.reverse();
    expect((await order(cast.member.rootId, 'member', { items })).statusCode).toBe(204);
    const after = (await positions(cast.member.rootId)).map(({ key }) => key);
    expect(after.indexOf(`collection:${second.id}`)).toBeLessThan(
      after.indexOf(`collection:${first.id}`),
    );
  });

  const mismatches: [string, (f: Awaited<ReturnType<typeof filled>>) => unknown[]][] = [
    ['an item left out', (f) => f.items.slice(1)],
    ['an unknown item added', (f) => [...f.items, { type: 'link', id: newId() }]],
    ['an item named twice', (f) => [...f.items, f.items[0]]],
    ['an item twice instead of another', (f) => [f.items[0], f.items[0], f.items[2]]],
    [
      'an item under the wrong type',
      (f) => [{ type: 'collection', id: f.link.id }, f.items[1], f.items[2]],
    ],
    [
      "another collection's item",
      (f) => [...f.items.slice(0, 2), { type: 'collection', id: f.shared.id }],
    ],
    ['nothing at all', () => []],
  ];
  it.each(mismatches)('answers 409 for %s and changes nothing', async (_, make) => {
    const f = await filled();
    const response = await expectRefused(f.own.id, { items: make(f) }, 409, 'owner');
    expect(response.json()).toMatchObject({
      code: 'CONFLICT',
      message: 'The collection changed; reload and try again.',
    });
  });

  it.each([
    [{}, 'body.items is required'],
    [{ items: 'all' }, 'body.items must be array'],
    [{ items: [{ type: 'folder', id: newId() }] }, 'body.items.0.type'],
    [{ items: [{ type: 'link' }] }, 'body.items.0.id is required'],
    [{ items: [{ type: 'link', id: 'short' }] }, 'body.items.0.id'],
    [{ items: [{ type: 'link', id: newId(), position: 1 }] }, 'unknown property "position"'],
    [{ items: [], force: true }, 'body has an unknown property "force"'],
    [
      { items: Array.from({ length: 1001 }, () => ({ type: 'link', id: newId() })) },
      'body.items must NOT have more than 1000 items',
    ],
  ])('refuses %j with 400 and changes nothing', async (payload, message) => {
    const { own } = await filled();
    const response = await expectRefused(own.id, payload, 400, 'owner');
    expect(response.json().message).toContain(message);
  });

  // Refusals of places the permission table (test/permissions.test.ts) does not cover; the
  // owner reordering their shared collection and its member refused are cells of it.
  const cells: [Role, Place, number][] = [
    ['owner', 'colleagues', 404],
    ['owner', 'outsiders', 404],
    ['owner', 'otherTeam', 404],
    ['owner', 'unknown', 404],
    ['owner', 'team', 403],
    ['owner', 'organization', 403],
    ['member', 'sharedSub', 403],
    ['colleague', 'own', 404],
    ['teamMember', 'teamSub', 403],
    ['teamEditor', 'otherTeam', 404],
    ['outsider', 'own', 404],
  ];
  it.each(cells)('%s reordering %s: %i', async (role, place, status) => {
    const spaces = await createSpaces(db, cast);
    // Every place of the table is empty: the empty list names all its items.
    await expectRefused(spaces[place].id, { items: [] }, status, role);
  });
});
