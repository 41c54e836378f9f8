import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { collections } from '../../db/schema/index.ts';
import { newId } from '../../lib/ids.ts';
import { createTestApp } from '../../../test/app.ts';
import { createCollection } from '../../../test/factories.ts';
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

  it('answers 204 with an empty body, with or without a trailing slash and optional fields', async () => {
    const me = await createPerson(app, db, cast.org.id);
    const bodies = [
      ['/collections/', { name: 'Reading' }],
      ['/collections', { name: 'Tools', description: 'Daily', color: '#3B82F6', parentId: null }],
    ] as const;
    for (const [url, payload] of bodies) {
      const response = await call(app, 'POST', url, me, payload);
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');
    }
    expect((await childrenOf(me.rootId)).map((row) => row.name).sort()).toEqual([
      'Reading',
      'Tools',
    ]);
  });

  it('answers 409 with the error body when the collection would nest too deep', async () => {
    const me = await createPerson(app, db, cast.org.id);
    let parentId = me.rootId;
    for (let level = 1; level <= 10; level += 1) {
      parentId = (await createCollection(db, { user: me }, { parentId })).id;
    }
    const before = await snapshot(db);
    const deeper = await call(app, 'POST', '/collections', me, { name: 'Level 11', parentId });
    expect(deeper.statusCode).toBe(409);
    expect(deeper.json()).toMatchObject({ code: 'CONFLICT', message: expect.stringMatching(/10/) });
    expect(await snapshot(db)).toEqual(before);
  });

  it.each([
    [{}, 'Enter the name.'],
    [{ name: '' }, 'Enter the name.'],
    [
      { name: ' \u200b\u00a0 ' },
      'The name cannot be blank: spaces and invisible characters alone are not a name.',
    ],
    [{ name: 5 }, 'The name needs to be text.'],
    [{ name: null }, 'The name needs to be text.'],
    [{ name: 'x'.repeat(201) }, 'The name can have at most 200 characters: shorten it.'],
    [{ name: 'A', description: 'x'.repeat(2001) }, 'The description can have at most'],
    [{ name: 'A', description: 7 }, 'The description needs to be text.'],
    [{ name: 'A', color: 'red' }, 'colour'],
    [{ name: 'A', color: '#12345' }, 'colour'],
    [{ name: 'A', parentId: 'short' }, 'parent'],
    [{ name: 'A', parentId: 42 }, 'parent'],
    [{ name: 'A', parentId: `${newId()}'--` }, 'parent'],
    [
      { name: 'A', ownerUserId: 'x' },
      'The request has an unknown property "ownerUserId": leave it out.',
    ],
    [
      { name: 'A', organizationId: 'x' },
      'The request has an unknown property "organizationId": leave it out.',
    ],
    [['A'], 'The request needs to be a group of fields.'],
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

  // Who may nest where: collections.service.test.ts. One answer of each status here.
  const parents: [Role, Place, number, string][] = [
    ['member', 'sharedSub', 403, 'FORBIDDEN'],
    ['owner', 'colleagues', 404, 'NOT_FOUND'],
  ];
  it.each(parents)('answers %s nesting in %s with %i', async (role, place, status, code) => {
    const spaces = await createSpaces(db, cast);
    const before = await snapshot(db);
    const response = await call(app, 'POST', '/collections', cast[role], {
      name: 'Nested',
      parentId: spaces[place].id,
    });
    expect(response.statusCode).toBe(status);
    expect(response.json()).toMatchObject({ code, message: expect.any(String) });
    expect(await snapshot(db)).toEqual(before);
  });
});

describe('DELETE /api/consumer/collections/:id', () => {
  it('requires authentication', async () => {
    const { own } = await createSpaces(db, cast);
    const response = await call(app, 'DELETE', `/collections/${own.id}`);
    expect(response.statusCode).toBe(401);
    expect(await collectionRow(db, own.id)).toBeDefined();
  });

  it('answers 204 with an empty body, with or without a trailing slash', async () => {
    const { own, sharedSub } = await createSpaces(db, cast);
    for (const url of [`/collections/${own.id}/`, `/collections/${sharedSub.id}`]) {
      const response = await call(app, 'DELETE', url, cast.owner);
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');
    }
    expect(await collectionRow(db, own.id)).toBeUndefined();
    expect(await collectionRow(db, sharedSub.id)).toBeUndefined();
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

  // Who may delete which: collections.service.test.ts. One answer of each status here.
  const cells: [Role, Place, number, string][] = [
    ['owner', 'team', 403, 'FORBIDDEN'],
    ['colleague', 'own', 404, 'NOT_FOUND'],
  ];
  it.each(cells)('answers %s deleting %s with %i', async (role, place, status, code) => {
    const spaces = await createSpaces(db, cast);
    const before = await snapshot(db);
    const response = await call(app, 'DELETE', `/collections/${spaces[place].id}`, cast[role]);
    expect(response.statusCode).toBe(status);
    expect(response.json()).toMatchObject({ code, message: expect.any(String) });
    expect(await snapshot(db)).toEqual(before);
  });
});
