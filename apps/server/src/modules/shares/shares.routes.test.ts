// The routes of sharing a collection and deleting a share: the answer each kind of outcome
// gets, the refused bodies and the undo headers. Who may share what, what a share writes and
// why one is refused are tested against the service (shares.service.test.ts).
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { UNDO_HEADERS } from '@signpost/contract';
import { collectionShares } from '../../db/schema/index.ts';
import { createTestApp } from '../../../test/app.ts';
import {
  addTeamMember,
  countRows,
  createCollection,
  createOrganization,
  createShare,
  createTeam,
  createUser,
  signIn,
} from '../../../test/factories.ts';

const { app, db } = await createTestApp();
const org = await createOrganization(db);

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
    ["another person's collection", 404, 'NOT_FOUND'],
    ['a team collection, even as its editor', 403, 'FORBIDDEN'],
    ['My Space', 409, 'CONFLICT'],
  ] as const)('refuses to share %s with %i, nothing stored', async (what, status, code) => {
    const { user, ann, bob, headers } = await owner();
    const team = await createTeam(db, org.id);
    await addTeamMember(db, team, user.id, 'editor');
    const targets: Record<typeof what, string> = {
      "another person's collection": (await createCollection(db, { user: ann })).id,
      'a team collection, even as its editor': (await createCollection(db, { team })).id,
      'My Space': user.rootId,
    };
    const before = await countRows(db, 'collection_shares');
    const membersBefore = await countRows(db, 'share_members');
    const response = await share(headers, { collectionId: targets[what], memberIds: [bob.id] });
    expect(response.statusCode).toBe(status);
    expect(response.json()).toMatchObject({ code, message: expect.any(String) });
    if (status === 404) expect(response.json().message).toContain(targets[what]);
    expect(await countRows(db, 'collection_shares')).toBe(before);
    expect(await countRows(db, 'share_members')).toBe(membersBefore);
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

  it('answers 204 naming the undo ticket in its headers, and the collection is gone', async () => {
    const { user, collection, ann, headers } = await owner();
    const { id } = await createShare(db, user, collection.id, [ann.id]);
    const response = await remove(headers, `${id}/`);
    expect(response.statusCode).toBe(204);
    expect(response.headers[UNDO_HEADERS.id]).toEqual(expect.any(String));
    expect(Date.parse(String(response.headers[UNDO_HEADERS.expires]))).toBeGreaterThan(Date.now());
    expect(await countRows(db, 'collections', { column: 'id', value: collection.id })).toBe(0);
  });

  it('answers 403 to a member who is not the owner, nothing deleted', async () => {
    const { user, collection, ann } = await owner();
    const { id } = await createShare(db, user, collection.id, [ann.id]);
    const response = await remove((await signIn(app, ann)).headers, id);
    expect(response.statusCode).toBe(403);
    expect(response.json().code).toBe('FORBIDDEN');
    expect(await sharesOf(collection.id)).toHaveLength(1);
  });

  it('answers 404 for an unknown share and 400 for a malformed id', async () => {
    const { headers } = await owner();
    expect((await remove(headers, ID)).statusCode).toBe(404);
    expect((await remove(headers, 'x'.repeat(20))).statusCode).toBe(400);
  });
});
