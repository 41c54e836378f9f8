import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, linkSuggestions, links, users } from '../../db/schema/index.ts';
import { selectRows } from '../../db/client.ts';
import { newId } from '../../lib/ids.ts';
import { createTestApp } from '../../../test/app.ts';
import {
  addTeamMember,
  createCollection,
  createLink,
  createTeam,
} from '../../../test/factories.ts';
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
// The colleague suggests to the other team, which they are a member of.
await addTeamMember(db, cast.otherTeam, cast.colleague.id);

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
const suggestionRow = async (id: string) =>
  (await db.select().from(linkSuggestions).where(eq(linkSuggestions.id, id)))[0]!;

describe('suggesting records it in the audit log', () => {
  it('suggestion.created, by the person who suggested', async () => {
    const spaces = await createSpaces(db, cast);
    const row = await suggest(spaces.team.id);
    const [entry] = await db.select().from(auditLog).where(eq(auditLog.targetId, row.id));
    expect(entry).toMatchObject({
      action: 'suggestion.created',
      actorId: cast.teamMember.id,
      after: { name: row.name, url: 'https://wiki.example.com/', collectionId: spaces.team.id },
    });
  });
});

describe('permission table of the suggestions calls', () => {
  // [who, the team's suggestion, the other team's, the organization's]: the status of accept.
  const cells: [Who, number, number, number][] = [
    [null, 401, 401, 401],
    ['disabled', 401, 401, 401],
    ['teamMember', 403, 403, 403],
    ['colleague', 403, 403, 403],
    ['teamEditor', 200, 404, 403],
    ['outsider', 404, 404, 404],
    ['orgAdmin', 200, 200, 200],
  ];
  it.each(cells)('%s: accept %i / %i / %i; decline the same', async (who, own, other, org) => {
    const spaces = await createSpaces(db, cast);
    const places = [spaces.team.id, spaces.otherTeam.id, spaces.organization.id];
    const suggester: Role[] = ['teamMember', 'colleague', 'member'];
    const statuses = [own, other, org];
    for (const [index, place] of places.entries()) {
      for (const decide of [accept, decline]) {
        const row = await suggest(place, suggester[index]);
        const status = statuses[index]!;
        if (status === 200) {
          const answer = await decide(row.id, who);
          expect(answer.statusCode, answer.body).toBe(200);
          expect((await suggestionRow(row.id)).status).not.toBe('open');
        } else {
          await expectAdminRefused(db, () => decide(row.id, who), status);
        }
      }
    }
  });

  it.each([
    [null, 401],
    ['disabled', 401],
    ['teamMember', 403],
    ['colleague', 403],
  ] as [Who, number][])('%s may not list: %i', async (who, status) => {
    await expectAdminRefused(db, () => list(who), status);
  });
});

describe('listing', () => {
  it("an editor sees their team's open suggestions, an admin every space's, newest first", async () => {
    const team = await createTeam(db, cast.org.id);
    const other = await createTeam(db, cast.org.id);
    const editor = await createPerson(app, db, cast.org.id);
    await addTeamMember(db, team, editor.id, 'editor');
    await addTeamMember(db, team, cast.colleague.id);
    await addTeamMember(db, other, cast.colleague.id);
    const mine = await createCollection(db, { team }, { name: 'Handbook' });
    const theirs = await createCollection(db, { team: other });
    const first = await suggest(mine.id, 'colleague');
    const second = await suggest(mine.id, 'colleague');
    const elsewhere = await suggest(theirs.id, 'colleague');
    const seen = await adminCall(app, 'GET', '/suggestions', editor);
    expect(seen.statusCode).toBe(200);
    expect(seen.json()).toEqual({
      items: [
        expect.objectContaining({
          id: second.id,
          status: 'open',
          url: 'https://wiki.example.com/',
          suggestedBy: {
            id: cast.colleague.id,
            name: cast.colleague.name,
            email: cast.colleague.email,
          },
          decidedBy: null,
          collection: { id: mine.id, name: 'Handbook' },
          space: { type: 'team', id: team.id, name: team.name },
        }),
        expect.objectContaining({ id: first.id }),
      ],
      next: null,
    });
    const paged = (await adminCall(app, 'GET', '/suggestions?limit=1', editor)).json();
    expect(paged).toEqual({ items: [expect.objectContaining({ id: second.id })], next: second.id });
    const rest = (
      await adminCall(app, 'GET', `/suggestions?limit=1&after=${second.id}`, editor)
    ).json();
    expect(rest.items.map((s: { id: string }) => s.id)).toEqual([first.id]);
    const byAdmin = (await list('orgAdmin', `?spaceId=${other.id}`)).json();
    expect(byAdmin.items.map((s: { id: string }) => s.id)).toEqual([elsewhere.id]);
    await decline(first.id, 'orgAdmin', { reason: 'We have one' });
    const declined = (await adminCall(app, 'GET', '/suggestions?status=declined', editor)).json();
    expect(declined.items).toEqual([
      expect.objectContaining({
        id: first.id,
        reason: 'We have one',
        decidedBy: expect.objectContaining({ id: cast.orgAdmin.id }),
      }),
    ]);
  });
});

describe('accepting and declining', () => {
  it('accepts as suggested: the link goes at the end of its collection, audited', async () => {
    const spaces = await createSpaces(db, cast);
    await createLink(db, spaces.team, { position: 7 });
    const row = await suggest(spaces.team.id);
    const answer = await accept(row.id, 'teamEditor');
    expect(answer.statusCode).toBe(200);
    const body = answer.json();
    expect(body).toMatchObject({
      status: 'accepted',
      linkId: expect.any(String),
      decidedBy: { id: cast.teamEditor.id },
    });
    const [link] = await db.select().from(links).where(eq(links.id, body.linkId));
    expect(link).toMatchObject({
      collectionId: spaces.team.id,
      name: row.name,
      url: 'https://wiki.example.com/',
      description: 'Our wiki',
      createdBy: cast.teamEditor.id,
    });
    // After every other item of the collection, links and sub-collections alike.
    const [others] = await selectRows<{ last: number }>(
      db,
      sql`SELECT max(position) AS last FROM (
            SELECT position FROM links WHERE collection_id = ${spaces.team.id} AND id <> ${body.linkId}
            UNION ALL SELECT position FROM collections WHERE parent_id = ${spaces.team.id}) items`,
    );
    expect(others!.last).toBeGreaterThanOrEqual(7);
    expect(link!.position).toBe(others!.last + 1);
    expect(await suggestionRow(row.id)).toMatchObject({
      decidedBy: cast.teamEditor.id,
      decidedAt: expect.any(Date),
      linkId: link!.id,
    });
    const [entry] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetId, row.id), eq(auditLog.action, 'suggestion.accepted')));
    expect(entry).toMatchObject({
      before: { status: 'open' },
      after: { status: 'accepted' },
      details: { linkId: link!.id },
    });
  });

  it('accepts an edited suggestion under the rules of links', async () => {
    const spaces = await createSpaces(db, cast);
    const row = await suggest(spaces.organization.id, 'member');
    await expectAdminRefused(
      db,
      () => accept(row.id, 'orgAdmin', { url: 'javascript:alert(1)' }),
      400,
    );
    const answer = await accept(row.id, 'orgAdmin', {
      name: 'The wiki',
      url: 'https://wiki.example.org/start',
      description: '',
    });
    expect(answer.statusCode).toBe(200);
    const [link] = await db.select().from(links).where(eq(links.id, answer.json().linkId));
    expect(link).toMatchObject({
      name: 'The wiki',
      url: 'https://wiki.example.org/start',
      description: '',
    });
  });

  it('declines with a reason, and no link is added', async () => {
    const spaces = await createSpaces(db, cast);
    const row = await suggest(spaces.team.id);
    const answer = await decline(row.id, 'teamEditor', { reason: '  Already in the handbook ' });
    expect(answer.json()).toMatchObject({
      status: 'declined',
      reason: 'Already in the handbook',
      linkId: null,
    });
    expect(await db.select().from(links).where(eq(links.collectionId, spaces.team.id))).toEqual([]);
  });

  it('deciding twice is 409 for the second, and at the same moment one wins', async () => {
    const spaces = await createSpaces(db, cast);
    const row = await suggest(spaces.team.id);
    expect((await decline(row.id, 'teamEditor')).statusCode).toBe(200);
    const again = await expectAdminRefused(db, () => accept(row.id, 'orgAdmin'), 409);
    expect(again.message).toContain('already declined');
    for (let round = 0; round < 4; round += 1) {
      const racing = await suggest(spaces.team.id);
      const answers = await Promise.all([
        accept(racing.id, 'teamEditor'),
        accept(racing.id, 'orgAdmin'),
        decline(racing.id, 'orgAdmin'),
      ]);
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409, 409]);
      const added = await db.select().from(links).where(eq(links.collectionId, spaces.team.id));
      const row2 = await suggestionRow(racing.id);
      expect(added.filter((l) => l.id === row2.linkId)).toHaveLength(
        row2.status === 'accepted' ? 1 : 0,
      );
    }
    const accepted = await db
      .select()
      .from(linkSuggestions)
      .where(eq(linkSuggestions.collectionId, spaces.team.id));
    const linkCount = (await db.select().from(links).where(eq(links.collectionId, spaces.team.id)))
      .length;
    expect(linkCount).toBe(accepted.filter((s) => s.status === 'accepted').length);
  });

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

  it('an unknown id is 404', async () => {
    await expectAdminRefused(db, () => accept(newId(), 'orgAdmin'), 404);
  });
});

describe('GET /api/consumer/suggestions', () => {
  it('shows the person their own suggestions, newest first, with what became of them', async () => {
    const person = await createPerson(app, db, cast.org.id);
    const spaces = await createSpaces(db, cast);
    const ask = async (name: string) => {
      await app.inject({
        method: 'POST',
        url: `/api/consumer/collections/${spaces.organization.id}/suggestions`,
        headers: person.headers,
        payload: { name, url: 'https://example.com/' + name },
      });
      return (await db.select().from(linkSuggestions).where(eq(linkSuggestions.name, name)))[0]!;
    };
    const one = await ask(`one-${newId()}`);
    const two = await ask(`two-${newId()}`);
    await suggest(spaces.organization.id, 'member');
    await decline(one.id, 'orgAdmin', { reason: 'Not for everyone' });
    const answer = await app.inject({
      method: 'GET',
      url: '/api/consumer/suggestions',
      headers: person.headers,
    });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({
      items: [
        expect.objectContaining({ id: two.id, status: 'open', reason: '', decidedAt: null }),
        expect.objectContaining({
          id: one.id,
          status: 'declined',
          reason: 'Not for everyone',
          space: { type: 'organization', id: cast.org.id, name: cast.org.name },
          collection: { id: spaces.organization.id, name: expect.any(String) },
        }),
      ],
      next: null,
    });
    expect(answer.json().items[0]).not.toHaveProperty('decidedBy');
    const anonymous = await app.inject({ method: 'GET', url: '/api/consumer/suggestions' });
    expect(anonymous.statusCode).toBe(401);
  });
});
