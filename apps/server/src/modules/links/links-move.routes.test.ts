import type { LightMyRequestResponse } from 'fastify';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { linkSuggestions } from '../../db/schema/index.ts';
import { newId } from '../../lib/ids.ts';
import { createTestApp } from '../../../test/app.ts';
import { createCollection, createLink } from '../../../test/factories.ts';
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

/** Refused, nothing changed (see test/support/refused.ts); the answer's body. */
const expectRefused = async (send: () => Promise<LightMyRequestResponse>, status: number) =>
  (await refused(db, send, status)).json<{ message: string; code: string }>();

describe('PUT /api/consumer/links/:id/collection', () => {
  const move = (id: string, who: Role | null, payload: unknown) =>
    call(app, 'PUT', `/links/${id}/collection`, as(who), payload);

  it('requires authentication', async () => {
    const { links: spot, spaces } = await createWorld(db, cast);
    await expectRefused(() => move(spot.own.id, null, { collectionId: spaces.root.id }), 401);
  });

  it('moves the link to the end of the target', async () => {
    const { links: spot } = await createWorld(db, cast);
    const target = await createCollection(db, { user: cast.owner });
    await createLink(db, target, { position: 11 });
    const before = await linkRow(db, spot.own.id);
    const response = await move(spot.own.id, 'owner', { collectionId: target.id });
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect(await linkRow(db, spot.own.id)).toEqual({
      ...before,
      collectionId: target.id,
      position: 12,
      updatedAt: expect.any(Date),
    });
  });

  it('moves to My Space when the target is the root', async () => {
    const { links: spot } = await createWorld(db, cast);
    const response = await move(spot.own.id, 'owner', { collectionId: cast.owner.rootId });
    expect(response.statusCode).toBe(204);
    expect(await linkRow(db, spot.own.id)).toMatchObject({ collectionId: cast.owner.rootId });
  });

  it('changes nothing when the link is already there', async () => {
    const { links: spot, spaces } = await createWorld(db, cast);
    await createLink(db, spaces.own, { position: 500 });
    const before = await linkRow(db, spot.own.id);
    expect((await move(spot.own.id, 'owner', { collectionId: spaces.own.id })).statusCode).toBe(
      204,
    );
    expect(await linkRow(db, spot.own.id)).toEqual(before);
  });

  it.each([
    [{}, 'body.collectionId is required'],
    [{ collectionId: null }, 'body.collectionId'],
    [{ collectionId: 'short' }, 'body.collectionId'],
    [{ collectionId: 7 }, 'body.collectionId'],
    [{ collectionId: newId(), position: 0 }, 'unknown property "position"'],
  ])('refuses %j with 400 and changes nothing', async (payload, message) => {
    const { links: spot } = await createWorld(db, cast);
    const body = await expectRefused(() => move(spot.own.id, 'owner', payload), 400);
    expect(body.message).toContain(message);
  });

  it('refuses a malformed link id with 400', async () => {
    await expectRefused(() => move('bad', 'owner', { collectionId: cast.owner.rootId }), 400);
  });

  // The link and the target are authorized on their own: taking out and adding both count.
  // The cells of the permission table (test/permissions.test.ts) are not repeated here.
  const cells: [Role, LinkKind, Place, number][] = [
    ['owner', 'own', 'shared', 204],
    ['owner', 'inRoot', 'sharedSub', 204],
    ['owner', 'own', 'colleagues', 404],
    ['owner', 'own', 'colleagueRoot', 404],
    ['owner', 'own', 'outsiders', 404],
    ['owner', 'own', 'otherTeam', 404],
    ['owner', 'own', 'otherOrganization', 404],
    ['owner', 'own', 'unknown', 404],
    ['owner', 'own', 'team', 403],
    ['owner', 'own', 'organization', 403],
    ['owner', 'team', 'own', 403],
    ['owner', 'organization', 'root', 403],
    ['owner', 'colleagues', 'own', 404],
    ['owner', 'outsiders', 'own', 404],
    ['owner', 'unknown', 'own', 404],
    ['member', 'memberInShare', 'sharedSub', 204],
    ['member', 'memberInSharedSub', 'shared', 204],
    ['member', 'ownerInShare', 'sharedSub', 403],
    ['member', 'memberInShare', 'team', 404],
    // Team and organization content moves in place, never out of its space (decision 0008).
    ['teamEditor', 'team', 'teamSub', 204],
    ['orgAdmin', 'organization', 'organization', 204],
    ['orgAdmin', 'team', 'teamSub', 204],
    ['teamEditor', 'team', 'otherTeam', 404],
    ['teamEditor', 'team', 'organization', 403],
    ['orgAdmin', 'team', 'organization', 409],
    ['orgAdmin', 'team', 'otherTeam', 409],
    ['orgAdmin', 'organization', 'team', 409],
    ['teamMember', 'team', 'teamSub', 403],
    ['colleague', 'memberInShare', 'colleagueRoot', 404],
    ['outsider', 'own', 'outsiders', 404],
  ];
  it.each(cells)('%s moving a link (%s) to %s: %i', async (role, kind, place, status) => {
    const { links: spot, spaces } = await createWorld(db, cast);
    const id = spot[kind].id;
    const collectionId = spaces[place].id;
    if (status === 204) {
      expect((await move(id, role, { collectionId })).statusCode).toBe(204);
      expect(await linkRow(db, id)).toMatchObject({ collectionId });
    } else {
      await expectRefused(() => move(id, role, { collectionId }), status);
    }
  });

  it('lets a member take a link they added to a share into their own My Space', async () => {
    const { links: spot } = await createWorld(db, cast);
    const id = spot.memberInShare.id;
    expect((await move(id, 'member', { collectionId: cast.member.rootId })).statusCode).toBe(204);
    expect(await linkRow(db, id)).toMatchObject({
      collectionId: cast.member.rootId,
      createdBy: cast.member.id,
    });
  });
});

describe('POST /api/consumer/collections/:id/suggestions', () => {
  const suggest = (collectionId: string, who: Role | null, payload: unknown) =>
    call(app, 'POST', `/collections/${collectionId}/suggestions`, as(who), payload);
  const suggestionsFor = (collectionId: string) =>
    db.select().from(linkSuggestions).where(eq(linkSuggestions.collectionId, collectionId));
  const good = { name: ' Handbook ', url: 'handbook.example.com', description: 'For everyone' };

  it('requires authentication', async () => {
    const { team } = await createSpaces(db, cast);
    await expectRefused(() => suggest(team.id, null, good), 401);
  });

  it('stores an open suggestion by the caller, normalized', async () => {
    const { team } = await createSpaces(db, cast);
    const response = await suggest(team.id, 'teamMember', good);
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect(await suggestionsFor(team.id)).toEqual([
      {
        id: expect.stringMatching(/^[A-Za-z0-9_-]{21}$/),
        organizationId: cast.org.id,
        collectionId: team.id,
        suggestedBy: cast.teamMember.id,
        name: 'Handbook',
        description: 'For everyone',
        url: 'https://handbook.example.com/',
        status: 'open',
        decidedBy: null,
        decidedAt: null,
        reason: '',
        linkId: null,
        createdAt: expect.any(Date),
      },
    ]);
  });

  // Who may suggest to a team or organization collection is in the permission table
  // (test/permissions.test.ts); here, the places no one may suggest to.
  const cells: [Role, Place, number][] = [
    ['owner', 'otherTeam', 404],
    ['owner', 'otherOrganization', 404],
    ['owner', 'unknown', 404],
    ['owner', 'colleagues', 404],
    ['owner', 'own', 409],
    ['owner', 'root', 409],
    ['owner', 'shared', 409],
    ['member', 'shared', 409],
    ['member', 'sharedSub', 409],
  ];
  it.each(cells)('%s suggesting to %s: %i', async (role, place, status) => {
    const spaces = await createSpaces(db, cast);
    const body = await expectRefused(() => suggest(spaces[place].id, role, good), status);
    if (status === 409) expect(body.message).toMatch(/add the link instead/);
  });

  it.each([
    [{ url: 'https://a.example' }, 'body.name is required'],
    [{ name: 'A' }, 'body.url is required'],
    [
      { name: ' ', url: 'https://a.example' },
      'body.name must not be blank: spaces and invisible characters alone are not a name',
    ],
    [{ name: 'A', url: 'https://a.example', status: 'accepted' }, 'unknown property "status"'],
    [{ name: 'A', url: 'https://a.example', description: 'x'.repeat(2001) }, 'body.description'],
    ...HOSTILE_URLS.map((url): [unknown, string] => [{ name: 'A', url }, 'body.url']),
  ])('refuses %j with 400 and stores nothing', async (payload, message) => {
    const { team } = await createSpaces(db, cast);
    const body = await expectRefused(() => suggest(team.id, 'teamMember', payload), 400);
    expect(body.message).toContain(message);
  });
});
