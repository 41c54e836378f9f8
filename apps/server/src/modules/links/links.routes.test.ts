import type { LightMyRequestResponse } from 'fastify';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { links } from '../../db/schema/index.ts';
import { newId } from '../../lib/ids.ts';
import { createTestApp } from '../../../test/app.ts';
import {
  createSignedInCast,
  createSpaces,
  type Place,
  type Role,
  createWorld,
  type LinkKind,
} from '../../../test/support/world.ts';
import { call } from '../../../test/support/consumer-call.ts';
import { HOSTILE_URLS } from '../../../test/support/hostile-urls.ts';
import { expectRefused as refused } from '../../../test/support/refused.ts';
import { linkRow } from '../../../test/support/rows.ts';

const { app, db } = await createTestApp();
const cast = await createSignedInCast(app, db);

const as = (who: Role | null) => (who ? cast[who] : undefined);
const linksIn = (collectionId: string) =>
  db.select().from(links).where(eq(links.collectionId, collectionId));

/** Refused, nothing changed (see test/support/refused.ts); the answer's body. */
const expectRefused = async (send: () => Promise<LightMyRequestResponse>, status: number) =>
  (await refused(db, send, status)).json<{ message: string; code: string }>();

const badLinkBodies: [unknown, string][] = [
  [{ url: 'https://a.example' }, 'Enter the name.'],
  [{ name: 'A' }, "Enter the link's address."],
  [{ name: '', url: 'https://a.example' }, 'name'],
  [
    { name: '  ', url: 'https://a.example' },
    'The name cannot be blank: spaces and invisible characters alone are not a name.',
  ],
  [{ name: 1, url: 'https://a.example' }, 'The name needs to be text.'],
  [{ name: 'A', url: ['https://a.example'] }, "The link's address needs to be text."],
  [{ name: 'x'.repeat(201), url: 'https://a.example' }, 'The name can have at most'],
  [{ name: 'A', url: 'https://a.example', description: 'x'.repeat(2001) }, 'description'],
  [
    { name: 'A', url: `https://a.example/${'x'.repeat(2048)}` },
    "The link's address can have at most",
  ],
  [{ name: 'A', url: '' }, 'address'],
  [{ name: 'A', url: 'https://a.example', createdBy: 'x' }, 'unknown property "createdBy"'],
  [{ name: 'A', url: 'https://a.example', position: 0 }, 'unknown property "position"'],
  ...HOSTILE_URLS.map((url): [unknown, string] => [{ name: 'A', url }, 'address']),
];

describe('POST /api/consumer/collections/:id/links', () => {
  const post = (collectionId: string, who: Role | null, payload: unknown) =>
    call(app, 'POST', `/collections/${collectionId}/links`, as(who), payload);

  it('requires authentication', async () => {
    const { own } = await createSpaces(db, cast);
    await expectRefused(() => post(own.id, null, { name: 'A', url: 'https://a.example' }), 401);
  });

  it('answers 204 with an empty body and stores the link', async () => {
    const { own } = await createSpaces(db, cast);
    const response = await post(own.id, 'owner', { name: 'Wiki', url: 'wiki.example.com' });
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect(await linksIn(own.id)).toMatchObject([{ name: 'Wiki', createdBy: cast.owner.id }]);
  });

  it.each(badLinkBodies)('refuses %j with 400 and stores nothing', async (payload, message) => {
    const { own } = await createSpaces(db, cast);
    const body = await expectRefused(() => post(own.id, 'owner', payload), 400);
    expect(body).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(body.message).toContain(message);
  });

  it('refuses a malformed collection id with 400', async () => {
    await expectRefused(() => post('nope', 'owner', { name: 'A', url: 'https://a.example' }), 400);
  });

  // Who may add to which collection: links.service.test.ts. One answer of each status here.
  const cells: [Role, Place, number, string][] = [
    ['owner', 'team', 403, 'FORBIDDEN'],
    ['owner', 'colleagues', 404, 'NOT_FOUND'],
  ];
  it.each(cells)('answers %s adding to %s with %i', async (role, place, status, code) => {
    const id = (await createSpaces(db, cast))[place].id;
    const payload = { name: 'Cell', url: 'https://cell.example' };
    expect(await expectRefused(() => post(id, role, payload), status)).toMatchObject({ code });
  });
});

// Who may change or delete which link: links.service.test.ts. One answer of each status here.
const refusals: [Role, LinkKind, number, string][] = [
  ['member', 'formerMemberInShare', 403, 'FORBIDDEN'],
  ['owner', 'colleagues', 404, 'NOT_FOUND'],
];

describe('PATCH /api/consumer/links/:id', () => {
  const patch = (id: string, who: Role | null, payload: unknown) =>
    call(app, 'PATCH', `/links/${id}`, as(who), payload);

  it('requires authentication', async () => {
    const { links: spot } = await createWorld(db, cast);
    await expectRefused(() => patch(spot.own.id, null, { name: 'B' }), 401);
  });

  it('answers 204 with an empty body and changes the link', async () => {
    const { links: spot } = await createWorld(db, cast);
    const response = await patch(spot.own.id, 'owner', { name: 'Docs', url: 'docs.example.com' });
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect(await linkRow(db, spot.own.id)).toMatchObject({ name: 'Docs' });
  });

  it.each([
    [{}, 'The request changes nothing: give at least 1 field to change.'],
    [{ name: '' }, 'name'],
    [
      { name: '   ' },
      'The name cannot be blank: spaces and invisible characters alone are not a name.',
    ],
    [{ url: 5 }, "The link's address needs to be text."],
    [{ collectionId: newId() }, 'unknown property "collectionId"'],
    [{ createdBy: newId() }, 'unknown property "createdBy"'],
    [{ url: 'x'.repeat(2049) }, "The link's address can have at most"],
    ...HOSTILE_URLS.map((url): [unknown, string] => [{ url }, 'address']),
  ])('refuses %j with 400 and changes nothing', async (payload, message) => {
    const { links: spot } = await createWorld(db, cast);
    const body = await expectRefused(() => patch(spot.own.id, 'owner', payload), 400);
    expect(body.message).toContain(message);
  });

  it.each(refusals)('answers %s editing a link (%s) with %i', async (role, kind, status, code) => {
    const id = (await createWorld(db, cast)).links[kind].id;
    const body = await expectRefused(() => patch(id, role, { name: 'Edited' }), status);
    expect(body).toMatchObject({ code });
  });
});

describe('DELETE /api/consumer/links/:id', () => {
  const remove = (id: string, who: Role | null) => call(app, 'DELETE', `/links/${id}`, as(who));

  it('requires authentication', async () => {
    const { links: spot } = await createWorld(db, cast);
    await expectRefused(() => remove(spot.own.id, null), 401);
  });

  it('answers 204 with an empty body and deletes the link', async () => {
    const { links: spot } = await createWorld(db, cast);
    const response = await remove(spot.own.id, 'owner');
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect(await linkRow(db, spot.own.id)).toBeUndefined();
  });

  it('refuses a malformed id with 400', async () => {
    await expectRefused(() => remove('x'.repeat(22), 'owner'), 400);
  });

  it.each(refusals)('answers %s deleting a link (%s) with %i', async (role, kind, status, code) => {
    const id = (await createWorld(db, cast)).links[kind].id;
    expect(await expectRefused(() => remove(id, role), status)).toMatchObject({ code });
  });
});
