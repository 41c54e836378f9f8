import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { linkSuggestions, users } from '../../db/schema/index.ts';
import { newId } from '../../lib/ids.ts';
import { createTestApp } from '../../../test/app.ts';
import { adminCall, expectAdminRefused } from '../../../test/support/admin-call.ts';
import {
  createPerson,
  createSignedInCast,
  createSpaces,
  type Role,
} from '../../../test/support/world.ts';

const { app, db } = await createTestApp();
const cast = await createSignedInCast(app, db);
const disabled = await createPerson(app, db, cast.org.id, 'admin');
await db.update(users).set({ status: 'disabled' }).where(eq(users.id, disabled.id));

type Who = Role | 'disabled' | null;
const as = (who: Who) => (who === 'disabled' ? disabled : who ? cast[who] : null);

/** A suggestion made through the portal's own call, by `who`. */
async function suggest(collectionId: string, who: Role = 'teamMember', name = `Wiki ${newId()}`) {
  const answer = await app.inject({
    method: 'POST',
    url: `/api/consumer/collections/${collectionId}/suggestions`,
    headers: cast[who].headers,
    payload: { name, url: 'wiki.example.com', description: 'Our wiki' },
  });
  expect(answer.statusCode).toBe(204);
  const [row] = await db
    .select()
    .from(linkSuggestions)
    .where(and(eq(linkSuggestions.collectionId, collectionId), eq(linkSuggestions.name, name)));
  return row!;
}
const accept = (id: string, who: Who, body: unknown = {}) =>
  adminCall(app, 'POST', `/suggestions/${id}/accept`, as(who), body);
const decline = (id: string, who: Who, body: unknown = {}) =>
  adminCall(app, 'POST', `/suggestions/${id}/decline`, as(who), body);
const list = (who: Who, query = '') => adminCall(app, 'GET', `/suggestions${query}`, as(who));
// Who may decide, what accepting and declining write, the lists and their pages are tested
// against the service (suggestions.service.test.ts); here, the answer each kind of outcome
// gets and the refused bodies.
describe('answers of the suggestions calls', () => {
  // [who, the status of accept and decline on a suggestion to the team].
  const cells: [Who, number][] = [
    [null, 401],
    ['disabled', 401],
    ['teamMember', 403],
    ['outsider', 404],
    ['teamEditor', 200],
  ];
  it.each(cells)('%s: accept and decline answer %i', async (who, status) => {
    const spaces = await createSpaces(db, cast);
    for (const decide of [accept, decline]) {
      const row = await suggest(spaces.team.id);
      if (status === 200) {
        const answer = await decide(row.id, who);
        expect(answer.statusCode, answer.body).toBe(200);
        expect(answer.json()).toMatchObject({ id: row.id, status: expect.any(String) });
      } else {
        const answer = await expectAdminRefused(db, () => decide(row.id, who), status);
        expect(answer.code).toBe(
          { 401: 'UNAUTHORIZED', 403: 'FORBIDDEN', 404: 'NOT_FOUND' }[status as 401 | 403 | 404],
        );
      }
    }
  });

  it.each([
    [null, 401],
    ['disabled', 401],
    ['teamMember', 403],
  ] as [Who, number][])('%s may not list: %i', async (who, status) => {
    await expectAdminRefused(db, () => list(who), status);
  });

  it('lists with 200 and a page', async () => {
    const spaces = await createSpaces(db, cast);
    await suggest(spaces.team.id);
    await suggest(spaces.team.id);
    const answer = await list('orgAdmin', '?limit=1');
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({
      items: [expect.objectContaining({ status: 'open' })],
      next: expect.any(String),
    });
  });

  it('answers deciding twice with 409 and its reason', async () => {
    const spaces = await createSpaces(db, cast);
    const row = await suggest(spaces.team.id);
    expect((await decline(row.id, 'teamEditor')).statusCode).toBe(200);
    const again = await expectAdminRefused(db, () => accept(row.id, 'orgAdmin'), 409);
    expect(again).toMatchObject({
      code: 'CONFLICT',
      message: expect.stringContaining('already declined'),
    });
  });
});

describe('refused bodies', () => {
  const bad: [string, string, unknown][] = [
    ['accept', 'unknown property', { color: 'red' }],
    ['accept', 'blank name', { name: '  ' }],
    ['accept', 'name too long', { name: 'x'.repeat(201) }],
    ['accept', 'url a number', { url: 5 }],
    ['accept', 'url empty', { url: '' }],
    ['accept', 'hostile url', { url: 'data:text/html,<script>alert(1)</script>' }],
    ['accept', 'NUL in the description', { description: 'a\u0000b' }],
    ['decline', 'reason too long', { reason: 'x'.repeat(501) }],
    ['decline', 'reason a number', { reason: 1 }],
    ['decline', 'unknown property', { why: 'no' }],
  ];
  it.each(bad)('%s: %s is 400, nothing changed', async (what, _label, body) => {
    const spaces = await createSpaces(db, cast);
    const row = await suggest(spaces.team.id);
    await expectAdminRefused(
      db,
      () => (what === 'accept' ? accept : decline)(row.id, 'orgAdmin', body),
      400,
    );
  });
});

describe('GET /api/consumer/suggestions', () => {
  it("answers the person's own suggestions with 200, without who decided", async () => {
    const person = await createPerson(app, db, cast.org.id);
    const spaces = await createSpaces(db, cast);
    const name = `own-${newId()}`;
    const asked = await app.inject({
      method: 'POST',
      url: `/api/consumer/collections/${spaces.organization.id}/suggestions`,
      headers: person.headers,
      payload: { name, url: 'https://example.com/' + name },
    });
    expect(asked.statusCode).toBe(204);
    const answer = await app.inject({
      method: 'GET',
      url: '/api/consumer/suggestions',
      headers: person.headers,
    });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({
      items: [expect.objectContaining({ name, status: 'open' })],
      next: null,
    });
    expect(answer.json().items[0]).not.toHaveProperty('decidedBy');
  });

  it('answers 401 without a sign-in', async () => {
    const anonymous = await app.inject({ method: 'GET', url: '/api/consumer/suggestions' });
    expect(anonymous.statusCode).toBe(401);
  });
});
