// Undo (decision 0052) against the service and its real repositories: what a deletion removed
// comes back exactly, with the same ids, for the person who deleted it and for a while; the
// place it goes back to is authorized again (409 when it has gone or would break the tree, 403
// when the person may no longer change it).
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, teamMemberships, undoSnapshots } from '../../db/schema/index.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { newId } from '../../lib/ids.ts';
import { createTestServices } from '../../../test/app.ts';
import {
  addTeamMember,
  createCollection,
  createFavorite,
  createLink,
  createShare,
  createTeam,
  createUser,
} from '../../../test/factories.ts';
import { snapshot } from '../../../test/support/rows.ts';
import { createCast, type Role } from '../../../test/support/world.ts';
import { callerOf } from '../../../test/support/callers.ts';
import { expectRefusedUnchanged } from '../../../test/support/content-refusals.ts';

const { services, db } = await createTestServices();
const { undo: service } = services;
const cast = await createCast(db);

const as = (role: Role) => callerOf(cast[role]);
const origin = { ip: '203.0.113.7', userAgent: 'undo-test' };
const undo = (who: AuthContext, id: string) => service.undo(who, id, origin);

const NO_LONGER_YOURS = 'You can no longer change the place it was in, so it cannot come back.';
const nothingToUndo = (id: string) =>
  `Nothing to undo with ${id}: it was never yours to undo, or its time ran out long ago.`;

/** Runs a call that must be refused: its AppError, and no content row changed. */
const expectRefused = (call: () => Promise<unknown>, statusCode: number, message: string) =>
  expectRefusedUnchanged(db, call, statusCode, message);

/** The person's menu, as the menu service builds it. */
const menuOf = async (who: AuthContext) =>
  JSON.parse((await services.menu.getMenuJson(who)).toString('utf8')) as unknown;

const kept = async (id: string) =>
  (await db.select().from(undoSnapshots).where(eq(undoSnapshots.id, id)))[0];

const expire = (id: string) =>
  db
    .update(undoSnapshots)
    .set({ expiresAt: sql`now() - interval '1 second'` })
    .where(eq(undoSnapshots.id, id));

/** A link in the owner's My Space, deleted by them: the undo's id. */
async function deletedLink() {
  const link = await createLink(db, { id: cast.owner.rootId, organizationId: cast.org.id });
  return (await services.links.deleteLink(as('owner'), link.id)).id;
}

describe('undoing a deletion', () => {
  it('restores a deleted link exactly, and forgets what it kept', async () => {
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
    const { id } = await services.links.deleteLink(as('owner'), link.id);
    expect((await snapshot(db)).links).toHaveLength(rows.links.length - 1);
    await undo(as('owner'), id);
    expect(await snapshot(db)).toEqual(rows);
    expect(await kept(id)).toMatchObject({ undoneAt: expect.any(Date), rows: {} });
  });

  it('refuses anyone else with 404, whoever they are, and changes nothing', async () => {
    const id = await deletedLink();
    for (const other of ['member', 'orgAdmin', 'outsider'] as const) {
      await expectRefused(() => undo(as(other), id), 404, nothingToUndo(id));
    }
    const unknown = newId();
    await expectRefused(() => undo(as('owner'), unknown), 404, nothingToUndo(unknown));
    await undo(as('owner'), id);
    expect((await kept(id))?.undoneAt).not.toBeNull();
  });

  it('refuses once the time to undo has passed, with 410', async () => {
    const id = await deletedLink();
    await expire(id);
    await expectRefused(
      () => undo(as('owner'), id),
      410,
      'This can no longer be undone: a deletion can be undone for 60 seconds.',
    );
  });

  it('refuses a second undo with 410', async () => {
    const id = await deletedLink();
    await undo(as('owner'), id);
    await expectRefused(() => undo(as('owner'), id), 410, 'This was already undone.');
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
    const [open, accepted] = [newId(), newId()];
    await db.execute(sql`
      INSERT INTO link_suggestions (id, organization_id, collection_id, suggested_by, name, url)
      VALUES (${open}, ${cast.org.id}, ${sub.id}, ${cast.teamMember.id}, 'Idea',
              'https://idea.example')`);
    await db.execute(sql`
      INSERT INTO link_suggestions (id, organization_id, collection_id, suggested_by, name, url,
                                    status, decided_by, decided_at, link_id)
      VALUES (${accepted}, ${cast.org.id}, ${elsewhere.id}, ${cast.teamMember.id}, 'B',
              'https://b.example', 'accepted', ${cast.teamEditor.id}, now(), ${b.id})`);
    const rows = await snapshot(db);
    const menus = {
      editor: await menuOf(as('teamEditor')),
      member: await menuOf(as('teamMember')),
      owner: await menuOf(as('owner')),
    };

    const { id } = await services.collections.deleteCollection(as('teamEditor'), top.id);
    const gone = await snapshot(db);
    expect(gone.collections.map((r) => r.id)).not.toContain(subSub.id);
    expect(gone.favorites).toHaveLength(rows.favorites.length - 3);
    expect(gone.suggestions.map((s) => s.id)).not.toContain(open);
    expect(gone.suggestions.find((s) => s.id === accepted)?.linkId).toBeNull();

    await undo(as('teamEditor'), id);
    expect(await snapshot(db)).toEqual(rows);
    expect(await menuOf(as('teamEditor'))).toEqual(menus.editor);
    expect(await menuOf(as('teamMember'))).toEqual(menus.member);
    expect(await menuOf(as('owner'))).toEqual(menus.owner);
    const [entry] = await db
      .select()
      .from(auditLog)
      .where(
        and(eq(auditLog.action, 'content.collection-restored'), eq(auditLog.targetId, top.id)),
      );
    expect(entry).toMatchObject({
      actorId: cast.teamEditor.id,
      targetLabel: top.name,
      ip: origin.ip,
      userAgent: origin.userAgent,
      after: { name: top.name, parentId: null },
      details: { space: 'team' },
    });
  });

  it('restores a shared collection its owner deleted, with its members and their links', async () => {
    const shared = await createCollection(db, { user: cast.owner });
    const inner = await createCollection(db, { user: cast.owner }, { parentId: shared.id });
    await createLink(db, shared, { createdBy: cast.member.id });
    await createLink(db, inner, { createdBy: cast.owner.id });
    const share = await createShare(db, cast.owner, shared.id, [cast.member.id, cast.colleague.id]);
    const rows = await snapshot(db);
    const memberMenu = await menuOf(as('member'));

    const { id } = await services.shares.deleteShare(as('owner'), share.id, origin);
    expect(JSON.stringify(await menuOf(as('member')))).not.toContain(shared.id);
    await expectRefused(() => undo(as('member'), id), 404, nothingToUndo(id));
    await undo(as('owner'), id);
    expect(await snapshot(db)).toEqual(rows);
    expect(await menuOf(as('member'))).toEqual(memberMenu);
    const [entry] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'share.restored'), eq(auditLog.actorId, cast.owner.id)));
    expect(entry).toMatchObject({
      targetType: 'share',
      targetId: share.id,
      after: { collectionId: shared.id, name: shared.name },
    });
  });

  it('restores a link once the collection it was in is back, and not before: 409', async () => {
    const own = await createCollection(db, { user: cast.owner });
    const link = await createLink(db, own, { createdBy: cast.owner.id });
    const rows = await snapshot(db);
    const linkUndo = await services.links.deleteLink(as('owner'), link.id);
    const collectionUndo = await services.collections.deleteCollection(as('owner'), own.id);
    await expectRefused(
      () => undo(as('owner'), linkUndo.id),
      409,
      'It cannot come back: the collection it was in has been deleted since.',
    );
    await undo(as('owner'), collectionUndo.id);
    await undo(as('owner'), linkUndo.id);
    expect(await snapshot(db)).toEqual(rows);
  });

  it('checks permission again: an editor who is no longer one cannot restore: 403', async () => {
    const team = await createTeam(db, cast.org.id);
    const editor = await createUser(db, cast.org.id);
    await addTeamMember(db, team, editor.id, 'editor');
    const link = await createLink(db, await createCollection(db, { team }));
    const { id } = await services.links.deleteLink(callerOf(editor), link.id);
    await db
      .update(teamMemberships)
      .set({ role: 'member' })
      .where(and(eq(teamMemberships.teamId, team.id), eq(teamMemberships.userId, editor.id)));
    await expectRefused(() => undo(callerOf(editor), id), 403, NO_LONGER_YOURS);
  });

  it('refuses a place the person no longer sees as one they may no longer change: 403', async () => {
    const shared = await createCollection(db, { user: cast.owner });
    const share = await createShare(db, cast.owner, shared.id, [cast.colleague.id]);
    const link = await createLink(db, shared, { createdBy: cast.colleague.id });
    const { id } = await services.links.deleteLink(as('colleague'), link.id);
    await services.shares.removeMember(as('owner'), share.id, cast.colleague.id, origin);
    await expectRefused(() => undo(as('colleague'), id), 403, NO_LONGER_YOURS);
  });
});

describe('undoing the deletion of a collection, into a place that changed', () => {
  it('refuses when it would nest deeper than 10 levels: 409', async () => {
    const place = await createCollection(db, { user: cast.owner });
    const deleted = await createCollection(db, { user: cast.owner }, { parentId: place.id });
    const child = await createCollection(db, { user: cast.owner }, { parentId: deleted.id });
    await createCollection(db, { user: cast.owner }, { parentId: child.id });
    const { id } = await services.collections.deleteCollection(as('owner'), deleted.id);
    // The place goes down to level 8: the tree of three would reach level 11.
    let parentId = cast.owner.rootId;
    for (let level = 1; level <= 7; level += 1) {
      parentId = (await createCollection(db, { user: cast.owner }, { parentId })).id;
    }
    await services.collections.updateCollection(as('owner'), place.id, { parentId });
    await expectRefused(
      () => undo(as('owner'), id),
      409,
      'It cannot come back: collections nest at most 10 levels below My Space.',
    );
  });

  it('refuses a shared collection whose place is shared now: 409', async () => {
    const place = await createCollection(db, { user: cast.owner });
    const shared = await createCollection(db, { user: cast.owner }, { parentId: place.id });
    await createShare(db, cast.owner, shared.id, [cast.member.id]);
    const { id } = await services.collections.deleteCollection(as('owner'), shared.id);
    expect((await kept(id))?.kind).toBe('share');
    await createShare(db, cast.owner, place.id, [cast.colleague.id]);
    await expectRefused(
      () => undo(as('owner'), id),
      409,
      'It cannot come back: shares do not nest, and its place is shared now.',
    );
  });

  it('refuses one holding favorites whose place is shared now: 409', async () => {
    const place = await createCollection(db, { user: cast.owner });
    const deleted = await createCollection(db, { user: cast.owner }, { parentId: place.id });
    const teamLink = await createLink(db, await createCollection(db, { team: cast.team }));
    await createFavorite(db, cast.owner, teamLink.id, deleted.id);
    const { id } = await services.collections.deleteCollection(as('owner'), deleted.id);
    await createShare(db, cast.owner, place.id, [cast.member.id]);
    await expectRefused(
      () => undo(as('owner'), id),
      409,
      'It cannot come back: it holds favorites, and its place is shared now.',
    );
  });
});

describe('undoing the removal of a favorite', () => {
  /** A favorite of a team link in the owner's My Space, removed: the link and the undo's id. */
  async function removedFavorite() {
    const link = await createLink(db, await createCollection(db, { team: cast.team }));
    const favorite = await createFavorite(db, cast.owner, link.id);
    const rows = await snapshot(db);
    const { id } = await services.favorites.deleteFavorite(as('owner'), favorite.id);
    return { link, favorite, rows, id };
  }

  it('restores it, and records nothing: favorites are the person’s own', async () => {
    const { favorite, rows, id } = await removedFavorite();
    const entries = await db.select().from(auditLog);
    await undo(as('owner'), id);
    expect(await snapshot(db)).toEqual(rows);
    expect(rows.favorites.map((row) => row.id)).toContain(favorite.id);
    expect(await db.select().from(auditLog)).toHaveLength(entries.length);
  });

  it('refuses when the link was favorited again meanwhile: 409', async () => {
    const { link, id } = await removedFavorite();
    await createFavorite(db, cast.owner, link.id);
    await expectRefused(
      () => undo(as('owner'), id),
      409,
      'This link is already one of your favorites.',
    );
  });

  it('refuses when its link has been deleted since: 409', async () => {
    const { link, id } = await removedFavorite();
    await services.links.deleteLink(as('teamEditor'), link.id);
    await expectRefused(
      () => undo(as('owner'), id),
      409,
      'It cannot come back: its link has been deleted since.',
    );
  });

  it('refuses when the person no longer sees its link: 403', async () => {
    const team = await createTeam(db, cast.org.id);
    const me = await createUser(db, cast.org.id);
    await addTeamMember(db, team, me.id);
    const link = await createLink(db, await createCollection(db, { team }));
    const favorite = await createFavorite(db, me, link.id);
    const { id } = await services.favorites.deleteFavorite(callerOf(me), favorite.id);
    await db
      .delete(teamMemberships)
      .where(and(eq(teamMemberships.teamId, team.id), eq(teamMemberships.userId, me.id)));
    await expectRefused(
      () => undo(callerOf(me), id),
      403,
      'You can no longer see this link, so it cannot be a favorite again.',
    );
  });

  it('refuses when the collection it was in is shared now: 409', async () => {
    const link = await createLink(db, await createCollection(db, { team: cast.team }));
    const place = await createCollection(db, { user: cast.owner });
    const favorite = await createFavorite(db, cast.owner, link.id, place.id);
    const { id } = await services.favorites.deleteFavorite(as('owner'), favorite.id);
    await createShare(db, cast.owner, place.id, [cast.member.id]);
    await expectRefused(
      () => undo(as('owner'), id),
      409,
      'Favorites are private: the collection it was in is shared now.',
    );
  });
});

describe('undoing leaving a share', () => {
  async function left() {
    const shared = await createCollection(db, { user: cast.owner });
    const share = await createShare(db, cast.owner, shared.id, [cast.member.id, cast.colleague.id]);
    const rows = await snapshot(db);
    const ticket = await services.shares.removeMember(
      as('member'),
      share.id,
      cast.member.id,
      origin,
    );
    return { shared, share, rows, id: ticket!.id };
  }

  it('makes them a member again, recorded as such; an owner removing a member gets no undo', async () => {
    const { shared, share, rows, id } = await left();
    await undo(as('member'), id);
    expect(await snapshot(db)).toEqual(rows);
    const [entry] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'share.member-added'), eq(auditLog.actorId, cast.member.id)));
    expect(entry).toMatchObject({
      targetType: 'person',
      targetId: cast.member.id,
      details: { shareId: share.id, collection: shared.name, undo: true },
    });
    expect(
      await services.shares.removeMember(as('owner'), share.id, cast.colleague.id, origin),
    ).toBeNull();
  });

  it('refuses when they are a member again already: 409', async () => {
    const { share, id } = await left();
    await services.shares.addMembers(as('owner'), share.id, [cast.member.id], origin);
    await expectRefused(
      () => undo(as('member'), id),
      409,
      'You are a member of this shared collection again already.',
    );
  });

  it('refuses when the shared collection has been deleted since: 409', async () => {
    const { share, id } = await left();
    await services.shares.deleteShare(as('owner'), share.id, origin);
    await expectRefused(
      () => undo(as('member'), id),
      409,
      'It cannot come back: the shared collection has been deleted since.',
    );
  });
});

describe('the purge of what can no longer be undone', () => {
  it('deletes expired snapshots only', async () => {
    const fresh = await deletedLink();
    const old = await deletedLink();
    await expire(old);
    expect(await service.purgeExpired()).toBeGreaterThanOrEqual(1);
    const left = await db.select({ id: undoSnapshots.id }).from(undoSnapshots);
    expect(left.map((r) => r.id)).toContain(fresh);
    expect(left.map((r) => r.id)).not.toContain(old);
  });
});
