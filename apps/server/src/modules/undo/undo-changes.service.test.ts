// Undo of a change (decision 0076) against the services and their real repositories: an
// edit, a move and a new order keep the rows they change, and undoing one writes those rows'
// fields back, for the person who made it, while they may still make each part of it.
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  auditLog,
  collections,
  links,
  teamMemberships,
  undoSnapshots,
} from '../../db/schema/index.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { createTestServices } from '../../../test/app.ts';
import {
  addTeamMember,
  createCollection,
  createLink,
  createUser,
} from '../../../test/factories.ts';
import { auditEntriesAbout } from '../../../test/support/audit-entries.ts';
import { callerOf } from '../../../test/support/callers.ts';
import { expectRefusedUnchanged } from '../../../test/support/content-refusals.ts';
import { collectionRow, linkRow } from '../../../test/support/rows.ts';
import { createCast, createSpaces, type Role } from '../../../test/support/world.ts';

const { services, db } = await createTestServices();
const cast = await createCast(db);

const as = (role: Role) => callerOf(cast[role]);
const origin = { ip: '203.0.113.7', userAgent: 'undo-change-test' };
const undo = (who: AuthContext, id: string) => services.undo.undo(who, id, origin);

const CHANGED_GONE = 'It cannot be undone: what it changed has been deleted since.';
const CHANGE_NOT_YOURS = 'You can no longer change this, so it cannot be undone.';
const PLACE_GONE = 'It cannot come back: the collection it was in has been deleted since.';

/** A row without the column every write sets (`updated_at`): what a revert gives back. */
const fieldsOf = <T extends { updatedAt?: unknown }>(row: T | undefined) => {
  const { updatedAt: _, ...rest } = row ?? ({} as T);
  return rest;
};

const positionsIn = async (collectionId: string) =>
  (
    await db
      .select({ id: links.id, position: links.position })
      .from(links)
      .where(eq(links.collectionId, collectionId))
  ).sort((a, b) => a.position - b.position);

const refused = (call: () => Promise<unknown>, statusCode: number, message: string) =>
  expectRefusedUnchanged(db, call, statusCode, message);

describe('undoing an edit of a link', () => {
  it('writes back its name, description, address and app, and audits the undo', async () => {
    const { team } = await createSpaces(db, cast);
    const link = await createLink(db, team, {
      name: 'Wiki',
      description: 'Notes',
      url: 'https://wiki.example/',
      appName: 'Confluence',
    });
    const before = await linkRow(db, link.id);
    const ticket = await services.links.updateLink(as('teamEditor'), link.id, {
      name: 'Handbook',
      description: 'How we work',
      url: 'https://handbook.example/',
      appName: '  ',
    });
    expect(await linkRow(db, link.id)).toMatchObject({
      name: 'Handbook',
      url: 'https://handbook.example/',
      appName: null,
    });
    await undo(as('teamEditor'), ticket!.id);
    expect(fieldsOf(await linkRow(db, link.id))).toEqual(fieldsOf(before));
    const entries = await auditEntriesAbout(db, link.id);
    expect(entries.map((entry) => entry.action)).toEqual([
      'content.link-updated',
      'content.link-updated',
    ]);
    expect(entries[1]).toMatchObject({
      before: {
        name: 'Handbook',
        description: 'How we work',
        url: 'https://handbook.example/',
        appName: null,
      },
      after: {
        name: 'Wiki',
        description: 'Notes',
        url: 'https://wiki.example/',
        appName: 'Confluence',
      },
      details: { space: 'team', undo: true },
    });
  });

  it('names no undo for an edit that changes nothing', async () => {
    const { own } = await createSpaces(db, cast);
    const link = await createLink(db, own, { name: 'Same', appName: null });
    expect(
      await services.links.updateLink(as('owner'), link.id, { name: 'Same', appName: '' }),
    ).toBeNull();
  });

  it('is the person’s own: anyone else is told there is nothing to undo, and nothing changes', async () => {
    const { team } = await createSpaces(db, cast);
    const link = await createLink(db, team, { name: 'Before' });
    const ticket = await services.links.updateLink(as('teamEditor'), link.id, { name: 'After' });
    await refused(
      () => undo(as('orgAdmin'), ticket!.id),
      404,
      `Nothing to undo with ${ticket!.id}: it was never yours to undo, or its time ran out long ago.`,
    );
  });

  it('is refused once the link was deleted since (409), and changes nothing', async () => {
    const { own } = await createSpaces(db, cast);
    const link = await createLink(db, own, { name: 'Before' });
    const ticket = await services.links.updateLink(as('owner'), link.id, { name: 'After' });
    await services.links.deleteLink(as('owner'), link.id);
    await refused(() => undo(as('owner'), ticket!.id), 409, CHANGED_GONE);
  });

  it('is refused to an editor who is no longer one (403), and changes nothing', async () => {
    const editor = await createUser(db, cast.org.id);
    await addTeamMember(db, cast.team, editor.id, 'editor');
    const { team } = await createSpaces(db, cast);
    const link = await createLink(db, team, { name: 'Before' });
    const ticket = await services.links.updateLink(callerOf(editor), link.id, { name: 'After' });
    await db
      .update(teamMemberships)
      .set({ role: 'member' })
      .where(and(eq(teamMemberships.userId, editor.id), eq(teamMemberships.teamId, cast.team.id)));
    await refused(() => undo(callerOf(editor), ticket!.id), 403, CHANGE_NOT_YOURS);
  });

  it('is done once: a second undo is told so (410)', async () => {
    const { own } = await createSpaces(db, cast);
    const link = await createLink(db, own, { name: 'Before' });
    const ticket = await services.links.updateLink(as('owner'), link.id, { name: 'After' });
    await undo(as('owner'), ticket!.id);
    await refused(() => undo(as('owner'), ticket!.id), 410, 'This was already undone.');
  });
});

describe('undoing a move of a link', () => {
  it('puts it back where it was, in its place among the others', async () => {
    const { team, teamSub } = await createSpaces(db, cast);
    const first = await createLink(db, team, { position: 0 });
    const moved = await createLink(db, team, { position: 1 });
    const last = await createLink(db, team, { position: 2 });
    const ticket = await services.links.moveLink(as('teamEditor'), moved.id, teamSub.id);
    expect((await linkRow(db, moved.id))?.collectionId).toBe(teamSub.id);
    await undo(as('teamEditor'), ticket!.id);
    expect((await positionsIn(team.id)).map((l) => l.id)).toEqual([first.id, moved.id, last.id]);
    const entries = await auditEntriesAbout(db, moved.id);
    expect(entries.at(-1)).toMatchObject({
      action: 'content.link-moved',
      before: { collectionId: teamSub.id },
      after: { collectionId: team.id },
      details: { undo: true },
    });
  });

  it('names no undo for a move to where it is', async () => {
    const { own } = await createSpaces(db, cast);
    const link = await createLink(db, own);
    expect(await services.links.moveLink(as('owner'), link.id, own.id)).toBeNull();
  });

  it('is refused once the collection it came from was deleted (409), and changes nothing', async () => {
    const { own } = await createSpaces(db, cast);
    const from = await createCollection(db, { user: cast.owner }, { parentId: own.id });
    const link = await createLink(db, from);
    const ticket = await services.links.moveLink(as('owner'), link.id, own.id);
    await services.collections.deleteCollection(as('owner'), from.id);
    await refused(() => undo(as('owner'), ticket!.id), 409, PLACE_GONE);
  });
});

describe('undoing an edit or a move of a collection', () => {
  it('writes back its name, description and colour', async () => {
    const { organization } = await createSpaces(db, cast);
    const before = await collectionRow(db, organization.id);
    const ticket = await services.collections.updateCollection(as('orgAdmin'), organization.id, {
      name: 'Renamed',
      description: 'New words',
      color: '#123456',
    });
    await undo(as('orgAdmin'), ticket!.id);
    expect(fieldsOf(await collectionRow(db, organization.id))).toEqual(fieldsOf(before));
    expect((await auditEntriesAbout(db, organization.id)).at(-1)).toMatchObject({
      action: 'content.collection-updated',
      before: { name: 'Renamed', description: 'New words', color: '#123456' },
      details: { space: 'organization', undo: true },
    });
  });

  it('moves it back under the collection it was in', async () => {
    const { own } = await createSpaces(db, cast);
    const from = await createCollection(db, { user: cast.owner }, { parentId: own.id });
    const to = await createCollection(db, { user: cast.owner }, { parentId: own.id });
    const child = await createCollection(db, { user: cast.owner }, { parentId: from.id });
    const before = await collectionRow(db, child.id);
    const ticket = await services.collections.updateCollection(as('owner'), child.id, {
      parentId: to.id,
    });
    await undo(as('owner'), ticket!.id);
    expect(fieldsOf(await collectionRow(db, child.id))).toEqual(fieldsOf(before));
  });

  it('is refused when the place it was in has moved into it since (409), and changes nothing', async () => {
    const { own } = await createSpaces(db, cast);
    const from = await createCollection(db, { user: cast.owner }, { parentId: own.id });
    const child = await createCollection(db, { user: cast.owner }, { parentId: from.id });
    const ticket = await services.collections.updateCollection(as('owner'), child.id, {
      parentId: own.id,
    });
    await services.collections.updateCollection(as('owner'), from.id, { parentId: child.id });
    await refused(
      () => undo(as('owner'), ticket!.id),
      409,
      'It cannot be undone: the place it was in has moved into it since.',
    );
  });
});

describe('undoing a new order', () => {
  it('gives every item of the collection its place again', async () => {
    const { team, teamSub } = await createSpaces(db, cast);
    const a = await createLink(db, team, { position: 0 });
    const b = await createLink(db, team, { position: 1 });
    const c = await createCollection(db, { team: cast.team }, { parentId: team.id, position: 2 });
    const ticket = await services.collections.orderItems(as('teamEditor'), team.id, {
      items: [
        { type: 'collection', id: teamSub.id },
        { type: 'collection', id: c.id },
        { type: 'link', id: b.id },
        { type: 'link', id: a.id },
      ],
    });
    expect((await positionsIn(team.id)).map((l) => l.id)).toEqual([b.id, a.id]);
    await undo(as('teamEditor'), ticket.id);
    expect((await positionsIn(team.id)).map((l) => l.id)).toEqual([a.id, b.id]);
    expect((await collectionRow(db, c.id))?.position).toBe(2);
    const reordered = await db
      .select()
      .from(auditLog)
      .where(
        and(eq(auditLog.targetId, team.id), eq(auditLog.action, 'content.collection-reordered')),
      );
    expect(reordered.map((entry) => entry.details)).toContainEqual({
      space: 'team',
      undo: true,
    });
  });

  it('keeps of each item only its id, its name and its place, not the whole row', async () => {
    const { team, teamSub } = await createSpaces(db, cast);
    const a = await createLink(db, team, { position: 0, description: 'A long description' });
    const b = await createLink(db, team, { position: 1 });
    const ticket = await services.collections.orderItems(as('teamEditor'), team.id, {
      items: [
        { type: 'collection', id: teamSub.id },
        { type: 'link', id: b.id },
        { type: 'link', id: a.id },
      ],
    });
    const [kept] = await db
      .select({ rows: undoSnapshots.rows })
      .from(undoSnapshots)
      .where(eq(undoSnapshots.id, ticket.id));
    const rows = kept!.rows as {
      links: Record<string, unknown>[];
      collections: Record<string, unknown>[];
      revert: string[];
    };
    expect(rows.revert).toEqual(['place']);
    expect(rows.links.map((row) => Object.keys(row).sort())).toEqual([
      ['collection_id', 'id', 'name', 'position'],
      ['collection_id', 'id', 'name', 'position'],
    ]);
    expect(Object.keys(rows.collections[0]!).sort()).toEqual([
      'id',
      'name',
      'parent_id',
      'position',
    ]);
  });

  it('is refused to someone who may no longer reorder there (403), and changes nothing', async () => {
    const editor = await createUser(db, cast.org.id);
    await addTeamMember(db, cast.team, editor.id, 'editor');
    const { team, teamSub } = await createSpaces(db, cast);
    const a = await createLink(db, team, { position: 0 });
    const b = await createLink(db, team, { position: 1 });
    const ticket = await services.collections.orderItems(callerOf(editor), team.id, {
      items: [
        { type: 'collection', id: teamSub.id },
        { type: 'link', id: b.id },
        { type: 'link', id: a.id },
      ],
    });
    await db
      .delete(teamMemberships)
      .where(and(eq(teamMemberships.userId, editor.id), eq(teamMemberships.teamId, cast.team.id)));
    await refused(() => undo(callerOf(editor), ticket.id), 403, CHANGE_NOT_YOURS);
    expect((await db.select().from(collections).where(eq(collections.id, team.id))).length).toBe(1);
  });
});

describe('an undo writes back only what its change changed', () => {
  it('undoing a new order keeps a rename made since by someone else', async () => {
    const { team, teamSub } = await createSpaces(db, cast);
    const a = await createLink(db, team, { position: 0, name: 'Alpha' });
    const b = await createLink(db, team, { position: 1, name: 'Beta' });
    const ticket = await services.collections.orderItems(as('teamEditor'), team.id, {
      items: [
        { type: 'collection', id: teamSub.id },
        { type: 'link', id: b.id },
        { type: 'link', id: a.id },
      ],
    });
    await services.links.updateLink(as('orgAdmin'), a.id, { name: 'Alpha, renamed' });
    await undo(as('teamEditor'), ticket.id);
    expect((await positionsIn(team.id)).map((l) => l.id)).toEqual([a.id, b.id]);
    expect((await linkRow(db, a.id))?.name).toBe('Alpha, renamed');
  });

  it('undoing an edit leaves the link where it was moved since', async () => {
    const { team, teamSub } = await createSpaces(db, cast);
    const link = await createLink(db, team, { name: 'Before' });
    const ticket = await services.links.updateLink(as('teamEditor'), link.id, { name: 'After' });
    await services.links.moveLink(as('teamEditor'), link.id, teamSub.id);
    await undo(as('teamEditor'), ticket!.id);
    expect(await linkRow(db, link.id)).toMatchObject({ name: 'Before', collectionId: teamSub.id });
  });

  it('undoing a move leaves the name typed since', async () => {
    const { own } = await createSpaces(db, cast);
    const from = await createCollection(db, { user: cast.owner }, { parentId: own.id });
    const link = await createLink(db, from, { name: 'Moved' });
    const ticket = await services.links.moveLink(as('owner'), link.id, own.id);
    await services.links.updateLink(as('owner'), link.id, { name: 'Moved and renamed' });
    await undo(as('owner'), ticket!.id);
    expect(await linkRow(db, link.id)).toMatchObject({
      name: 'Moved and renamed',
      collectionId: from.id,
    });
  });
});
