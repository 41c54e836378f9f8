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
import { linkRow } from '../../../test/support/rows.ts';

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

const expectRefused = (id: string, payload: unknown, status: number, who: Role | null) =>
  refused(db, () => order(id, who, payload), status);

describe('PUT /api/consumer/collections/:id/order', () => {
  it('requires authentication', async () => {
    const { own, items } = await filled();
    await expectRefused(own.id, { items }, 401, null);
  });

  it('answers 204 with an empty body, and the items take the order given', async () => {
    const { own, link, items } = await filled();
    const response = await order(own.id, 'owner', { items: [...items].reverse() });
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect((await linkRow(db, link.id))?.position).toBe(2);
  });

  // Which lists are taken, and who may reorder which: collections-order.service.test.ts. One
  // answer of each status here.
  it('answers 409 with the error body to a list that leaves an item out', async () => {
    const f = await filled();
    const response = await expectRefused(f.own.id, { items: f.items.slice(1) }, 409, 'owner');
    expect(response.json()).toMatchObject({
      code: 'CONFLICT',
      message: 'The collection changed; reload and try again.',
    });
  });

  it.each([
    [{}, 'The items are missing: give them.'],
    [{ items: 'all' }, 'The items need to be a list.'],
    [{ items: [{ type: 'folder', id: newId() }] }, 'The type'],
    [{ items: [{ type: 'link' }] }, 'Enter the id.'],
    [{ items: [{ type: 'link', id: 'short' }] }, 'The id'],
    [{ items: [{ type: 'link', id: newId(), position: 1 }] }, 'unknown property "position"'],
    [{ items: [], force: true }, 'The request has an unknown property "force": leave it out.'],
    [
      { items: Array.from({ length: 1001 }, () => ({ type: 'link', id: newId() })) },
      'The items can hold at most 1000 entries.',
    ],
  ])('refuses %j with 400 and changes nothing', async (payload, message) => {
    const { own } = await filled();
    const response = await expectRefused(own.id, payload, 400, 'owner');
    expect(response.json().message).toContain(message);
  });

  const cells: [Role, Place, number, string][] = [
    ['owner', 'team', 403, 'FORBIDDEN'],
    ['owner', 'colleagues', 404, 'NOT_FOUND'],
  ];
  it.each(cells)('answers %s reordering %s with %i', async (role, place, status, code) => {
    const spaces = await createSpaces(db, cast);
    // Every place of the table is empty: the empty list names all its items.
    const response = await expectRefused(spaces[place].id, { items: [] }, status, role);
    expect(response.json()).toMatchObject({ code });
  });
});
