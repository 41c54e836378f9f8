// What only a request shows of undo (decision 0052): the headers a deletion answers with,
// the menu's ETag after a restore, and one answer of each status. What comes back, for whom
// and when, is undo.service.test.ts.
import { UNDO_HEADERS, UNDO_WINDOW_SECONDS } from '@signpost/contract';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { teamMemberships } from '../../db/schema/index.ts';
import { createTestApp } from '../../../test/app.ts';
import {
  addTeamMember,
  createCollection,
  createFavorite,
  createLink,
  createShare,
  createTeam,
} from '../../../test/factories.ts';
import { createSignedInCast, createPerson, type Person } from '../../../test/support/world.ts';
import { call } from '../../../test/support/consumer-call.ts';
import { snapshot } from '../../../test/support/rows.ts';

const { app, db } = await createTestApp();
const cast = await createSignedInCast(app, db);

const menu = (who: Person, etag?: string) =>
  app.inject({
    method: 'GET',
    url: '/api/consumer/menu',
    headers: { ...who.headers, ...(etag ? { 'if-none-match': etag } : {}) },
  });

/** Deletes through the API and returns the undo id the answer names. */
async function remove(who: Person, url: string): Promise<string> {
  const response = await call(app, 'DELETE', url, who);
  expect(response.statusCode).toBe(204);
  const id = response.headers[UNDO_HEADERS.id];
  expect(id).toMatch(/^[A-Za-z0-9_-]{21}$/);
  return id as string;
}

const undo = (who: Person | undefined, id: string) => call(app, 'POST', `/undo/${id}`, who);

/** Sends an undo that must be refused: its status and code, and nothing changed. */
async function expectRefused(who: Person, id: string, status: number, code: string) {
  const before = await snapshot(db);
  const response = await undo(who, id);
  expect(response.statusCode).toBe(status);
  expect(response.json()).toMatchObject({ code, message: expect.any(String) });
  expect(await snapshot(db)).toEqual(before);
}

describe('POST /api/consumer/undo/:id', () => {
  it('requires authentication', async () => {
    const link = await createLink(db, { id: cast.owner.rootId, organizationId: cast.org.id });
    const id = await remove(cast.owner, `/links/${link.id}`);
    const before = await snapshot(db);
    expect((await undo(undefined, id)).statusCode).toBe(401);
    expect(await snapshot(db)).toEqual(before);
  });

  it('refuses a malformed id with 400', async () => {
    const response = await undo(cast.owner, 'short');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
  });

  it('takes the id a deletion answered with until it expires, and the menu sees the change', async () => {
    const own = await createCollection(db, { user: cast.owner });
    const link = await createLink(db, own, { createdBy: cast.owner.id });
    const menuBefore = (await menu(cast.owner)).json();

    const response = await call(app, 'DELETE', `/links/${link.id}`, cast.owner);
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    const expires = Date.parse(response.headers[UNDO_HEADERS.expires] as string);
    expect(expires - Date.now()).toBeGreaterThan((UNDO_WINDOW_SECONDS - 10) * 1000);
    expect(expires - Date.now()).toBeLessThanOrEqual(UNDO_WINDOW_SECONDS * 1000);
    const afterDelete = await menu(cast.owner);
    const etag = afterDelete.headers.etag as string;
    expect(JSON.stringify(afterDelete.json())).not.toContain(link.id);

    const restored = await undo(cast.owner, response.headers[UNDO_HEADERS.id] as string);
    expect(restored.statusCode).toBe(204);
    expect(restored.body).toBe('');
    // The restore is a change of the menu: the ETag of the menu without the link is stale.
    const afterUndo = await menu(cast.owner, etag);
    expect(afterUndo.statusCode).toBe(200);
    expect(afterUndo.json()).toEqual(menuBefore);
  });

  it('is offered by every deletion that can be undone, and not to an owner removing a member', async () => {
    const team = await createCollection(db, { team: cast.team });
    const favorite = await createFavorite(db, cast.owner, (await createLink(db, team)).id);
    const shared = await createCollection(db, { user: cast.owner });
    const share = await createShare(db, cast.owner, shared.id, [cast.member.id, cast.colleague.id]);
    const other = await createCollection(db, { user: cast.owner });
    const otherShare = await createShare(db, cast.owner, other.id, [cast.member.id]);
    await remove(cast.owner, `/favorites/${favorite.id}`);
    await remove(cast.teamEditor, `/collections/${team.id}`);
    await remove(cast.member, `/collection-shares/${share.id}/members/${cast.member.id}`);
    await remove(cast.owner, `/collection-shares/${otherShare.id}`);

    const removal = await call(
      app,
      'DELETE',
      `/collection-shares/${share.id}/members/${cast.colleague.id}`,
      cast.owner,
    );
    expect(removal.statusCode).toBe(204);
    expect(removal.headers[UNDO_HEADERS.id]).toBeUndefined();
    expect(removal.headers[UNDO_HEADERS.expires]).toBeUndefined();
  });

  it('answers 404 for the undo of someone else', async () => {
    const link = await createLink(db, { id: cast.owner.rootId, organizationId: cast.org.id });
    const id = await remove(cast.owner, `/links/${link.id}`);
    await expectRefused(cast.member, id, 404, 'NOT_FOUND');
  });

  it('answers 410 for a second undo', async () => {
    const link = await createLink(db, { id: cast.owner.rootId, organizationId: cast.org.id });
    const id = await remove(cast.owner, `/links/${link.id}`);
    expect((await undo(cast.owner, id)).statusCode).toBe(204);
    await expectRefused(cast.owner, id, 410, 'GONE');
  });

  it('answers 409 when the place it was in has gone', async () => {
    const own = await createCollection(db, { user: cast.owner });
    const link = await createLink(db, own, { createdBy: cast.owner.id });
    const id = await remove(cast.owner, `/links/${link.id}`);
    await remove(cast.owner, `/collections/${own.id}`);
    await expectRefused(cast.owner, id, 409, 'CONFLICT');
  });

  it('answers 403 when the person may no longer change its place', async () => {
    const team = await createTeam(db, cast.org.id);
    const editor = await createPerson(app, db, cast.org.id);
    await addTeamMember(db, team, editor.id, 'editor');
    const link = await createLink(db, await createCollection(db, { team }));
    const id = await remove(editor, `/links/${link.id}`);
    await db
      .update(teamMemberships)
      .set({ role: 'member' })
      .where(and(eq(teamMemberships.teamId, team.id), eq(teamMemberships.userId, editor.id)));
    await expectRefused(editor, id, 403, 'FORBIDDEN');
  });
});

describe('undo of a change (decision 0076)', () => {
  it('an edit answers with the undo headers; the undo brings the old name back into the menu', async () => {
    const link = await createLink(
      db,
      { id: cast.owner.rootId, organizationId: cast.org.id },
      { name: 'Before the edit' },
    );
    const edited = await call(app, 'PATCH', `/links/${link.id}`, cast.owner, {
      name: 'After the edit',
    });
    expect(edited.statusCode).toBe(204);
    const id = edited.headers[UNDO_HEADERS.id] as string;
    expect(id).toMatch(/^[A-Za-z0-9_-]{21}$/);
    expect(Date.parse(edited.headers[UNDO_HEADERS.expires] as string)).toBeGreaterThan(Date.now());
    const afterEdit = await menu(cast.owner);
    expect(afterEdit.body).toContain('After the edit');
    expect((await undo(cast.owner, id)).statusCode).toBe(204);
    const afterUndo = await menu(cast.owner, afterEdit.headers.etag as string);
    expect(afterUndo.statusCode).toBe(200);
    expect(afterUndo.body).toContain('Before the edit');
    expect(afterUndo.body).not.toContain('After the edit');
  });

  it('an edit that changes nothing names no undo', async () => {
    const link = await createLink(
      db,
      { id: cast.owner.rootId, organizationId: cast.org.id },
      { name: 'Unchanged' },
    );
    const response = await call(app, 'PATCH', `/links/${link.id}`, cast.owner, {
      name: 'Unchanged',
    });
    expect(response.statusCode).toBe(204);
    expect(response.headers[UNDO_HEADERS.id]).toBeUndefined();
  });

  it('a new order and a move answer with the undo headers', async () => {
    const own = await createCollection(db, { user: cast.owner });
    const a = await createLink(db, own, { position: 0 });
    const b = await createLink(db, own, { position: 1 });
    const ordered = await call(app, 'PUT', `/collections/${own.id}/order`, cast.owner, {
      items: [
        { type: 'link', id: b.id },
        { type: 'link', id: a.id },
      ],
    });
    expect(ordered.statusCode).toBe(204);
    expect(ordered.headers[UNDO_HEADERS.id]).toMatch(/^[A-Za-z0-9_-]{21}$/);
    const moved = await call(app, 'PUT', `/links/${a.id}/collection`, cast.owner, {
      collectionId: cast.owner.rootId,
    });
    expect(moved.statusCode).toBe(204);
    expect(moved.headers[UNDO_HEADERS.id]).toMatch(/^[A-Za-z0-9_-]{21}$/);
    expect(moved.headers[UNDO_HEADERS.id]).not.toBe(ordered.headers[UNDO_HEADERS.id]);
  });
});
