import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/app.ts';
import { createCollection } from '../../../test/factories.ts';
import {
  createSignedInCast,
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

const expectRefused = (id: string, payload: unknown, status: number, who: Role | null = 'owner') =>
  refused(db, () => patch(id, who, payload), status);

describe('PATCH /api/consumer/collections/:id', () => {
  it('requires authentication', async () => {
    const { own } = await createSpaces(db, cast);
    await expectRefused(own.id, { name: 'New' }, 401, null);
  });

  it('answers 204 with an empty body to an edit and to a move', async () => {
    const { own } = await createSpaces(db, cast);
    const target = await createCollection(db, { user: cast.owner });
    const renamed = await patch(own.id, 'owner', { name: 'New', color: '#ABCDEF' });
    expect(renamed.statusCode).toBe(204);
    expect(renamed.body).toBe('');
    const moved = await patch(own.id, 'owner', { parentId: target.id });
    expect(moved.statusCode).toBe(204);
    expect(moved.body).toBe('');
    expect(await collectionRow(db, own.id)).toMatchObject({ name: 'New', parentId: target.id });
  });

  it.each([
    [{}, 'The request changes nothing: give at least 1 field to change.'],
    [{ name: '' }, 'name'],
    [
      { name: '   ' },
      'The name cannot be blank: spaces and invisible characters alone are not a name.',
    ],
    [{ name: 3 }, 'The name needs to be text.'],
    [{ name: 'x'.repeat(201) }, 'The name can have at most 200 characters: shorten it.'],
    [{ description: 'x'.repeat(2001) }, 'description'],
    [{ color: 'blue' }, 'colour'],
    [{ parentId: null }, 'parent'],
    [{ parentId: 'short' }, 'parent'],
    [{ parentId: 12 }, 'parent'],
    [{ isRoot: true }, 'The request has an unknown property "isRoot": leave it out.'],
    [
      { ownerUserId: 'x', name: 'A' },
      'The request has an unknown property "ownerUserId": leave it out.',
    ],
  ])('refuses %j with 400 and changes nothing', async (payload, message) => {
    const { own } = await createSpaces(db, cast);
    const response = await expectRefused(own.id, payload, 400);
    expect(response.json().message).toContain(message);
  });

  it('refuses a malformed id with 400', async () => {
    await expectRefused('not-an-id', { name: 'A' }, 400);
  });

  // What may be edited or moved, by whom, and the moves that break the tree:
  // collections-update.service.test.ts. One answer of each status here.
  it('answers 409 with the error body to renaming My Space', async () => {
    const response = await expectRefused(cast.owner.rootId, { name: 'Mine' }, 409);
    expect(response.json()).toMatchObject({ code: 'CONFLICT' });
  });

  const refusals: [Role, Place, number, string][] = [
    ['owner', 'organization', 403, 'FORBIDDEN'],
    ['owner', 'colleagues', 404, 'NOT_FOUND'],
  ];
  it.each(refusals)('answers %s renaming %s with %i', async (role, place, status, code) => {
    const id = (await createSpaces(db, cast))[place].id;
    const response = await expectRefused(id, { name: 'Renamed' }, status, role);
    expect(response.json()).toMatchObject({ code });
  });
});
