// The routes of a share's members: the answer each kind of outcome gets, the refused bodies
// and the undo headers of leaving. Who may add or remove whom, and what each change writes,
// are tested against the service (shares.service.test.ts).
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { UNDO_HEADERS } from '@signpost/contract';
import { shareMembers } from '../../db/schema/index.ts';
import { createTestApp } from '../../../test/app.ts';
import {
  createCollection,
  createOrganization,
  createShare,
  createUser,
  signIn,
} from '../../../test/factories.ts';

const { app, db } = await createTestApp();
const org = await createOrganization(db);

type Headers = Record<string, string>;
const ID = 'x'.repeat(21);

async function membersOf(shareId: string) {
  const rows = await db
    .select({ userId: shareMembers.userId })
    .from(shareMembers)
    .where(eq(shareMembers.shareId, shareId));
  return rows.map((row) => row.userId).sort();
}

/** A share of `owner` with `ann` as member; `bob` and `cid` are colleagues outside it. */
async function sharedCollection() {
  const owner = await createUser(db, org.id);
  const ann = await createUser(db, org.id);
  const bob = await createUser(db, org.id);
  const cid = await createUser(db, org.id);
  const collection = await createCollection(db, { user: owner });
  const { id } = await createShare(db, owner, collection.id, [ann.id]);
  const headers = (await signIn(app, owner)).headers;
  return { owner, ann, bob, cid, shareId: id, headers };
}

const headersOf = async (user: { email: string }) => (await signIn(app, user)).headers;

describe('POST /api/consumer/collection-shares/:shareId/members', () => {
  const add = (headers: Headers, shareId: string, payload: unknown) =>
    app.inject({
      method: 'POST',
      url: `/api/consumer/collection-shares/${shareId}/members`,
      headers,
      payload: payload as object,
    });

  it('requires authentication', async () => {
    const { owner, ann, bob, shareId } = await sharedCollection();
    expect((await add({}, shareId, { memberIds: [bob.id] })).statusCode).toBe(401);
    expect(await membersOf(shareId)).toEqual([owner.id, ann.id].sort());
  });

  it('lets the owner add people', async () => {
    const { owner, ann, bob, cid, shareId, headers } = await sharedCollection();
    const response = await app.inject({
      method: 'POST',
      url: `/api/consumer/collection-shares/${shareId}/members/`,
      headers,
      payload: { memberIds: [bob.id, cid.id] },
    });
    expect(response.statusCode).toBe(204);
    expect(await membersOf(shareId)).toEqual([owner.id, ann.id, bob.id, cid.id].sort());
  });

  it('refuses an unknown person with 404 naming the id, nobody added', async () => {
    const { owner, ann, bob, shareId, headers } = await sharedCollection();
    const response = await add(headers, shareId, { memberIds: [bob.id, ID] });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({
      code: 'NOT_FOUND',
      message: `Person ${ID} was not found`,
    });
    expect(await membersOf(shareId)).toEqual([owner.id, ann.id].sort());
  });

  it('refuses someone already a member with 409, nobody added', async () => {
    const { owner, ann, bob, shareId, headers } = await sharedCollection();
    const response = await add(headers, shareId, { memberIds: [bob.id, ann.id] });
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toContain(ann.id);
    expect(await membersOf(shareId)).toEqual([owner.id, ann.id].sort());
  });

  it.each([
    ['missing memberIds', {}],
    ['no members', { memberIds: [] }],
    [
      '101 members',
      { memberIds: Array.from({ length: 101 }, (_, i) => `m${String(i).padStart(20, '0')}`) },
    ],
    ['a member twice', 'twice'],
    ['a number id', { memberIds: [42] }],
    ['a malformed id', { memberIds: ['../../etc'] }],
    ['null', { memberIds: null }],
    ['an unknown property', { memberIds: [ID], role: 'owner' }],
  ])('refuses %s with 400, nobody added', async (_what, payload) => {
    const { owner, ann, bob, shareId, headers } = await sharedCollection();
    const body = payload === 'twice' ? { memberIds: [bob.id, bob.id] } : payload;
    const response = await add(headers, shareId, body);
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('VALIDATION_ERROR');
    expect(await membersOf(shareId)).toEqual([owner.id, ann.id].sort());
  });

  it('answers 404 for an unknown share and 400 for a malformed one', async () => {
    const { bob, headers } = await sharedCollection();
    expect((await add(headers, ID, { memberIds: [bob.id] })).statusCode).toBe(404);
    expect((await add(headers, 'short', { memberIds: [bob.id] })).statusCode).toBe(400);
  });
});

describe('DELETE /api/consumer/collection-shares/:shareId/members/:memberId', () => {
  const remove = (headers: Headers, shareId: string, memberId: string) =>
    app.inject({
      method: 'DELETE',
      url: `/api/consumer/collection-shares/${shareId}/members/${memberId}`,
      headers,
    });

  it('requires authentication', async () => {
    const { owner, ann, shareId } = await sharedCollection();
    expect((await remove({}, shareId, ann.id)).statusCode).toBe(401);
    expect(await membersOf(shareId)).toEqual([owner.id, ann.id].sort());
  });

  it('lets the owner remove a member', async () => {
    const { owner, ann, shareId, headers } = await sharedCollection();
    const response = await remove(headers, shareId, `${ann.id}/`);
    expect(response.statusCode).toBe(204);
    expect(response.headers[UNDO_HEADERS.id]).toBeUndefined();
    expect(await membersOf(shareId)).toEqual([owner.id]);
  });

  it('lets a member leave with their own id: 204 naming the undo ticket in its headers', async () => {
    const { owner, ann, shareId } = await sharedCollection();
    const response = await remove(await headersOf(ann), shareId, ann.id);
    expect(response.statusCode).toBe(204);
    expect(response.headers[UNDO_HEADERS.id]).toEqual(expect.any(String));
    expect(Date.parse(String(response.headers[UNDO_HEADERS.expires]))).toBeGreaterThan(Date.now());
    expect(await membersOf(shareId)).toEqual([owner.id]);
  });

  it('refuses the owner leaving their own share with 409', async () => {
    const { owner, ann, shareId, headers } = await sharedCollection();
    const response = await remove(headers, shareId, owner.id);
    expect(response.statusCode).toBe(409);
    expect(response.json().code).toBe('CONFLICT');
    expect(await membersOf(shareId)).toEqual([owner.id, ann.id].sort());
  });

  it('refuses a member removing someone else with 403', async () => {
    const { owner, ann, shareId } = await sharedCollection();
    const response = await remove(await headersOf(ann), shareId, owner.id);
    expect(response.statusCode).toBe(403);
    expect(response.json().code).toBe('FORBIDDEN');
    expect(await membersOf(shareId)).toEqual([owner.id, ann.id].sort());
  });

  it('answers 404 for an unknown share and 400 for malformed ids', async () => {
    const { ann, shareId, headers } = await sharedCollection();
    expect((await remove(headers, ID, ann.id)).statusCode).toBe(404);
    expect((await remove(headers, 'bad', ann.id)).statusCode).toBe(400);
    expect((await remove(headers, shareId, 'bad')).statusCode).toBe(400);
  });
});
