// Bookmarks in and out (decision 0087), at the service: the preview writes nothing and says
// what will be refused and what is there already; the import is one transaction that keeps
// the tree and its order, same-named folders apart; undo takes it away unless something was
// added since; who may import where; folders too deep are flattened; an export of a place
// reads back into the same tree.
import { and, asc, eq, isNull } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { ExportItem } from './formats/export-tree.ts';
import { auditLog, collections, links } from '../../db/schema/index.ts';
import { MAX_DEPTH } from '../access/permissions.ts';
import { createTestServices } from '../../../test/app.ts';
import {
  addTeamMember,
  createCollection,
  createLink,
  createOrganization,
  createTeam,
  createUser,
  type TestUser,
} from '../../../test/factories.ts';
import { callerOf } from '../../../test/support/callers.ts';
import { expectServiceRefused } from '../../../test/support/refused.ts';

const { services, db } = await createTestServices();
const { bookmarks } = services;
const org = await createOrganization(db, { name: 'Acme' });
const ORIGIN = { ip: '10.1.2.3', userAgent: 'Browser' };

/** A Netscape bookmark file with these lines inside its top list. */
const netscape = (body: string, title = 'Bookmarks') =>
  `<!DOCTYPE NETSCAPE-Bookmark-file-1>
<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">
<TITLE>${title}</TITLE>
<H1>${title}</H1>
<DL><p>
${body}
</DL><p>
`;

const FILE = netscape(`
    <DT><H3 PERSONAL_TOOLBAR_FOLDER="true">Bookmarks bar</H3>
    <DL><p>
        <DT><A HREF="https://wiki.example.com/" ADD_DATE="1700000000">Wiki</A>
        <DT><H3>Tools</H3>
        <DL><p>
            <DT><A HREF="https://ci.example.com/" SHORTCUTURL="ci">CI</A>
            <DD>Builds and deployments
            <DT><A HREF="javascript:alert(1)">Evil</A>
        </DL><p>
        <DT><A HREF="https://docs.example.com/">Docs</A>
    </DL><p>
    <DT><H3>Other</H3>
    <DL><p>
        <DT><H3>Tools</H3>
        <DL><p>
            <DT><A HREF="https://status.example.com/">Status</A>
        </DL><p>
    </DL><p>
`);

/** A collection's items as `name` (links) and `[name]` (collections), in order, nested. */
async function shape(collectionId: string): Promise<unknown[]> {
  const subs = await db
    .select()
    .from(collections)
    .where(eq(collections.parentId, collectionId))
    .orderBy(asc(collections.position));
  const own = await db
    .select()
    .from(links)
    .where(eq(links.collectionId, collectionId))
    .orderBy(asc(links.position));
  const items: { at: number; value: unknown }[] = [
    ...own.map((l) => ({ at: l.position, value: l.name })),
    ...(await Promise.all(
      subs.map(async (c) => ({ at: c.position, value: { [c.name]: await shape(c.id) } })),
    )),
  ];
  return items.sort((a, b) => a.at - b.at).map((item) => item.value);
}

async function topCollection(user: TestUser, name: string) {
  const [row] = await db
    .select()
    .from(collections)
    .where(and(eq(collections.parentId, user.rootId), eq(collections.name, name)));
  return row!;
}

const TARGET_NEW = { into: 'new' as const };

describe('the preview', () => {
  it('counts, names the top folders, lists what is refused and what is there already, and writes nothing', async () => {
    const user = await createUser(db, org.id);
    const me = callerOf(user);
    const kept = await createCollection(db, { user }, { name: 'Kept' });
    await createLink(db, kept, { name: 'Our docs', url: 'https://docs.example.com/' });
    const preview = await bookmarks.preview(me, { file: FILE, target: TARGET_NEW });
    expect(preview).toMatchObject({
      format: 'netscape',
      targetName: 'Bookmarks',
      links: 4,
      folders: 4,
      depth: 2,
      topFolders: [
        { name: 'Bookmarks bar', links: 3, folders: 1 },
        { name: 'Other', links: 1, folders: 1 },
      ],
      duplicateCount: 1,
      duplicates: [
        {
          path: 'Bookmarks bar',
          name: 'Docs',
          url: 'https://docs.example.com/',
          existing: { name: 'Our docs', collectionName: 'Kept' },
        },
      ],
      refusedCount: 1,
      refused: [
        {
          path: 'Bookmarks bar > Tools',
          name: 'Evil',
          url: 'javascript:alert(1)',
          reason: 'The address must be an http, https or mailto address.',
        },
      ],
      notices: [],
    });
    expect(await shape(user.rootId)).toEqual([{ Kept: ['Our docs'] }]);
  });

  it.each([
    ['prose', 'Dear team, here are the links.', /^This is not a bookmark file/],
    ['a cut file', FILE.slice(0, FILE.length / 2), /ends in the middle/],
    [
      'invalid UTF-8',
      netscape('<DT><A HREF="https://a.example/">Caf\uFFFD</A>'),
      /not valid UTF-8/,
    ],
  ])('refuses %s in words, writing nothing', async (_, file, message) => {
    const user = await createUser(db, org.id);
    await expectServiceRefused(
      db,
      () =>
        bookmarks.import(callerOf(user), { file, target: TARGET_NEW, duplicates: 'keep' }, ORIGIN),
      400,
      message,
    );
  });
});

describe('importing', () => {
  it('makes a new collection in My Space with the tree in order, same-named folders apart, keywords kept', async () => {
    const user = await createUser(db, org.id);
    const me = callerOf(user);
    const result = await bookmarks.import(
      me,
      { file: FILE, target: TARGET_NEW, duplicates: 'keep' },
      ORIGIN,
    );
    expect(result).toMatchObject({ links: 4, folders: 4, skipped: 0, refusedCount: 1 });
    const top = await topCollection(user, 'Bookmarks');
    expect(result.collectionId).toBe(top.id);
    expect(await shape(top.id)).toEqual([
      { 'Bookmarks bar': ['Wiki', { Tools: ['CI'] }, 'Docs'] },
      { Other: [{ Tools: ['Status'] }] },
    ]);
    const [ci] = await db.select().from(links).where(eq(links.name, 'CI'));
    expect(ci).toMatchObject({
      keyword: 'ci',
      description: 'Builds and deployments',
      createdBy: user.id,
    });
  });

  it('goes into an existing collection after what it holds, leaving duplicates out when asked', async () => {
    const user = await createUser(db, org.id);
    const target = await createCollection(db, { user }, { name: 'Work' });
    await createLink(db, target, { name: 'First', url: 'https://wiki.example.com/' });
    const result = await bookmarks.import(
      callerOf(user),
      { file: FILE, target: { into: 'collection', collectionId: target.id }, duplicates: 'skip' },
      ORIGIN,
    );
    expect(result).toMatchObject({ collectionId: target.id, links: 3, skipped: 1 });
    expect(await shape(target.id)).toEqual([
      'First',
      { 'Bookmarks bar': [{ Tools: ['CI'] }, 'Docs'] },
      { Other: [{ Tools: ['Status'] }] },
    ]);
  });

  it(`flattens folders deeper than collections nest (${MAX_DEPTH} levels), and says so`, async () => {
    const user = await createUser(db, org.id);
    let body = '<DT><A HREF="https://deepest.example/">Deepest</A>';
    for (let level = 15; level >= 1; level -= 1) {
      body = `<DT><H3>Level ${level}</H3>\n<DL><p>\n${body}\n</DL><p>`;
    }
    const file = netscape(body, 'Deep');
    const preview = await bookmarks.preview(callerOf(user), { file, target: TARGET_NEW });
    expect(preview.depth).toBe(MAX_DEPTH - 1);
    expect(preview.notices).toEqual([
      '6 folders lie deeper than collections may nest here: their links go into the folder above.',
    ]);
    await bookmarks.import(
      callerOf(user),
      { file, target: TARGET_NEW, duplicates: 'keep' },
      ORIGIN,
    );
    const depth = await services.access.depthOf(
      db,
      (await db.select().from(links).where(eq(links.url, 'https://deepest.example/')))[0]!
        .collectionId,
    );
    expect(depth).toBe(MAX_DEPTH);
  });

  it('lets the people who run a team space import into it (audited), and no one else', async () => {
    const editor = await createUser(db, org.id);
    const member = await createUser(db, org.id);
    const team = await createTeam(db, org.id);
    await addTeamMember(db, team, editor.id, 'editor');
    await addTeamMember(db, team, member.id);
    await expectServiceRefused(
      db,
      () =>
        bookmarks.import(
          callerOf(member),
          { file: FILE, target: { into: 'new', spaceId: team.id }, duplicates: 'keep' },
          ORIGIN,
        ),
      403,
      /./,
    );
    const result = await bookmarks.import(
      callerOf(editor),
      { file: FILE, target: { into: 'new', spaceId: team.id }, duplicates: 'keep' },
      ORIGIN,
    );
    const [top] = await db
      .select()
      .from(collections)
      .where(and(eq(collections.ownerTeamId, team.id), isNull(collections.parentId)));
    expect(top).toMatchObject({ id: result.collectionId, name: 'Bookmarks', ownerType: 'team' });
    const [entry] = await db
      .select()
      .from(auditLog)
      .where(
        and(eq(auditLog.action, 'content.bookmarks-imported'), eq(auditLog.targetId, top!.id)),
      );
    expect(entry!.after).toEqual({
      format: 'netscape',
      links: 4,
      collections: 4,
      newCollection: true,
    });
  });
});

describe('undoing an import', () => {
  it('takes away everything it made, and only that', async () => {
    const user = await createUser(db, org.id);
    const target = await createCollection(db, { user }, { name: 'Work' });
    await createLink(db, target, { name: 'Mine' });
    const me = callerOf(user);
    const result = await bookmarks.import(
      me,
      { file: FILE, target: { into: 'collection', collectionId: target.id }, duplicates: 'keep' },
      ORIGIN,
    );
    await services.undo.undo(me, result.undo.id, ORIGIN);
    expect(await shape(target.id)).toEqual(['Mine']);
  });

  it('refuses once something was added into what it made (409), taking nothing', async () => {
    const user = await createUser(db, org.id);
    const me = callerOf(user);
    const result = await bookmarks.import(
      me,
      { file: FILE, target: TARGET_NEW, duplicates: 'keep' },
      ORIGIN,
    );
    await createLink(
      db,
      { id: result.collectionId, organizationId: org.id },
      { name: 'Added later' },
    );
    await expectServiceRefused(
      db,
      () => services.undo.undo(me, result.undo.id, ORIGIN),
      409,
      /something was added to the imported collections since/,
    );
  });
});

describe('exporting', () => {
  /** The tree of an export without what a new import changes: ids and dates. */
  const anonymous = (items: ExportItem[]): unknown =>
    items.map((item) =>
      item.type === 'link'
        ? { ...item, id: undefined, addedAt: undefined }
        : { ...item, id: undefined, items: anonymous(item.items) },
    );
  const text = async (chunks: Iterable<string>) => [...chunks].join('');

  it('gives back the same tree in Signpost’s JSON after an import of its own export', async () => {
    const user = await createUser(db, org.id);
    const me = callerOf(user);
    const first = await bookmarks.import(
      me,
      { file: FILE, target: TARGET_NEW, duplicates: 'keep' },
      ORIGIN,
    );
    const exported = await bookmarks.export(me, {
      format: 'json',
      collectionId: first.collectionId,
    });
    expect(exported.fileName).toBe('Bookmarks.json');
    const json = await text(exported.chunks);
    const again = await bookmarks.import(
      me,
      { file: json, target: TARGET_NEW, duplicates: 'keep' },
      ORIGIN,
    );
    const second = JSON.parse(
      await text(
        (await bookmarks.export(me, { format: 'json', collectionId: again.collectionId })).chunks,
      ),
    ) as { items: ExportItem[] };
    expect(anonymous(second.items)).toEqual(
      anonymous((JSON.parse(json) as { items: ExportItem[] }).items),
    );
  });

  it('exports what the person sees only: 404 for another person’s collection and a team they are not in', async () => {
    const user = await createUser(db, org.id);
    const other = await createUser(db, org.id);
    const theirs = await createCollection(db, { user: other });
    const team = await createTeam(db, org.id);
    await expect(
      bookmarks.export(callerOf(user), { format: 'netscape', collectionId: theirs.id }),
    ).rejects.toMatchObject({ statusCode: 404 });
    await expect(
      bookmarks.export(callerOf(user), { format: 'netscape', space: team.id }),
    ).rejects.toMatchObject({ statusCode: 404 });
    const admin = await createUser(db, org.id, { role: 'admin' });
    const file = await bookmarks.export(callerOf(admin), { format: 'managed', space: team.id });
    expect(JSON.parse(await text(file.chunks))).toEqual([{ toplevel_name: team.name }]);
  });
});
