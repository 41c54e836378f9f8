// The rules of links, against the service and its real repositories: what adding and editing
// store, who may add to, edit and delete which, and the audit entries of team and
// organization links. Moving and suggesting: links-move.service.test.ts.
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, links, undoSnapshots } from '../../db/schema/index.ts';
import { createTestServices } from '../../../test/app.ts';
import { createFavorite, createLink } from '../../../test/factories.ts';
import { linkRow, snapshot } from '../../../test/support/rows.ts';
import {
  createCast,
  createSpaces,
  createWorld,
  type LinkKind,
  type Place,
  type Role,
} from '../../../test/support/world.ts';
import { callerOf } from '../../../test/support/callers.ts';
import { auditEntriesAbout } from '../../../test/support/audit-entries.ts';
import {
  REFUSALS,
  type Refused,
  expectRefusedUnchanged,
} from '../../../test/support/content-refusals.ts';

const { services, db } = await createTestServices();
const { links: service } = services;
const cast = await createCast(db);

const as = (role: Role) => callerOf(cast[role]);
const origin = { ip: '203.0.113.7', userAgent: 'content-test' };

/** Runs a call that must be refused: its AppError, and no content row changed. */
const expectRefused = (call: () => Promise<unknown>, statusCode: number, message: string) =>
  expectRefusedUnchanged(db, call, statusCode, message);

const linksIn = (collectionId: string) =>
  db.select().from(links).where(eq(links.collectionId, collectionId));

const entriesFor = (targetId: string) => auditEntriesAbout(db, targetId);

describe('adding a link', () => {
  it('stores it at the end, normalized, as added by the caller', async () => {
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
    for (const { name, url } of cases) {
      await service.createLink(as('owner'), own.id, { name, url, description: 'About' });
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
    // Personal content is not audited.
    expect(await entriesFor(rows[0]!.id)).toEqual([]);
  });

  it('lets a share member add to the share and its sub-collections, as themselves', async () => {
    const { shared, sharedSub } = await createSpaces(db, cast);
    for (const target of [shared, sharedSub]) {
      await service.createLink(as('member'), target.id, { name: 'Mine', url: 'example.org' });
      expect(await linksIn(target.id)).toContainEqual(
        expect.objectContaining({ name: 'Mine', createdBy: cast.member.id, description: '' }),
      );
    }
  });

  it('gives concurrent additions distinct places at the end', async () => {
    const { own } = await createSpaces(db, cast);
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        service.createLink(as('owner'), own.id, {
          name: `Burst ${i}`,
          url: `https://burst.example/${i}`,
        }),
      ),
    );
    const positions = (await linksIn(own.id)).map((row) => row.position).sort((a, b) => a - b);
    expect(positions).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  const cells: [Role, Place, 204 | 404 | Refused][] = [
    ['owner', 'own', 204],
    ['owner', 'root', 204],
    ['owner', 'sharedSub', 204],
    ['owner', 'colleagues', 404],
    ['owner', 'colleagueRoot', 404],
    ['owner', 'outsiders', 404],
    ['owner', 'otherTeam', 404],
    ['owner', 'otherOrganization', 404],
    ['owner', 'unknown', 404],
    ['owner', 'team', 'team'],
    ['member', 'sharedSub', 204],
    ['member', 'own', 404],
    ['outsider', 'own', 404],
  ];
  it.each(cells)('%s adding to %s: %s', async (role, place, outcome) => {
    const id = (await createSpaces(db, cast))[place].id;
    const add = () =>
      service.createLink(as(role), id, { name: 'Cell', url: 'https://cell.example' });
    if (outcome === 204) {
      await add();
      expect(await linksIn(id)).toContainEqual(
        expect.objectContaining({ name: 'Cell', createdBy: cast[role].id }),
      );
    } else if (outcome === 404) {
      await expectRefused(add, 404, `Collection ${id} was not found`);
    } else {
      await expectRefused(add, 403, REFUSALS[outcome]);
    }
  });
});

// Who may change or delete which link: these hold for editing and deleting alike.
const linkCells: [Role, LinkKind, 204 | 404 | Refused][] = [
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
  ['member', 'formerMemberInShare', 'added'],
  ['member', 'own', 404],
  ['colleague', 'formerMemberInShare', 404],
  ['outsider', 'own', 404],
];

describe('editing a link', () => {
  it('changes only the fields given, normalizing the address', async () => {
    const { links: spot } = await createWorld(db, cast);
    const before = await linkRow(db, spot.own.id);
    await service.updateLink(as('owner'), spot.own.id, { name: ' Docs ', url: 'docs.example.com' });
    expect(await linkRow(db, spot.own.id)).toEqual({
      ...before,
      name: 'Docs',
      url: 'https://docs.example.com/',
      updatedAt: expect.any(Date),
    });
    await service.updateLink(as('owner'), spot.own.id, { description: 'Now with text' });
    expect(await linkRow(db, spot.own.id)).toMatchObject({
      name: 'Docs',
      description: 'Now with text',
    });
  });

  it('writes nothing when sent back as it is (a whole form): the row stays as it was', async () => {
    const { links: spot } = await createWorld(db, cast);
    const before = await linkRow(db, spot.own.id);
    await service.updateLink(as('owner'), spot.own.id, {
      name: before!.name,
      description: before!.description,
      url: before!.url,
    });
    expect(await linkRow(db, spot.own.id)).toEqual(before);
  });

  const editCells: [Role, LinkKind, 204 | 404 | Refused][] = [
    ...linkCells,
    ['owner', 'organization', 'organization'],
    // The people who run a space change its content in place (decision 0008).
    ['orgAdmin', 'organization', 204],
    ['orgAdmin', 'team', 204],
    ['teamEditor', 'otherTeam', 404],
  ];
  it.each(editCells)('%s editing a link (%s): %s', async (role, kind, outcome) => {
    const id = (await createWorld(db, cast)).links[kind].id;
    const edit = () => service.updateLink(as(role), id, { name: 'Edited' });
    if (outcome === 204) {
      await edit();
      expect(await linkRow(db, id)).toMatchObject({ name: 'Edited' });
    } else if (outcome === 404) {
      await expectRefused(edit, 404, `Link ${id} was not found`);
    } else {
      await expectRefused(edit, 403, REFUSALS[outcome]);
    }
  });
});

describe('deleting a link', () => {
  it('deletes the one link with everyone’s favorites of it, and keeps it to undo', async () => {
    const { links: spot } = await createWorld(db, cast);
    const favorite = await createFavorite(db, cast.teamMember, spot.team.id);
    const before = await snapshot(db);
    const ticket = await service.deleteLink(as('teamEditor'), spot.team.id);
    const after = await snapshot(db);
    expect(after.links).toEqual(before.links.filter((row) => row.id !== spot.team.id));
    expect(after.favorites).toEqual(before.favorites.filter((row) => row.id !== favorite.id));
    expect(after.collections).toEqual(before.collections);
    expect(ticket.expiresAt.getTime()).toBeGreaterThan(Date.now());
    const [kept] = await db.select().from(undoSnapshots).where(eq(undoSnapshots.id, ticket.id));
    expect(kept).toMatchObject({
      userId: cast.teamEditor.id,
      kind: 'link',
      targetId: spot.team.id,
      label: spot.team.name,
    });
  });

  const deleteCells: [Role, LinkKind, 204 | 404 | Refused][] = [
    ...linkCells,
    ['owner', 'memberInShare', 204],
    ['member', 'memberInShare', 204],
    ['colleague', 'memberInShare', 404],
    ['owner', 'team', 'team'],
    ['teamMember', 'team', 'team'],
    ['teamEditor', 'team', 204],
    ['orgAdmin', 'otherTeam', 204],
    ['teamEditor', 'organization', 'organization'],
  ];
  it.each(deleteCells)('%s deleting a link (%s): %s', async (role, kind, outcome) => {
    const id = (await createWorld(db, cast)).links[kind].id;
    const remove = () => service.deleteLink(as(role), id);
    if (outcome === 204) {
      await remove();
      expect(await linkRow(db, id)).toBeUndefined();
    } else if (outcome === 404) {
      await expectRefused(remove, 404, `Link ${id} was not found`);
    } else {
      await expectRefused(remove, 403, REFUSALS[outcome]);
    }
  });
});

describe('the audit entries of team and organization links', () => {
  it('record a link added, edited, moved and deleted by an editor, with who and from where', async () => {
    const w = await createWorld(db, cast);
    const editor = as('teamEditor');
    await service.createLink(
      editor,
      w.spaces.team.id,
      { name: 'Wiki', url: 'wiki.example.com' },
      origin,
    );
    const [created] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'content.link-created'), eq(auditLog.actorId, editor.userId)));
    expect(created).toMatchObject({
      organizationId: cast.org.id,
      actorName: editor.name,
      actorEmail: editor.email,
      targetType: 'link',
      targetLabel: 'Wiki',
      ip: origin.ip,
      userAgent: origin.userAgent,
      before: null,
      after: {
        name: 'Wiki',
        url: 'https://wiki.example.com/',
        description: '',
        collectionId: w.spaces.team.id,
      },
      details: { space: 'team' },
    });
    const id = created!.targetId!;
    await service.updateLink(editor, id, { name: 'Team wiki' }, origin);
    // The same value again is no change, and no entry.
    await service.updateLink(editor, id, { name: 'Team wiki' }, origin);
    await service.moveLink(editor, id, w.spaces.teamSub.id, origin);
    await service.deleteLink(editor, id, origin);
    expect(await linkRow(db, id)).toBeUndefined();

    expect((await entriesFor(id)).map((e) => [e.action, e.before, e.after])).toEqual([
      ['content.link-created', null, expect.any(Object)],
      ['content.link-updated', { name: 'Wiki' }, { name: 'Team wiki' }],
      [
        'content.link-moved',
        { collectionId: w.spaces.team.id },
        { collectionId: w.spaces.teamSub.id },
      ],
      [
        'content.link-deleted',
        {
          name: 'Team wiki',
          description: '',
          url: 'https://wiki.example.com/',
          collectionId: w.spaces.teamSub.id,
        },
        null,
      ],
    ]);
  });

  it('record nothing for personal content, nor for a refused change', async () => {
    const w = await createWorld(db, cast);
    await service.updateLink(as('owner'), w.links.own.id, { name: 'Mine' }, origin);
    await expectRefused(
      () => service.updateLink(as('teamMember'), w.links.team.id, { name: 'Nope' }, origin),
      403,
      REFUSALS.team,
    );
    await expectRefused(
      () => service.moveLink(as('teamEditor'), w.links.team.id, cast.teamEditor.rootId, origin),
      409,
      'Team and organization content stays in its own space: move it only between collections of that space.',
    );
    expect(await entriesFor(w.links.own.id)).toEqual([]);
    expect(await entriesFor(w.links.team.id)).toEqual([]);
  });
});
