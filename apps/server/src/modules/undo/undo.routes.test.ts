import { UNDO_HEADERS, UNDO_WINDOW_SECONDS } from '@signpost/contract';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, teamMemberships, undoSnapshots } from '../../db/schema/index.ts';
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

  it('restores a deleted link exactly, and the menu sees the change', async () => {
    const own = await createCollection(db, { user: cast.owner });
    await createLink(db, own, { createdBy: cast.owner.id });
    const link = await createLink(db, own, {
      createdBy: cast.owner.id,
      name: 'Wiki',
      description: 'Notes',
      icon: '/api/icons/wikiIconWikiIconWikiIcon',
      appName: 'Wiki app',
    });
    const rows = await snapshot(db);
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
    expect(await snapshot(db)).toEqual(rows);
    // The restore is a change of the menu: the ETag of the menu without the link is stale.
    const afterUndo = await menu(cast.owner, etag);
    expect(afterUndo.statusCode).toBe(200);
    expect(afterUndo.json()).toEqual(menuBefore);
  });

  it('refuses another person with 404, whoever they are, and changes nothing', async () => {
    const link = await createLink(db, { id: cast.owner.rootId, organizationId: cast.org.id });
    const id = await remove(cast.owner, `/links/${link.id}`);
    const before = await snapshot(db);
    for (const other of [cast.member, cast.orgAdmin, cast.outsider]) {
      const response = await undo(other, id);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ code: 'NOT_FOUND' });
    }
    expect(await snapshot(db)).toEqual(before);
    expect((await undo(cast.owner, id)).statusCode).toBe(204);
  });

  it('refuses once the time to undo has passed, with 410', async () => {
    const link = await createLink(db, { id: cast.owner.rootId, organizationId: cast.org.id });
    const id = await remove(cast.owner, `/links/${link.id}`);
    await db
      .update(undoSnapshots)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(undoSnapshots.id, id));
    const before = await snapshot(db);
    const response = await undo(cast.owner, id);
    expect(response.statusCode).toBe(410);
    expect(response.json()).toMatchObject({
      code: 'GONE',
      message: expect.stringMatching(/no longer be undone/),
    });
    expect(await snapshot(db)).toEqual(before);
  });

  it('refuses a second undo with 410, and keeps none of the deleted rows after the first', async () => {
    const link = await createLink(db, { id: cast.owner.rootId, organizationId: cast.org.id });
    const id = await remove(cast.owner, `/links/${link.id}`);
    expect((await undo(cast.owner, id)).statusCode).toBe(204);
    const before = await snapshot(db);
    const again = await undo(cast.owner, id);
    expect(again.statusCode).toBe(410);
    expect(again.json()).toMatchObject({ code: 'GONE', message: 'This was already undone.' });
    expect(await snapshot(db)).toEqual(before);
    const [kept] = await db.select().from(undoSnapshots).where(eq(undoSnapshots.id, id));
    expect(kept?.rows).toEqual({});
  });

  it('restores a team collection with nested content, others’ favorites and suggestions', async () => {
    const top = await createCollection(db, { team: cast.team });
    const sub = await createCollection(db, { team: cast.team }, { parentId: top.id });
    const subSub = await createCollection(db, { team: cast.team }, { parentId: sub.id });
    const a = await createLink(db, top, { createdBy: cast.teamEditor.id });
    const b = await createLink(db, sub, {});
    const c = await createLink(db, subSub, {});
    // Other people's favorites of the links inside, in their own collections.
    const memberPlace = await createCollection(db, { user: cast.teamMember });
    await createFavorite(db, cast.teamMember, a.id, memberPlace.id);
    await createFavorite(db, cast.teamMember, c.id);
    await createFavorite(db, cast.owner, b.id);
    // A suggestion made to the collection, and one accepted elsewhere whose link is inside.
    const elsewhere = await createCollection(db, { team: cast.team });
    await db.execute(sql`
      INSERT INTO link_suggestions (id, organization_id, collection_id, suggested_by, name, url)
      VALUES (${'s'.repeat(21)}, ${cast.org.id}, ${sub.id}, ${cast.teamMember.id}, 'Idea',
              'https://idea.example')`);
    await db.execute(sql`
      INSERT INTO link_suggestions (id, organization_id, collection_id, suggested_by, name, url,
                                    status, decided_by, decided_at, link_id)
      VALUES (${'t'.repeat(21)}, ${cast.org.id}, ${elsewhere.id}, ${cast.teamMember.id}, 'B',
              'https://b.example', 'accepted', ${cast.teamEditor.id}, now(), ${b.id})`);
    const rows = await snapshot(db);
    const menus = {
      editor: (await menu(cast.teamEditor)).json(),
      member: (await menu(cast.teamMember)).json(),
      owner: (await menu(cast.owner)).json(),
    };

    const id = await remove(cast.teamEditor, `/collections/${top.id}`);
    const gone = await snapshot(db);
    expect(gone.collections.map((r) => r.id)).not.toContain(subSub.id);
    expect(gone.favorites).toHaveLength(rows.favorites.length - 3);
    expect(gone.suggestions.find((s) => s.id === 't'.repeat(21))?.linkId).toBeNull();

    expect((await undo(cast.teamEditor, id)).statusCode).toBe(204);
    expect(await snapshot(db)).toEqual(rows);
    expect((await menu(cast.teamEditor)).json()).toEqual(menus.editor);
    expect((await menu(cast.teamMember)).json()).toEqual(menus.member);
    expect((await menu(cast.owner)).json()).toEqual(menus.owner);
    const [entry] = await db
      .select()
      .from(auditLog)
      .where(
        and(eq(auditLog.action, 'content.collection-restored'), eq(auditLog.targetId, top.id)),
      );
    expect(entry).toMatchObject({ actorId: cast.teamEditor.id, targetLabel: top.name });
  });

  it('restores a shared collection its owner deleted, with its members and their links', async () => {
    const shared = await createCollection(db, { user: cast.owner });
    const inner = await createCollection(db, { user: cast.owner }, { parentId: shared.id });
    await createLink(db, shared, { createdBy: cast.member.id });
    await createLink(db, inner, { createdBy: cast.owner.id });
    const share = await createShare(db, cast.owner, shared.id, [cast.member.id, cast.colleague.id]);
    const rows = await snapshot(db);
    const memberMenu = (await menu(cast.member)).json();

    const id = await remove(cast.owner, `/collection-shares/${share.id}`);
    expect(JSON.stringify((await menu(cast.member)).json())).not.toContain(shared.id);
    expect((await undo(cast.owner, id)).statusCode).toBe(204);
    expect(await snapshot(db)).toEqual(rows);
    expect((await menu(cast.member)).json()).toEqual(memberMenu);
    expect((await undo(cast.member, id)).statusCode).toBe(404);
  });

  it('restores a favorite, and refuses when the link was favorited again meanwhile', async () => {
    const team = await createCollection(db, { team: cast.team });
    const link = await createLink(db, team);
    const favorite = await createFavorite(db, cast.owner, link.id);
    const rows = await snapshot(db);
    const id = await remove(cast.owner, `/favorites/${favorite.id}`);
    expect((await undo(cast.owner, id)).statusCode).toBe(204);
    expect(await snapshot(db)).toEqual(rows);

    const again = await remove(cast.owner, `/favorites/${favorite.id}`);
    await createFavorite(db, cast.owner, link.id);
    const before = await snapshot(db);
    const response = await undo(cast.owner, again);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({
      message: 'This link is already one of your favorites.',
    });
    expect(await snapshot(db)).toEqual(before);
  });

  it('undoes leaving a share; an owner removing a member gets no undo', async () => {
    const shared = await createCollection(db, { user: cast.owner });
    const share = await createShare(db, cast.owner, shared.id, [cast.member.id, cast.colleague.id]);
    const rows = await snapshot(db);
    const id = await remove(
      cast.member,
      `/collection-shares/${share.id}/members/${cast.member.id}`,
    );
    expect((await undo(cast.member, id)).statusCode).toBe(204);
    expect(await snapshot(db)).toEqual(rows);

    const removal = await call(
      app,
      'DELETE',
      `/collection-shares/${share.id}/members/${cast.colleague.id}`,
      cast.owner,
    );
    expect(removal.statusCode).toBe(204);
    expect(removal.headers[UNDO_HEADERS.id]).toBeUndefined();
  });

  it('refuses a link whose collection was deleted since with 409, and restores it once that is back', async () => {
    const own = await createCollection(db, { user: cast.owner });
    const link = await createLink(db, own, { createdBy: cast.owner.id });
    const rows = await snapshot(db);
    const linkUndo = await remove(cast.owner, `/links/${link.id}`);
    const collectionUndo = await remove(cast.owner, `/collections/${own.id}`);

    const before = await snapshot(db);
    const refused = await undo(cast.owner, linkUndo);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'CONFLICT',
      message: 'It cannot come back: the collection it was in has been deleted since.',
    });
    expect(await snapshot(db)).toEqual(before);

    expect((await undo(cast.owner, collectionUndo)).statusCode).toBe(204);
    expect((await undo(cast.owner, linkUndo)).statusCode).toBe(204);
    expect(await snapshot(db)).toEqual(rows);
  });

  it('checks permission again: an editor who is no longer one cannot restore', async () => {
    const team = await createTeam(db, cast.org.id);
    const editor = await createPerson(app, db, cast.org.id);
    await addTeamMember(db, team, editor.id, 'editor');
    const place = await createCollection(db, { team });
    const link = await createLink(db, place);
    const id = await remove(editor, `/links/${link.id}`);
    await db
      .update(teamMemberships)
      .set({ role: 'member' })
      .where(and(eq(teamMemberships.teamId, team.id), eq(teamMemberships.userId, editor.id)));
    const before = await snapshot(db);
    const response = await undo(editor, id);
    expect(response.statusCode).toBe(403);
    expect(await snapshot(db)).toEqual(before);
  });

  it('purges expired snapshots only', async () => {
    const root = { id: cast.owner.rootId, organizationId: cast.org.id };
    const fresh = await remove(cast.owner, `/links/${(await createLink(db, root)).id}`);
    const old = await remove(cast.owner, `/links/${(await createLink(db, root)).id}`);
    await db
      .update(undoSnapshots)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(undoSnapshots.id, old));
    expect(await app.services.undo.purgeExpired()).toBeGreaterThanOrEqual(1);
    const left = await db.select({ id: undoSnapshots.id }).from(undoSnapshots);
    expect(left.map((r) => r.id)).toContain(fresh);
    expect(left.map((r) => r.id)).not.toContain(old);
  });
});
