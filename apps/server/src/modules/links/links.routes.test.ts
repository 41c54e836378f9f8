import type { LightMyRequestResponse } from 'fastify';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { links } from '../../db/schema/index.ts';
import { newId } from '../../lib/ids.ts';
import { createTestApp } from '../../../test/app.ts';
import { createLink } from '../../../test/factories.ts';
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
import { linkRow, snapshot } from '../../../test/support/rows.ts';

const { app, db } = await createTestApp();
const cast = await createSignedInCast(app, db);

const as = (who: Role | null) => (who ? cast[who] : undefined);
const linksIn = (collectionId: string) =>
  db.select().from(links).where(eq(links.collectionId, collectionId));

/** Refused, nothing changed (see test/support/refused.ts); the answer's body. */
const expectRefused = async (send: () => Promise<LightMyRequestResponse>, status: number) =>
  (await refused(db, send, status)).json<{ message: string; code: string }>();

const badLinkBodies: [unknown, string][] = [
  [{ url: 'https://a.example' }, 'body.name is required'],
  [{ name: 'A' }, 'body.url is required'],
  [{ name: '', url: 'https://a.example' }, 'body.name'],
  [
    { name: '  ', url: 'https://a.example' },
    'body.name must not be blank: spaces and invisible characters alone are not a name',
  ],
  [{ name: 1, url: 'https://a.example' }, 'body.name must be string'],
  [{ name: 'A', url: ['https://a.example'] }, 'body.url must be string'],
  [{ name: 'x'.repeat(201), url: 'https://a.example' }, 'body.name must NOT have more'],
  [{ name: 'A', url: 'https://a.example', description: 'x'.repeat(2001) }, 'body.description'],
  [{ name: 'A', url: `https://a.example/${'x'.repeat(2048)}` }, 'body.url must NOT have more'],
  [{ name: 'A', url: '' }, 'body.url'],
  [{ name: 'A', url: 'https://a.example', createdBy: 'x' }, 'unknown property "createdBy"'],
  [{ name: 'A', url: 'https://a.example', position: 0 }, 'unknown property "position"'],
  ...HOSTILE_URLS.map((url): [unknown, string] => [{ name: 'A', url }, 'body.url']),
];

describe('POST /api/consumer/collections/:id/links', () => {
  const post = (collectionId: string, who: Role | null, payload: unknown) =>
    call(app, 'POST', `/collections/${collectionId}/links`, as(who), payload);

  it('requires authentication', async () => {
    const { own } = await createSpaces(db, cast);
    await expectRefused(() => post(own.id, null, { name: 'A', url: 'https://a.example' }), 401);
  });

  it('stores the link at the end, normalized, as added by the caller', async () => {
    const { own } = await createSpaces(db, cast);
    await createLink(db, own, { position: 7 });
    const cases = [
      {
        name: '  Wiki ',
        url: 'intranet.example.com/wiki',
        stored: 'https://intranet.example.com/wiki',
      },
      { name: 'Mail', url: 'mailto:help@example.com', stored: 'mailto:help@example.com' },
      {
        name: 'Plain',
        url: '  http://example.com/a?b=c#d  ',
        stored: 'http://example.com/a?b=c#d',
      },
    ];
    for (const { stored: _, ...payload } of cases) {
      const response = await post(own.id, 'owner', { ...payload, description: 'About' });
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');
    }
    const rows = (await linksIn(own.id)).sort((a, b) => a.position - b.position).slice(1);
    expect(rows).toMatchObject(
      cases.map((c, i) => ({
        name: c.name.trim(),
        url: c.stored,
        description: 'About',
        position: 8 + i,
        createdBy: cast.owner.id,
        organizationId: cast.org.id,
        icon: null,
        appName: null,
      })),
    );
  });

  it('lets a share member add to the share and its sub-collections, as themselves', async () => {
    const { shared, sharedSub } = await createSpaces(db, cast);
    for (const target of [shared, sharedSub]) {
      const response = await post(target.id, 'member', { name: 'Mine', url: 'example.org' });
      expect(response.statusCode).toBe(204);
      expect(await linksIn(target.id)).toContainEqual(
        expect.objectContaining({ name: 'Mine', createdBy: cast.member.id, description: '' }),
      );
    }
  });

  it('gives concurrent additions distinct places at the end', async () => {
    const { own } = await createSpaces(db, cast);
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        post(own.id, 'owner', { name: `Burst ${i}`, url: `https://burst.example/${i}` }),
      ),
    );
    expect(responses.map((response) => response.statusCode)).toEqual(Array(8).fill(204));
    const positions = (await linksIn(own.id)).map((row) => row.position).sort((a, b) => a - b);
    expect(positions).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
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

  // The cells of the permission table (test/permissions.test.ts) are not repeated here.
  const cells: [Role, Place, number][] = [
    ['owner', 'own', 204],
    ['owner', 'root', 204],
    ['owner', 'sharedSub', 204],
    ['owner', 'colleagues', 404],
    ['owner', 'colleagueRoot', 404],
    ['owner', 'outsiders', 404],
    ['owner', 'otherTeam', 404],
    ['owner', 'otherOrganization', 404],
    ['owner', 'unknown', 404],
    ['member', 'sharedSub', 204],
    ['member', 'own', 404],
    ['outsider', 'own', 404],
  ];
  it.each(cells)('%s adding to %s: %i', async (role, place, status) => {
    const spaces = await createSpaces(db, cast);
    const id = spaces[place].id;
    const payload = { name: 'Cell', url: 'https://cell.example' };
    if (status === 204) {
      expect((await post(id, role, payload)).statusCode).toBe(204);
      expect(await linksIn(id)).toContainEqual(
        expect.objectContaining({ name: 'Cell', createdBy: cast[role].id }),
      );
    } else {
      await expectRefused(() => post(id, role, payload), status);
    }
  });
});

// Who may change or delete which link, beyond the cells of the permission table
// (test/permissions.test.ts): these hold for PATCH and DELETE alike.
const linkCells: [Role, LinkKind, number][] = [
  ['owner', 'own', 204],
  ['owner', 'inRoot', 204],
  ['owner', 'ownUnattributed', 204],
  ['owner', 'memberInSharedSub', 204],
  ['owner', 'colleagues', 404],
  ['owner', 'outsiders', 404],
  ['owner', 'otherTeam', 404],
  ['owner', 'otherOrganization', 404],
  ['owner', 'unknown', 404],
  ['member', 'memberInSharedSub', 204],
  ['member', 'formerMemberInShare', 403],
  ['member', 'own', 404],
  ['colleague', 'formerMemberInShare', 404],
  ['outsider', 'own', 404],
];
// The permission table edits the share's links and the team link, and deletes the
// organization link; the other call of each stays here.
const editCells: [Role, LinkKind, number][] = [
  ...linkCells,
  ['owner', 'organization', 403],
  // The people who run a space change its content in place (decision 0008).
  ['orgAdmin', 'organization', 204],
  ['orgAdmin', 'team', 204],
  ['teamEditor', 'otherTeam', 404],
];
const deleteCells: [Role, LinkKind, number][] = [
  ...linkCells,
  ['owner', 'memberInShare', 204],
  ['member', 'memberInShare', 204],
  ['colleague', 'memberInShare', 404],
  ['owner', 'team', 403],
  ['teamMember', 'team', 403],
  ['teamEditor', 'team', 204],
  ['orgAdmin', 'otherTeam', 204],
  ['teamEditor', 'organization', 403],
];

describe('PATCH /api/consumer/links/:id', () => {
  const patch = (id: string, who: Role | null, payload: unknown) =>
    call(app, 'PATCH', `/links/${id}`, as(who), payload);

  it('requires authentication', async () => {
    const { links: spot } = await createWorld(db, cast);
    await expectRefused(() => patch(spot.own.id, null, { name: 'B' }), 401);
  });

  it('changes only the fields given, normalizing the address', async () => {
    const { links: spot } = await createWorld(db, cast);
    const before = await linkRow(db, spot.own.id);
    const response = await patch(spot.own.id, 'owner', { name: ' Docs ', url: 'docs.example.com' });
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    const after = await linkRow(db, spot.own.id);
    expect(after).toEqual({
      ...before,
      name: 'Docs',
      url: 'https://docs.example.com/',
      updatedAt: expect.any(Date),
    });
    expect((await patch(spot.own.id, 'owner', { description: 'Now with text' })).statusCode).toBe(
      204,
    );
    expect(await linkRow(db, spot.own.id)).toMatchObject({
      name: 'Docs',
      description: 'Now with text',
    });
  });

  it.each([
    [{}, 'body must NOT have fewer than 1 properties'],
    [{ name: '' }, 'body.name'],
    [
      { name: '   ' },
      'body.name must not be blank: spaces and invisible characters alone are not a name',
    ],
    [{ url: 5 }, 'body.url must be string'],
    [{ collectionId: newId() }, 'unknown property "collectionId"'],
    [{ createdBy: newId() }, 'unknown property "createdBy"'],
    [{ url: 'x'.repeat(2049) }, 'body.url must NOT have more'],
    ...HOSTILE_URLS.map((url): [unknown, string] => [{ url }, 'body.url']),
  ])('refuses %j with 400 and changes nothing', async (payload, message) => {
    const { links: spot } = await createWorld(db, cast);
    const body = await expectRefused(() => patch(spot.own.id, 'owner', payload), 400);
    expect(body.message).toContain(message);
  });

  it.each(editCells)('%s editing a link (%s): %i', async (role, kind, status) => {
    const { links: spot } = await createWorld(db, cast);
    const id = spot[kind].id;
    if (status === 204) {
      expect((await patch(id, role, { name: 'Edited' })).statusCode).toBe(204);
      expect(await linkRow(db, id)).toMatchObject({ name: 'Edited' });
    } else {
      await expectRefused(() => patch(id, role, { name: 'Edited' }), status);
    }
  });
});

describe('DELETE /api/consumer/links/:id', () => {
  const remove = (id: string, who: Role | null) => call(app, 'DELETE', `/links/${id}`, as(who));

  it('requires authentication', async () => {
    const { links: spot } = await createWorld(db, cast);
    await expectRefused(() => remove(spot.own.id, null), 401);
  });

  it('deletes the one link and nothing else', async () => {
    const { links: spot } = await createWorld(db, cast);
    const before = await snapshot(db);
    const response = await remove(spot.own.id, 'owner');
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    const after = await snapshot(db);
    expect(after.links).toEqual(before.links.filter((row) => row.id !== spot.own.id));
    expect(after.collections).toEqual(before.collections);
  });

  it('refuses a malformed id with 400', async () => {
    await expectRefused(() => remove('x'.repeat(22), 'owner'), 400);
  });

  it.each(deleteCells)('%s deleting a link (%s): %i', async (role, kind, status) => {
    const { links: spot } = await createWorld(db, cast);
    const id = spot[kind].id;
    if (status === 204) {
      expect((await remove(id, role)).statusCode).toBe(204);
      expect(await linkRow(db, id)).toBeUndefined();
    } else {
      await expectRefused(() => remove(id, role), status);
    }
  });
});
