// What only a request shows of several items at once (decision 0075): the body's limits, the
// undo headers, and, for every role, who may move and delete a team's links together —
// each refusal changing nothing.
import { BATCH_MAX_ITEMS, UNDO_HEADERS } from '@signpost/contract';
import { describe, expect, it } from 'vitest';
import { newId } from '../../lib/ids.ts';
import { createTestApp } from '../../../test/app.ts';
import { createLink } from '../../../test/factories.ts';
import { call } from '../../../test/support/consumer-call.ts';
import { snapshot } from '../../../test/support/rows.ts';
import { createSignedInCast, createSpaces, ROLES, type Role } from '../../../test/support/world.ts';

const { app, db } = await createTestApp();
const cast = await createSignedInCast(app, db);

const refusedUnchanged = async (run: () => ReturnType<typeof call>, status: number) => {
  const before = await snapshot(db);
  const response = await run();
  expect(response.statusCode, response.body).toBe(status);
  expect(response.json()).toMatchObject({ message: expect.any(String) });
  expect(await snapshot(db)).toEqual(before);
};

describe('POST /api/consumer/items/move and /items/delete: the body', () => {
  it.each([
    ['no items', { items: [] }],
    [
      'more items than one call takes',
      {
        items: Array.from({ length: BATCH_MAX_ITEMS + 1 }, () => ({ type: 'link', id: newId() })),
      },
    ],
    [
      'the same item twice',
      {
        items: [
          { type: 'link', id: 'a'.repeat(21) },
          { type: 'link', id: 'a'.repeat(21) },
        ],
      },
    ],
    ['an item of no known type', { items: [{ type: 'share', id: newId() }] }],
  ])('refuses %s with 400, and changes nothing', async (_case, body) => {
    await refusedUnchanged(() => call(app, 'POST', '/items/delete', cast.owner, body), 400);
    await refusedUnchanged(
      () =>
        call(app, 'POST', '/items/move', cast.owner, { ...body, collectionId: cast.owner.rootId }),
      400,
    );
  });

  it('requires a sign-in', async () => {
    const link = await createLink(db, { id: cast.owner.rootId, organizationId: cast.org.id });
    await refusedUnchanged(
      () =>
        call(app, 'POST', '/items/delete', undefined, { items: [{ type: 'link', id: link.id }] }),
      401,
    );
  });
});

describe('several items of a team space, by role', () => {
  // Who runs the team's space (decision 0008): its editor and the administrators; a member
  // of the team may not change it (403); anyone outside it does not see it (404).
  const expected: Record<Role, number> = {
    owner: 403,
    member: 404,
    colleague: 404,
    teamMember: 403,
    teamEditor: 204,
    orgAdmin: 204,
    outsider: 404,
  };

  it.each(ROLES)('%s: move and delete together', async (role) => {
    const { team, teamSub } = await createSpaces(db, cast);
    const a = await createLink(db, team);
    const b = await createLink(db, team);
    const items = [
      { type: 'link', id: a.id },
      { type: 'link', id: b.id },
    ];
    const move = () =>
      call(app, 'POST', '/items/move', cast[role], { items, collectionId: teamSub.id });
    const remove = () => call(app, 'POST', '/items/delete', cast[role], { items });
    if (expected[role] !== 204) {
      await refusedUnchanged(move, expected[role]);
      await refusedUnchanged(remove, expected[role]);
      return;
    }
    const moved = await move();
    expect(moved.statusCode).toBe(204);
    expect(moved.headers[UNDO_HEADERS.id]).toMatch(/^[A-Za-z0-9_-]{21}$/);
    const deleted = await remove();
    expect(deleted.statusCode).toBe(204);
    const undoId = deleted.headers[UNDO_HEADERS.id] as string;
    expect(undoId).toMatch(/^[A-Za-z0-9_-]{21}$/);
    const undone = await call(app, 'POST', `/undo/${undoId}`, cast[role]);
    expect(undone.statusCode).toBe(204);
    const rows = await snapshot(db);
    expect(rows.links.filter((l) => l.id === a.id || l.id === b.id)).toHaveLength(2);
  });
});
