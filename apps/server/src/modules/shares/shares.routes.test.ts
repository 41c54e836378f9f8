import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { collectionShares, shareMembers } from '../../db/schema/index.ts';
import { createTestApp } from '../../../test/app.ts';
import {
  addTeamMember,
  countRows,
  createCollection,
  createFavorite,
  createLink,
  createOrganization,
  createShare,
  createTeam,
  createUser,
  signIn,
} from '../../../test/factories.ts';

const { app, db } = await createTestApp();
const org = await createOrganization(db);
const otherOrg = await createOrganization(db);

type Headers = Record<string, string>;
const ID = 'x'.repeat(21);

const share = (headers: Headers, payload: unknown) =>
  app.inject({
    method: 'POST',
    url: '/api/consumer/collection-shares',
    headers,
    payload: payload as object,
  });

const sharesOf = (collectionId: string) =>
  db.select().from(collectionShares).where(eq(collectionShares.collectionId, collectionId));

async function membersOf(shareId: string) {
  const rows = await db
    .select({ userId: shareMembers.userId })
    .from(shareMembers)
    .where(eq(shareMembers.shareId, shareId));
  return rows.map((row) => row.userId).sort();
}

/** An owner with a collection to share and two colleagues to share it with. */
async function owner() {
  const user = await createUser(db, org.id);
  const collection = await createCollection(db, { user });
  const ann = await createUser(db, org.id);
  const bob = await createUser(db, org.id);
  const { headers } = await signIn(app, user);
  return { user, collection, ann, bob, headers };
}

describe('POST /api/consumer/collection-shares', () => {
  it('requires authentication', async () => {
    const { collection, ann } = await owner();
    const response = await share({}, { collectionId: collection.id, memberIds: [ann.id] });
    expect(response.statusCode).toBe(401);
    expect(await sharesOf(collection.id)).toHaveLength(0);
  });

  it('shares a collection: the owner and the members become members', async () => {
    const { user, collection, ann, bob, headers } = await owner();
    const response = await share(headers, {
      collectionId: collection.id,
      memberIds: [ann.id, bob.id],
    });
    expect(response.statusCode).toBe(204);
    const rows = await sharesOf(collection.id);
    expect(rows).toEqual([expect.objectContaining({ organizationId: org.id, createdBy: user.id })]);
    expect(await membersOf(rows[0]!.id)).toEqual([user.id, ann.id, bob.id].sort());
  });

  it('takes a trailing slash', async () => {
    const { collection, ann, headers } = await owner();
    const response = await app.inject({
      method: 'POST',
      url: '/api/consumer/collection-shares/',
      headers,
      payload: { collectionId: collection.id, memberIds: [ann.id] },
    });
    expect(response.statusCode).toBe(204);
    expect(await sharesOf(collection.id)).toHaveLength(1);
  });

  it.each([
    ["another person's collection", 404],
    ['a collection of another organization', 404],
    ['a team collection, even as its editor', 403],
    ['an organization collection', 403],
    ['a collection shared with them', 403],
    ['My Space', 409],
    ['a collection shared already', 409],
    ['a collection inside a shared one', 409],
    ['a collection that contains a shared one', 409],
  ] as const)('refuses to share %s with %i, nothing stored', async (what, status) => {
    const { user, ann, headers } = await owner();
    const team = await createTeam(db, org.id);
    await addTeamMember(db, team, user.id, 'editor');
    const theirs = await createCollection(db, { user: ann });
    await createShare(db, ann, theirs.id, [user.id]);
    const sharedOuter = await createCollection(db, { user });
    await createShare(db, user, sharedOuter.id, []);
    const outer = await createCollection(db, { user });
    const deep = await createCollection(db, { user }, { parentId: outer.id });
    const deeper = await createCollection(db, { user }, { parentId: deep.id });
    await createShare(db, user, deeper.id, []);
    const targets: Record<typeof what, string> = {
      "another person's collection": (await createCollection(db, { user: ann })).id,
      'a collection of another organization': (await createUser(db, otherOrg.id)).rootId,
      'a team collection, even as its editor': (await createCollection(db, { team })).id,
      'an organization collection': (await createCollection(db, { organizationId: org.id })).id,
      'a collection shared with them': theirs.id,
      'My Space': user.rootId,
      'a collection shared already': sharedOuter.id,
      'a collection inside a shared one': (
        await createCollection(db, { user }, { parentId: sharedOuter.id })
      ).id,
      'a collection that contains a shared one': outer.id,
    };
    const before = await countRows(db, 'collection_shares');
    const membersBefore = await countRows(db, 'share_members');
    const { bob } = await owner();
    const response = await share(headers, { collectionId: targets[what], memberIds: [bob.id] });
    expect(response.statusCode).toBe(status);
    if (status === 404) expect(response.json().message).toContain(targets[what]);
    if (status === 409) expect(response.json().code).toBe('CONFLICT');
    expect(await countRows(db, 'collection_shares')).toBe(before);
    expect(await countRows(db, 'share_members')).toBe(membersBefore);
  });

  it.each([
    ['an unknown id', async () => ID],
    ['a disabled person', async () => (await createUser(db, org.id, { status: 'disabled' })).id],
    ['a person of another organization', async () => (await createUser(db, otherOrg.id)).id],
    ['the owner', async () => ''],
  ])('refuses %s as a member with 404 naming the id, nothing stored', async (_who, make) => {
    const { user, collection, ann, headers } = await owner();
    const id = (await make()) || user.id;
    const response = await share(headers, { collectionId: collection.id, memberIds: [ann.id, id] });
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toBe(`Person ${id} was not found`);
    expect(await sharesOf(collection.id)).toHaveLength(0);
  });

  it('refuses to share a collection holding favorites, in it or below (favorites are private)', async () => {
    const team = await createTeam(db, org.id);
    const teamLink = await createLink(db, await createCollection(db, { team }));
    for (const where of ['itself', 'below'] as const) {
      const { user, collection, ann, headers } = await owner();
      await addTeamMember(db, team, user.id);
      const place =
        where === 'itself'
          ? collection
          : await createCollection(db, { user }, { parentId: collection.id });
      await createFavorite(db, user, teamLink.id, place.id);
      const response = await share(headers, { collectionId: collection.id, memberIds: [ann.id] });
      expect(response.statusCode, where).toBe(409);
      expect(response.json().message).toMatch(/favorites/i);
      expect(await sharesOf(collection.id)).toEqual([]);
    }
  });

  it('leaves one share when the same request arrives twice at once', async () => {
    const { collection, ann, headers } = await owner();
    const payload = { collectionId: collection.id, memberIds: [ann.id] };
    const responses = await Promise.all([share(headers, payload), share(headers, payload)]);
    expect(responses.map((r) => r.statusCode).sort()).toEqual([204, 409]);
    const rows = await sharesOf(collection.id);
    expect(rows).toHaveLength(1);
    expect(await membersOf(rows[0]!.id)).toHaveLength(2);
  });

  it.each([
    ['a missing collectionId', (m: string[]) => ({ memberIds: m })],
    ['missing memberIds', (_m: string[], c: string) => ({ collectionId: c })],
    ['no members', (_m: string[], c: string) => ({ collectionId: c, memberIds: [] })],
    ['101 members', (_m: string[], c: string) => ({ collectionId: c, memberIds: manyIds(101) })],
    ['a member twice', (m: string[], c: string) => ({ collectionId: c, memberIds: [m[0], m[0]] })],
    ['a member id as a number', (_m: string[], c: string) => ({ collectionId: c, memberIds: [5] })],
    ['a malformed member id', (_m: string[], c: string) => ({ collectionId: c, memberIds: ['a'] })],
    ['memberIds as a string', (m: string[], c: string) => ({ collectionId: c, memberIds: m[0] })],
    ['a malformed collectionId', (m: string[]) => ({ collectionId: 'abc', memberIds: m })],
    ['a number collectionId', (m: string[]) => ({ collectionId: 1, memberIds: m })],
    [
      'an unknown property',
      (m: string[], c: string) => ({ collectionId: c, memberIds: m, createdBy: m[0] }),
    ],
  ])('refuses %s with 400, nothing stored', async (_what, body) => {
    const { collection, ann, headers } = await owner();
    const before = await countRows(db, 'collection_shares');
    const response = await share(headers, body([ann.id], collection.id));
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('VALIDATION_ERROR');
    expect(await countRows(db, 'collection_shares')).toBe(before);
  });
});

/** Distinct well-formed ids. */
function manyIds(n: number) {
  return Array.from({ length: n }, (_, i) => `member${String(i).padStart(15, '0')}`);
}

describe('DELETE /api/consumer/collection-shares/:shareId', () => {
  const remove = (headers: Headers, shareId: string) =>
    app.inject({ method: 'DELETE', url: `/api/consumer/collection-shares/${shareId}`, headers });

  it('requires authentication', async () => {
    const { user, collection, ann } = await owner();
    const { id } = await createShare(db, user, collection.id, [ann.id]);
    expect((await remove({}, id)).statusCode).toBe(401);
    expect(await sharesOf(collection.id)).toHaveLength(1);
  });

  it('deletes the shared collection and everything inside it, and nothing else', async () => {
    const { user, collection, ann, headers } = await owner();
    const { id } = await createShare(db, user, collection.id, [ann.id]);
    const inner = await createCollection(db, { user }, { parentId: collection.id });
    const innermost = await createCollection(db, { user }, { parentId: inner.id });
    await createLink(db, collection, { createdBy: user.id });
    await createLink(db, inner, { createdBy: ann.id });
    await createLink(db, innermost);
    const sibling = await createCollection(db, { user });
    const siblingLink = await createLink(db, sibling);
    const orgLink = await createLink(db, await createCollection(db, { organizationId: org.id }));
    const kept = await createFavorite(db, user, orgLink.id, sibling.id);

    const response = await remove(headers, `${id}/`);
    expect(response.statusCode).toBe(204);
    for (const gone of [collection.id, inner.id, innermost.id]) {
      expect(await countRows(db, 'collections', { column: 'id', value: gone })).toBe(0);
      expect(await countRows(db, 'links', { column: 'collection_id', value: gone })).toBe(0);
    }
    expect(await countRows(db, 'collection_shares', { column: 'id', value: id })).toBe(0);
    expect(await countRows(db, 'share_members', { column: 'share_id', value: id })).toBe(0);
    expect(await countRows(db, 'links', { column: 'id', value: siblingLink.id })).toBe(1);
    expect(await countRows(db, 'favorites', { column: 'id', value: kept.id })).toBe(1);
    expect(await countRows(db, 'collections', { column: 'id', value: user.rootId })).toBe(1);
  });

  it('answers 404 for an unknown share and 400 for a malformed id', async () => {
    const { headers } = await owner();
    expect((await remove(headers, ID)).statusCode).toBe(404);
    expect((await remove(headers, 'x'.repeat(20))).statusCode).toBe(400);
  });
});
