// Team and organization content changed in place by the people who run the space
// (decision 0008): each change is in the audit log, with its before and after values, and a
// refused one leaves no entry. The permission table (test/permissions.test.ts) holds the
// cells of who may; this file follows the changes and their entries.
import { and, asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, collections } from '../../db/schema/index.ts';
import { createTestApp } from '../../../test/app.ts';
import { collectionRow, linkRow } from '../../../test/support/rows.ts';
import { createSignedInCast, createWorld, type Person } from '../../../test/support/world.ts';

const { app, db } = await createTestApp();
const cast = await createSignedInCast(app, db);
const c = '/api/consumer';

const send = (
  person: Person,
  method: 'POST' | 'PATCH' | 'PUT' | 'DELETE',
  url: string,
  payload?: object,
) =>
  app.inject({
    method,
    url: `${c}${url}`,
    headers: { ...person.headers, 'user-agent': 'content-test' },
    ...(payload ? { payload } : {}),
  });

/** The audit entries about one target, oldest first. */
const entriesFor = (targetId: string) =>
  db
    .select()
    .from(auditLog)
    .where(eq(auditLog.targetId, targetId))
    .orderBy(asc(auditLog.occurredAt));

describe('team content edited in place, and its audit entries', () => {
  it('records a link added, edited, moved and deleted by an editor, with who and from where', async () => {
    const w = await createWorld(db, cast);
    const editor = cast.teamEditor;
    const added = await send(editor, 'POST', `/collections/${w.spaces.team.id}/links`, {
      name: 'Wiki',
      url: 'wiki.example.com',
    });
    expect(added.statusCode).toBe(204);
    const [created] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'content.link-created'), eq(auditLog.actorId, editor.id)));
    expect(created).toMatchObject({
      organizationId: cast.org.id,
      actorName: editor.name,
      actorEmail: editor.email,
      targetType: 'link',
      targetLabel: 'Wiki',
      userAgent: 'content-test',
      ip: expect.any(String),
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
    expect(await linkRow(db, id)).toMatchObject({ collectionId: w.spaces.team.id });

    expect((await send(editor, 'PATCH', `/links/${id}`, { name: 'Team wiki' })).statusCode).toBe(
      204,
    );
    expect(
      (await send(editor, 'PUT', `/links/${id}/collection`, { collectionId: w.spaces.teamSub.id }))
        .statusCode,
    ).toBe(204);
    expect((await send(editor, 'DELETE', `/links/${id}`)).statusCode).toBe(204);
    expect(await linkRow(db, id)).toBeUndefined();

    const entries = await entriesFor(id);
    expect(entries.map((e) => [e.action, e.before, e.after])).toEqual([
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

  it('records collections added at the top of a space, edited, moved, reordered and deleted', async () => {
    const w = await createWorld(db, cast);
    const admin = cast.orgAdmin;
    const name = `Top ${w.spaces.team.id}`;
    expect(
      (await send(admin, 'POST', '/collections', { name, spaceId: cast.team.id })).statusCode,
    ).toBe(204);
    const [top] = await db.select().from(collections).where(eq(collections.name, name));
    expect(top).toMatchObject({
      ownerType: 'team',
      ownerTeamId: cast.team.id,
      ownerUserId: null,
      parentId: null,
      createdBy: admin.id,
    });
    const id = top!.id;
    expect(
      (await send(admin, 'PATCH', `/collections/${id}`, { description: 'Shared tools' }))
        .statusCode,
    ).toBe(204);
    expect(
      (await send(admin, 'PATCH', `/collections/${id}`, { parentId: w.spaces.team.id })).statusCode,
    ).toBe(204);
    expect(await collectionRow(db, id)).toMatchObject({ parentId: w.spaces.team.id });
    const order = [
      { type: 'collection', id },
      { type: 'link', id: w.links.team.id },
      { type: 'collection', id: w.spaces.teamSub.id },
    ];
    expect(
      (await send(admin, 'PUT', `/collections/${w.spaces.team.id}/order`, { items: order }))
        .statusCode,
    ).toBe(204);
    expect((await send(admin, 'DELETE', `/collections/${id}`)).statusCode).toBe(204);

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
    const [reordered] = await entriesFor(w.spaces.team.id);
    expect(reordered).toMatchObject({
      action: 'content.collection-reordered',
      after: { items: order.map((item) => `${item.type}:${item.id}`) },
    });
  });

  it('records nothing for personal content, nor for a refused change', async () => {
    const w = await createWorld(db, cast);
    expect(
      (await send(cast.owner, 'PATCH', `/collections/${w.spaces.own.id}`, { name: 'Mine' }))
        .statusCode,
    ).toBe(204);
    expect(
      (await send(cast.teamMember, 'PATCH', `/links/${w.links.team.id}`, { name: 'Nope' }))
        .statusCode,
    ).toBe(403);
    expect(
      (
        await send(cast.teamEditor, 'PUT', `/links/${w.links.team.id}/collection`, {
          collectionId: cast.teamEditor.rootId,
        })
      ).statusCode,
    ).toBe(409);
    expect(await entriesFor(w.spaces.own.id)).toEqual([]);
    expect(await entriesFor(w.links.team.id)).toEqual([]);
    expect(await linkRow(db, w.links.team.id)).toMatchObject({ collectionId: w.spaces.team.id });
  });

  it('refuses a personal collection moved into a team, and a team one into a personal one', async () => {
    const w = await createWorld(db, cast);
    const intoTeam = await send(cast.teamEditor, 'POST', '/collections', {
      name: 'Mine',
      parentId: cast.teamEditor.rootId,
    });
    expect(intoTeam.statusCode).toBe(204);
    const [mine] = await db
      .select()
      .from(collections)
      .where(and(eq(collections.ownerUserId, cast.teamEditor.id), eq(collections.name, 'Mine')));
    const moved = await send(cast.teamEditor, 'PATCH', `/collections/${mine!.id}`, {
      parentId: w.spaces.team.id,
    });
    expect(moved.statusCode).toBe(409);
    expect(moved.json().message).toMatch(/stays in its own space/);
    const out = await send(cast.teamEditor, 'PATCH', `/collections/${w.spaces.teamSub.id}`, {
      parentId: mine!.id,
    });
    expect(out.statusCode).toBe(409);
    expect(await collectionRow(db, w.spaces.teamSub.id)).toMatchObject({
      parentId: w.spaces.team.id,
    });
  });

  // A top-level collection names its space instead of a parent.
  const spaceCells: [
    string,
    (w: { team: string; other: string; org: string }) => object,
    Person,
    number,
  ][] = [
    [
      'both a parent and a space',
      (s) => ({ name: 'X', spaceId: s.team, parentId: s.team }),
      cast.teamEditor,
      400,
    ],
    ['a malformed space id', () => ({ name: 'X', spaceId: 'nope' }), cast.teamEditor, 400],
    ['an unknown space', () => ({ name: 'X', spaceId: 'A'.repeat(21) }), cast.teamEditor, 404],
    ['a team the editor is not in', (s) => ({ name: 'X', spaceId: s.other }), cast.teamEditor, 404],
    [
      'the organization, by an editor',
      (s) => ({ name: 'X', spaceId: s.org }),
      cast.teamEditor,
      403,
    ],
    ['a team, by a plain member', (s) => ({ name: 'X', spaceId: s.team }), cast.teamMember, 403],
    [
      'a team, by a person of another organization',
      (s) => ({ name: 'X', spaceId: s.team }),
      cast.outsider,
      404,
    ],
    ['a blank name', (s) => ({ name: '  ', spaceId: s.team }), cast.teamEditor, 400],
    [
      'an unknown property',
      (s) => ({ name: 'X', spaceId: s.team, ownerType: 'team' }),
      cast.teamEditor,
      400,
    ],
  ];
  it.each(spaceCells)(
    'refuses a top-level collection with %s (%i), storing nothing',
    async (_, body, person, status) => {
      const before = await db.select().from(collections);
      const response = await send(
        person,
        'POST',
        '/collections',
        body({ team: cast.team.id, other: cast.otherTeam.id, org: cast.org.id }),
      );
      expect(response.statusCode).toBe(status);
      expect(await db.select().from(collections)).toHaveLength(before.length);
    },
  );
});
