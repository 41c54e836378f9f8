import type { LightMyRequestResponse } from 'fastify';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { linkSuggestions } from '../../db/schema/index.ts';
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

  it('answers 204 with an empty body and moves the link', async () => {
    const { links: spot } = await createWorld(db, cast);
    const response = await move(spot.own.id, 'owner', { collectionId: cast.owner.rootId });
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect(await linkRow(db, spot.own.id)).toMatchObject({ collectionId: cast.owner.rootId });
  });

  it.each([
    [{}, 'Enter the collection.'],
    [{ collectionId: null }, 'collection'],
    [{ collectionId: 'short' }, 'collection'],
    [{ collectionId: 7 }, 'collection'],
    [{ collectionId: newId(), position: 0 }, 'unknown property "position"'],
  ])('refuses %j with 400 and changes nothing', async (payload, message) => {
    const { links: spot } = await createWorld(db, cast);
    const body = await expectRefused(() => move(spot.own.id, 'owner', payload), 400);
    expect(body.message).toContain(message);
  });

  it('refuses a malformed link id with 400', async () => {
    await expectRefused(() => move('bad', 'owner', { collectionId: cast.owner.rootId }), 400);
  });

  // Which link may go where, and who may move it: links-move.service.test.ts. One answer of
  // each status here.
  const cells: [Role, LinkKind, Place, number, string][] = [
    ['owner', 'own', 'team', 403, 'FORBIDDEN'],
    ['owner', 'own', 'colleagues', 404, 'NOT_FOUND'],
    ['orgAdmin', 'team', 'organization', 409, 'CONFLICT'],
  ];
  it.each(cells)(
    'answers %s moving a link (%s) to %s with %i',
    async (role, kind, place, status, code) => {
      const { links: spot, spaces } = await createWorld(db, cast);
      const payload = { collectionId: spaces[place].id };
      const body = await expectRefused(() => move(spot[kind].id, role, payload), status);
      expect(body).toMatchObject({ code });
    },
  );
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

  it('answers 204 with an empty body and stores the suggestion', async () => {
    const { team } = await createSpaces(db, cast);
    const response = await suggest(team.id, 'teamMember', good);
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect(await suggestionsFor(team.id)).toMatchObject([{ name: 'Handbook', status: 'open' }]);
  });

  // Where one may suggest, and who: links-move.service.test.ts and the permission table
  // (test/http/permissions.test.ts). One answer of each status here.
  const cells: [Role, Place, number, string][] = [
    ['orgAdmin', 'otherTeam', 403, 'FORBIDDEN'],
    ['owner', 'otherTeam', 404, 'NOT_FOUND'],
    ['owner', 'own', 409, 'CONFLICT'],
  ];
  it.each(cells)('answers %s suggesting to %s with %i', async (role, place, status, code) => {
    const spaces = await createSpaces(db, cast);
    const body = await expectRefused(() => suggest(spaces[place].id, role, good), status);
    expect(body).toMatchObject({ code });
  });

  it.each([
    [{ url: 'https://a.example' }, 'Enter the name.'],
    [{ name: 'A' }, "Enter the link's address."],
    [
      { name: ' ', url: 'https://a.example' },
      'The name cannot be blank: spaces and invisible characters alone are not a name.',
    ],
    [{ name: 'A', url: 'https://a.example', status: 'accepted' }, 'unknown property "status"'],
    [{ name: 'A', url: 'https://a.example', description: 'x'.repeat(2001) }, 'description'],
    ...HOSTILE_URLS.map((url): [unknown, string] => [{ name: 'A', url }, 'address']),
  ])('refuses %j with 400 and stores nothing', async (payload, message) => {
    const { team } = await createSpaces(db, cast);
    const body = await expectRefused(() => suggest(team.id, 'teamMember', payload), 400);
    expect(body.message).toContain(message);
  });
});
