// Ordering the items of a collection, against the service and its real repositories: the
// list must name every item the person sees, once; who may reorder which.
import { describe, expect, it } from 'vitest';
import { newId } from '../../lib/ids.ts';
import { createTestServices } from '../../../test/app.ts';
import { createCollection, createFavorite, createLink } from '../../../test/factories.ts';
import { snapshot } from '../../../test/support/rows.ts';
import { createCast, createSpaces, type Place, type Role } from '../../../test/support/world.ts';
import { callerOf } from '../../../test/support/callers.ts';
import { auditEntriesAbout } from '../../../test/support/audit-entries.ts';
import {
  REFUSALS,
  type Refused,
  expectRefusedUnchanged,
} from '../../../test/support/content-refusals.ts';

const { services, db } = await createTestServices();
const { collections: service } = services;
const cast = await createCast(db);

const as = (role: Role) => callerOf(cast[role]);

const CHANGED = 'The collection changed; reload and try again.';
const notFound = (id: string) => `Collection ${id} was not found`;

/** Runs a call that must be refused: its AppError, and no content row changed. */
const expectRefused = (call: () => Promise<unknown>, statusCode: number, message: string) =>
  expectRefusedUnchanged(db, call, statusCode, message);

const entriesFor = (targetId: string) => auditEntriesAbout(db, targetId);

describe('ordering the items of a collection', () => {
  /** A collection of the owner holding a link, a favorite and a sub-collection, in that order. */
  async function filled() {
    const spaces = await createSpaces(db, cast);
    const link = await createLink(db, spaces.own, { position: 0 });
    const teamLink = await createLink(db, spaces.team);
    const favorite = await createFavorite(db, cast.owner, teamLink.id, spaces.own.id);
    const sub = await createCollection(db, { user: cast.owner }, { parentId: spaces.own.id });
    const items = [
      { type: 'link' as const, id: link.id },
      { type: 'link-favorite' as const, id: favorite.id },
      { type: 'collection' as const, id: sub.id },
    ];
    return { ...spaces, link, favorite, sub, items };
  }
  type Item = Awaited<ReturnType<typeof filled>>['items'][number];

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

  it('puts links, favorites and sub-collections in the order given', async () => {
    const { own, link, favorite, sub } = await filled();
    const items: Item[] = [
      { type: 'collection', id: sub.id },
      { type: 'link', id: link.id },
      { type: 'link-favorite', id: favorite.id },
    ];
    await service.orderItems(as('owner'), own.id, { items });
    expect(await positions(own.id)).toEqual([
      { key: `collection:${sub.id}`, position: 0 },
      { key: `link:${link.id}`, position: 1 },
      { key: `link-favorite:${favorite.id}`, position: 2 },
    ]);
    // What is added afterwards goes to the end of the new order.
    await service.createCollection(as('owner'), { name: 'Last', parentId: own.id });
    expect((await positions(own.id)).at(-1)?.position).toBe(3);
    // Personal content is not audited.
    expect(await entriesFor(own.id)).toEqual([]);
  });

  it('orders the items the person sees: a favorite hidden by lost access keeps its place', async () => {
    const { own, otherTeam, link, favorite, sub } = await filled();
    // A favorite of a team link the owner cannot see (not, or no longer, in that team):
    // the menu hides it, so the owner cannot name it, and must not have to.
    const hidden = await createFavorite(
      db,
      cast.owner,
      (await createLink(db, otherTeam)).id,
      own.id,
    );
    const before = (await positions(own.id)).find((p) => p.key === `link-favorite:${hidden.id}`);
    const items: Item[] = [
      { type: 'link-favorite', id: favorite.id },
      { type: 'collection', id: sub.id },
      { type: 'link', id: link.id },
    ];
    await service.orderItems(as('owner'), own.id, { items });
    const after = await positions(own.id);
    expect(after.find((p) => p.key === `link-favorite:${favorite.id}`)?.position).toBe(0);
    expect(after.find((p) => p.key === `link-favorite:${hidden.id}`)).toEqual(before);
  });

  it('takes an empty list for an empty collection', async () => {
    const { own } = await createSpaces(db, cast);
    await service.orderItems(as('owner'), own.id, { items: [] });
    expect(await positions(own.id)).toEqual([]);
  });

  it('reorders My Space', async () => {
    const first = await createCollection(db, { user: cast.member });
    const second = await createCollection(db, { user: cast.member });
    const items = (await positions(cast.member.rootId))
      .map(({ key }) => {
        const [type, id] = key.split(':');
        return { type, id } as Item;
      })
      .reverse();
    await service.orderItems(as('member'), cast.member.rootId, { items });
    const after = (await positions(cast.member.rootId)).map(({ key }) => key);
    expect(after.indexOf(`collection:${second.id}`)).toBeLessThan(
      after.indexOf(`collection:${first.id}`),
    );
  });

  const mismatches: [string, (f: Awaited<ReturnType<typeof filled>>) => Item[]][] = [
    ['an item left out', (f) => f.items.slice(1)],
    ['an unknown item added', (f) => [...f.items, { type: 'link', id: newId() }]],
    ['an item named twice', (f) => [...f.items, f.items[0]!]],
    ['an item twice instead of another', (f) => [f.items[0]!, f.items[0]!, f.items[2]!]],
    [
      'an item under the wrong type',
      (f) => [{ type: 'collection', id: f.link.id }, f.items[1]!, f.items[2]!],
    ],
    [
      'another collection’s item',
      (f) => [...f.items.slice(0, 2), { type: 'collection', id: f.shared.id }],
    ],
    ['nothing at all', () => []],
  ];
  it.each(mismatches)('refuses a list with %s: 409', async (_, make) => {
    const f = await filled();
    await expectRefused(
      () => service.orderItems(as('owner'), f.own.id, { items: make(f) }),
      409,
      CHANGED,
    );
  });

  // The owner reordering their shared collection and its member refused are cells of the
  // permission table (test/http/permissions.test.ts).
  const cells: [Role, Place, 404 | Refused][] = [
    ['owner', 'colleagues', 404],
    ['owner', 'outsiders', 404],
    ['owner', 'otherTeam', 404],
    ['owner', 'unknown', 404],
    ['owner', 'team', 'team'],
    ['owner', 'organization', 'organization'],
    ['member', 'sharedSub', 'personal'],
    ['colleague', 'own', 404],
    ['teamMember', 'teamSub', 'team'],
    ['teamEditor', 'otherTeam', 404],
    ['outsider', 'own', 404],
  ];
  it.each(cells)('%s reordering %s: %s', async (role, place, outcome) => {
    // Every place of the table is empty: the empty list names all its items.
    const id = (await createSpaces(db, cast))[place].id;
    const order = () => service.orderItems(as(role), id, { items: [] });
    if (outcome === 404) await expectRefused(order, 404, notFound(id));
    else await expectRefused(order, 403, REFUSALS[outcome]);
  });
});
