// The rules of collections, against the service and its real repositories: where a new one
// goes and who may add it, who may delete which and what goes with it, and the audit entries
// of team and organization collections. Editing and moving: collections-update.service.test.ts;
// ordering: collections-order.service.test.ts.
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, collections, undoSnapshots } from '../../db/schema/index.ts';
import { newId } from '../../lib/ids.ts';
import { createTestServices } from '../../../test/app.ts';
import {
  addTeamMember,
  createCollection,
  createFavorite,
  createLink,
  createOrganization,
  createShare,
  createTeam,
  createUser,
} from '../../../test/factories.ts';
import { collectionRow, snapshot } from '../../../test/support/rows.ts';
import {
  createCast,
  createSpaces,
  createWorld,
  type Place,
  type Role,
} from '../../../test/support/world.ts';
import { callerOf } from '../../../test/support/callers.ts';
import { auditEntriesAbout } from '../../../test/support/audit-entries.ts';
import {
  ORGANIZATION_READ_ONLY,
  READ_ONLY,
  REFUSALS,
  type Refused,
  expectRefusedUnchanged,
} from '../../../test/support/content-refusals.ts';

const { services, db } = await createTestServices();
const { collections: service } = services;
const cast = await createCast(db);

const as = (role: Role) => callerOf(cast[role]);
const origin = { ip: '203.0.113.7', userAgent: 'content-test' };

const TOO_DEEP = 'Collections nest at most 10 levels below My Space.';
const notFound = (id: string) => `Collection ${id} was not found`;

/** Runs a call that must be refused: its AppError, and no content row changed. */
const expectRefused = (call: () => Promise<unknown>, statusCode: number, message: string) =>
  expectRefusedUnchanged(db, call, statusCode, message);

const childrenOf = (parentId: string) =>
  db.select().from(collections).where(eq(collections.parentId, parentId));

const entriesFor = (targetId: string) => auditEntriesAbout(db, targetId);

describe('adding a collection', () => {
  it('puts it at the end of My Space when no parent is named, trimmed, as the caller’s', async () => {
    const me = await createUser(db, cast.org.id);
    await createLink(db, { id: me.rootId, organizationId: me.organizationId }, { position: 5 });
    await service.createCollection(callerOf(me), { name: '  Reading  ' });
    await service.createCollection(callerOf(me), {
      name: 'Tools',
      description: 'Daily',
      color: '#3B82F6',
      parentId: null,
    });
    const rows = (await childrenOf(me.rootId)).sort((a, b) => a.position - b.position);
    expect(rows).toMatchObject([
      {
        name: 'Reading',
        description: '',
        color: null,
        position: 6,
        ownerType: 'user',
        ownerUserId: me.id,
        ownerTeamId: null,
        organizationId: me.organizationId,
        createdBy: me.id,
        isRoot: false,
      },
      { name: 'Tools', description: 'Daily', color: '#3B82F6', position: 7 },
    ]);
    expect(rows[0]?.id).toMatch(/^[A-Za-z0-9_-]{21}$/);
    // Personal content is not audited.
    expect(await entriesFor(rows[0]!.id)).toEqual([]);
  });

  it('nests in one of the caller’s own collections, after its items', async () => {
    const parent = await createCollection(db, { user: cast.owner });
    await createCollection(db, { user: cast.owner }, { parentId: parent.id, position: 3 });
    await service.createCollection(as('owner'), { name: 'Inner', parentId: parent.id });
    const inner = (await childrenOf(parent.id)).find((row) => row.name === 'Inner');
    expect(inner).toMatchObject({ position: 4, ownerUserId: cast.owner.id });
  });

  it('nests 10 levels below My Space and refuses an 11th: 409', async () => {
    const me = await createUser(db, cast.org.id);
    let parentId = me.rootId;
    for (let level = 1; level <= 10; level += 1) {
      await service.createCollection(callerOf(me), { name: `Level ${level}`, parentId });
      const [child] = await childrenOf(parentId);
      parentId = child!.id;
    }
    await expectRefused(
      () => service.createCollection(callerOf(me), { name: 'Level 11', parentId }),
      409,
      TOO_DEEP,
    );
  });

  const parents: [Role, Place, 204 | 404 | Refused][] = [
    ['owner', 'own', 204],
    ['owner', 'root', 204],
    ['owner', 'sharedSub', 204],
    ['owner', 'colleagues', 404],
    ['owner', 'colleagueRoot', 404],
    ['owner', 'outsiders', 404],
    ['owner', 'otherOrganization', 404],
    ['owner', 'otherTeam', 404],
    ['owner', 'unknown', 404],
    ['member', 'sharedSub', 'personal'],
    ['member', 'own', 404],
    ['outsider', 'own', 404],
  ];
  it.each(parents)('%s nesting in %s: %s', async (role, place, outcome) => {
    const spaces = await createSpaces(db, cast);
    const parentId = spaces[place].id;
    const add = () => service.createCollection(as(role), { name: 'Nested', parentId });
    if (outcome === 204) {
      await add();
      expect(await childrenOf(parentId)).toContainEqual(
        expect.objectContaining({ name: 'Nested', ownerUserId: cast[role].id }),
      );
    } else if (outcome === 404) {
      await expectRefused(add, 404, notFound(parentId));
    } else {
      await expectRefused(add, 403, REFUSALS[outcome]);
    }
  });
});

describe('adding a collection at the top of a team or the organization', () => {
  it('puts it after the team’s top-level collections, owned by the team, audited', async () => {
    const team = await createTeam(db, cast.org.id);
    const editor = await createUser(db, cast.org.id);
    await addTeamMember(db, team, editor.id, 'editor');
    await createCollection(db, { team }, { position: 4 });
    // Other spaces' top levels do not count.
    await createCollection(db, { team: cast.team }, { position: 40 });
    await createCollection(db, { organizationId: cast.org.id }, { position: 30 });
    await service.createCollection(
      callerOf(editor),
      { name: ' Team tools ', spaceId: team.id },
      origin,
    );
    const [top] = await db.select().from(collections).where(eq(collections.name, 'Team tools'));
    expect(top).toMatchObject({
      ownerType: 'team',
      ownerTeamId: team.id,
      ownerUserId: null,
      parentId: null,
      position: 5,
      createdBy: editor.id,
    });
    expect(await entriesFor(top!.id)).toMatchObject([
      {
        action: 'content.collection-created',
        organizationId: cast.org.id,
        actorId: editor.id,
        actorName: editor.name,
        actorEmail: editor.email,
        targetType: 'collection',
        targetLabel: 'Team tools',
        ip: origin.ip,
        userAgent: origin.userAgent,
        before: null,
        after: { name: 'Team tools', description: '', color: null, parentId: null },
        details: { space: 'team' },
      },
    ]);
  });

  it('puts it after the organization’s top-level collections for an administrator', async () => {
    const org = await createOrganization(db);
    const admin = await createUser(db, org.id, { role: 'admin' });
    await createCollection(db, { organizationId: org.id }, { position: 2 });
    await createCollection(db, { team: await createTeam(db, org.id) }, { position: 9 });
    await service.createCollection(callerOf(admin), { name: 'Everyone', spaceId: org.id });
    const [top] = await db
      .select()
      .from(collections)
      .where(and(eq(collections.organizationId, org.id), eq(collections.name, 'Everyone')));
    expect(top).toMatchObject({ ownerType: 'organization', ownerTeamId: null, position: 3 });
    expect(await entriesFor(top!.id)).toMatchObject([{ details: { space: 'organization' } }]);
  });

  const unknown = newId();
  const refused: [string, Role, { parentId?: string; spaceId: string }, number, string][] = [
    [
      'both a parent and a space',
      'teamEditor',
      { parentId: cast.owner.rootId, spaceId: cast.team.id },
      400,
      'body: name either parentId or spaceId, not both',
    ],
    ['an unknown space', 'teamEditor', { spaceId: unknown }, 404, `Space ${unknown} was not found`],
    [
      'a team the editor is not in',
      'teamEditor',
      { spaceId: cast.otherTeam.id },
      404,
      `Space ${cast.otherTeam.id} was not found`,
    ],
    [
      'a team, by someone of another organization',
      'outsider',
      { spaceId: cast.team.id },
      404,
      `Space ${cast.team.id} was not found`,
    ],
    [
      'the organization, by an editor',
      'teamEditor',
      { spaceId: cast.org.id },
      403,
      ORGANIZATION_READ_ONLY,
    ],
    ['a team, by a plain member', 'teamMember', { spaceId: cast.team.id }, 403, READ_ONLY],
  ];
  it.each(refused)(
    'refuses a top-level collection with %s (%s)',
    async (_, role, place, status, message) => {
      const before = await db.select().from(auditLog);
      await expectRefused(
        () => service.createCollection(as(role), { name: 'X', ...place }, origin),
        status,
        message,
      );
      expect(await db.select().from(auditLog)).toHaveLength(before.length);
    },
  );
});

describe('deleting a collection', () => {
  it('deletes it and everything inside it, and nothing else, keeping it to undo', async () => {
    const { own, team } = await createSpaces(db, cast);
    const sibling = await createCollection(db, { user: cast.owner });
    const siblingLink = await createLink(db, sibling);
    const sub = await createCollection(db, { user: cast.owner }, { parentId: own.id });
    const subSub = await createCollection(db, { user: cast.owner }, { parentId: sub.id });
    const sharedInside = await createCollection(db, { user: cast.owner }, { parentId: own.id });
    const share = await createShare(db, cast.owner, sharedInside.id, [cast.member.id]);
    const teamLink = await createLink(db, team);
    const favorite = await createFavorite(db, cast.owner, teamLink.id, sub.id);
    const inside = [
      await createLink(db, own),
      await createLink(db, subSub),
      await createLink(db, sharedInside, { createdBy: cast.member.id }),
    ];

    const ticket = await service.deleteCollection(as('owner'), own.id);

    const after = await snapshot(db);
    const gone = [own.id, sub.id, subSub.id, sharedInside.id];
    expect(after.collections.filter((row) => gone.includes(row.id))).toEqual([]);
    const linkIds = after.links.map((row) => row.id);
    for (const link of inside) expect(linkIds).not.toContain(link.id);
    expect(linkIds).toEqual(expect.arrayContaining([siblingLink.id, teamLink.id]));
    expect(after.favorites.map((row) => row.id)).not.toContain(favorite.id);
    expect(after.shares.map((row) => row.id)).not.toContain(share.id);
    expect(after.members.filter((row) => row.shareId === share.id)).toEqual([]);
    expect(await collectionRow(db, sibling.id)).toBeDefined();
    const [kept] = await db.select().from(undoSnapshots).where(eq(undoSnapshots.id, ticket.id));
    expect(kept).toMatchObject({
      userId: cast.owner.id,
      kind: 'collection',
      targetId: own.id,
      label: own.name,
      expiresAt: ticket.expiresAt,
    });
  });

  it('lets the owner delete a shared collection with its share, kept as a share to undo', async () => {
    const { shared, sharedSub, share } = await createSpaces(db, cast);
    const ticket = await service.deleteCollection(as('owner'), shared.id);
    const after = await snapshot(db);
    expect(after.collections.map((row) => row.id)).not.toContain(sharedSub.id);
    expect(after.shares.map((row) => row.id)).not.toContain(share.id);
    expect(after.members.filter((row) => row.shareId === share.id)).toEqual([]);
    const [kept] = await db.select().from(undoSnapshots).where(eq(undoSnapshots.id, ticket.id));
    expect(kept).toMatchObject({ kind: 'share', targetId: shared.id });
  });

  it('refuses to delete My Space: 409', async () => {
    await expectRefused(
      () => service.deleteCollection(as('owner'), cast.owner.rootId),
      409,
      'My Space cannot be deleted.',
    );
  });

  const cells: [Role, Place, 204 | 404 | Refused][] = [
    ['owner', 'own', 204],
    ['owner', 'sharedSub', 204],
    ['owner', 'colleagues', 404],
    ['owner', 'colleagueRoot', 404],
    ['owner', 'outsiders', 404],
    ['owner', 'otherTeam', 404],
    ['owner', 'otherOrganization', 404],
    ['owner', 'unknown', 404],
    ['owner', 'team', 'team'],
    ['member', 'sharedSub', 'personal'],
    ['colleague', 'own', 404],
    ['teamEditor', 'team', 204],
    ['teamEditor', 'otherTeam', 404],
    ['orgAdmin', 'otherTeam', 204],
    ['teamEditor', 'organization', 'organization'],
    ['teamMember', 'team', 'team'],
    ['outsider', 'own', 404],
  ];
  it.each(cells)('%s deleting %s: %s', async (role, place, outcome) => {
    const id = (await createSpaces(db, cast))[place].id;
    const remove = () => service.deleteCollection(as(role), id);
    if (outcome === 204) {
      await remove();
      expect(await collectionRow(db, id)).toBeUndefined();
    } else if (outcome === 404) {
      await expectRefused(remove, 404, notFound(id));
    } else {
      await expectRefused(remove, 403, REFUSALS[outcome]);
    }
  });
});

describe('the audit entries of team and organization collections', () => {
  it('record a collection added at the top of a space, edited, moved, reordered and deleted', async () => {
    const w = await createWorld(db, cast);
    const admin = as('orgAdmin');
    const name = `Top ${w.spaces.team.id}`;
    await service.createCollection(admin, { name, spaceId: cast.team.id }, origin);
    const [top] = await db.select().from(collections).where(eq(collections.name, name));
    const id = top!.id;
    await service.updateCollection(admin, id, { description: 'Shared tools' }, origin);
    await service.updateCollection(admin, id, { parentId: w.spaces.team.id }, origin);
    const items = [
      { type: 'collection' as const, id },
      { type: 'link' as const, id: w.links.team.id },
      { type: 'collection' as const, id: w.spaces.teamSub.id },
    ];
    await service.orderItems(admin, w.spaces.team.id, { items }, origin);
    await service.deleteCollection(admin, id, origin);

    expect((await entriesFor(id)).map((e) => [e.action, e.before, e.after])).toEqual([
      ['content.collection-created', null, { name, description: '', color: null, parentId: null }],
      ['content.collection-updated', { description: '' }, { description: 'Shared tools' }],
      ['content.collection-moved', { parentId: null }, { parentId: w.spaces.team.id }],
      [
        'content.collection-deleted',
        { name, description: 'Shared tools', color: null, parentId: w.spaces.team.id },
        null,
      ],
    ]);
    expect(await entriesFor(w.spaces.team.id)).toMatchObject([
      {
        action: 'content.collection-reordered',
        actorId: cast.orgAdmin.id,
        before: {
          items: [
            `link:${w.links.team.id}`,
            `collection:${w.spaces.teamSub.id}`,
            `collection:${id}`,
          ],
        },
        after: { items: items.map((item) => `${item.type}:${item.id}`) },
        details: { space: 'team' },
      },
    ]);
  });

  it('record nothing for personal content, nor for a refused change', async () => {
    const w = await createWorld(db, cast);
    await service.updateCollection(as('owner'), w.spaces.own.id, { name: 'Mine' }, origin);
    await expectRefused(
      () => service.updateCollection(as('teamMember'), w.spaces.team.id, { name: 'Nope' }, origin),
      403,
      READ_ONLY,
    );
    expect(await entriesFor(w.spaces.own.id)).toEqual([]);
    expect(await entriesFor(w.spaces.team.id)).toEqual([]);
  });
});
