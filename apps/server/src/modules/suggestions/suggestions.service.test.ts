// Suggestions to team and organization spaces: who may decide on them (administrators: all;
// team editors: their teams'), what accepting and declining write (the link, the decision,
// the audit entry), what two deciders at once leave behind, and the lists of the people who
// run a space and of the person who suggested.
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { selectRows } from '../../db/client.ts';
import { auditLog, linkSuggestions, links } from '../../db/schema/index.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { AppError } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { createTestServices } from '../../../test/app.ts';
import {
  addTeamMember,
  createCollection,
  createLink,
  createTeam,
  createUser,
  type TestUser,
} from '../../../test/factories.ts';
import { adminSnapshot } from '../../../test/support/admin-call.ts';
import { createCast, createSpaces, type Role } from '../../../test/support/world.ts';
import { callerOf } from '../../../test/support/callers.ts';

const { services, db } = await createTestServices();
const { suggestions: service } = services;
const cast = await createCast(db);
// The colleague suggests to the other team, which they are a member of.
await addTeamMember(db, cast.otherTeam, cast.colleague.id);
const ORIGIN = { ip: '10.0.0.1', userAgent: 'Console' };

const as = (role: Role) => callerOf(cast[role]);

/** A suggestion made as the portal makes it, by `who`. */
async function suggest(
  collectionId: string,
  who: TestUser = cast.teamMember,
  name = `Wiki ${newId()}`,
) {
  await services.links.suggestLink(
    callerOf(who),
    collectionId,
    { name, url: 'wiki.example.com', description: 'Our wiki' },
    ORIGIN,
  );
  const [row] = await db
    .select()
    .from(linkSuggestions)
    .where(and(eq(linkSuggestions.collectionId, collectionId), eq(linkSuggestions.name, name)));
  return row!;
}
const accept = (id: string, me: AuthContext, body = {}) => service.accept(me, ORIGIN, id, body);
const decline = (id: string, me: AuthContext, body = {}) => service.decline(me, ORIGIN, id, body);
const suggestionRow = async (id: string) =>
  (await db.select().from(linkSuggestions).where(eq(linkSuggestions.id, id)))[0]!;

/** A call that must be refused with `status` and this message, changing nothing. */
async function refused(call: () => Promise<unknown>, status: number, message: string) {
  const before = await adminSnapshot(db);
  const error: unknown = await call().then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).statusCode).toBe(status);
  expect((error as AppError).message).toContain(message);
  expect(await adminSnapshot(db)).toEqual(before);
}

/** The status a call ends with: 200 when it succeeds, the refusal's otherwise. */
const outcome = (call: Promise<unknown>) =>
  call.then(
    () => 200,
    (error: unknown) => (error instanceof AppError ? error.statusCode : String(error)),
  );

const RUNS_NOTHING = 'Only an administrator or an editor of a team can do that.';
const RUNS_SPACE =
  'Only the editors of this team or an administrator can decide on its suggestions.';

describe('suggesting', () => {
  it('records suggestion.created, by the person who suggested', async () => {
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

describe('who may decide on a suggestion', () => {
  // [who, the team's suggestion, the other team's, the organization's]: the status of both.
  const cells: [Role, number, number, number][] = [
    ['teamMember', 403, 403, 403],
    ['colleague', 403, 403, 403],
    ['teamEditor', 200, 404, 403],
    ['outsider', 404, 404, 404],
    ['orgAdmin', 200, 200, 200],
  ];
  it.each(cells)('%s: accept and decline %i / %i / %i', async (who, own, other, org) => {
    const spaces = await createSpaces(db, cast);
    const places = [spaces.team.id, spaces.otherTeam.id, spaces.organization.id];
    const suggesters = [cast.teamMember, cast.colleague, cast.member];
    const statuses = [own, other, org];
    for (const [index, place] of places.entries()) {
      for (const decide of [accept, decline]) {
        const row = await suggest(place, suggesters[index]);
        const status = statuses[index]!;
        if (status === 200) {
          const answer = await decide(row.id, as(who));
          expect(answer).toMatchObject({ id: row.id, decidedBy: { id: cast[who].id } });
          expect((await suggestionRow(row.id)).status).not.toBe('open');
        } else {
          const message =
            status === 404
              ? `Suggestion ${row.id} was not found`
              : who === 'teamEditor'
                ? RUNS_SPACE
                : RUNS_NOTHING;
          await refused(() => decide(row.id, as(who)), status, message);
        }
      }
    }
  });

  it('refuses an editor of another team who is a plain member of this one: 403', async () => {
    const person = await createUser(db, cast.org.id);
    await addTeamMember(db, cast.otherTeam, person.id, 'editor');
    await addTeamMember(db, cast.team, person.id);
    const spaces = await createSpaces(db, cast);
    const row = await suggest(spaces.team.id);
    await refused(() => accept(row.id, callerOf(person)), 403, RUNS_SPACE);
  });

  it('answers 404 for an unknown suggestion', async () => {
    const id = newId();
    await refused(() => accept(id, as('orgAdmin')), 404, `Suggestion ${id} was not found`);
  });

  it.each(['teamMember', 'colleague'] as const)('refuses %s the list: 403', async (who) => {
    await refused(() => service.list(as(who), {}), 403, RUNS_NOTHING);
  });
});

describe('the list of those who run a space', () => {
  it("shows an editor their team's open suggestions and an administrator every space's, newest first", async () => {
    const team = await createTeam(db, cast.org.id);
    const other = await createTeam(db, cast.org.id);
    const editorPerson = await createUser(db, cast.org.id);
    const editor = callerOf(editorPerson);
    await addTeamMember(db, team, editorPerson.id, 'editor');
    await addTeamMember(db, team, cast.colleague.id);
    await addTeamMember(db, other, cast.colleague.id);
    const mine = await createCollection(db, { team }, { name: 'Handbook' });
    const theirs = await createCollection(db, { team: other });
    const first = await suggest(mine.id, cast.colleague);
    const second = await suggest(mine.id, cast.colleague);
    const elsewhere = await suggest(theirs.id, cast.colleague);
    expect(await service.list(editor, {})).toEqual({
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
    expect(await service.list(editor, { limit: 1 })).toEqual({
      items: [expect.objectContaining({ id: second.id })],
      next: second.id,
    });
    const rest = await service.list(editor, { limit: 1, after: second.id });
    expect(rest.items.map((s) => s.id)).toEqual([first.id]);
    const byAdmin = await service.list(as('orgAdmin'), { spaceId: other.id });
    expect(byAdmin.items.map((s) => s.id)).toEqual([elsewhere.id]);
    await decline(first.id, as('orgAdmin'), { reason: 'We have one' });
    expect((await service.list(editor, { status: 'declined' })).items).toEqual([
      expect.objectContaining({
        id: first.id,
        reason: 'We have one',
        decidedBy: expect.objectContaining({ id: cast.orgAdmin.id }),
      }),
    ]);
  });

  it("shows the organization's space by the organization's id", async () => {
    const spaces = await createSpaces(db, cast);
    const row = await suggest(spaces.organization.id, cast.member);
    const listed = await service.list(as('orgAdmin'), { spaceId: cast.org.id });
    expect(listed.items).toContainEqual(
      expect.objectContaining({
        id: row.id,
        space: { type: 'organization', id: cast.org.id, name: cast.org.name },
      }),
    );
    expect(listed.items.every((s) => s.space.type === 'organization')).toBe(true);
  });
});

describe('accepting and declining', () => {
  it('accepts as suggested: the link goes at the end of its collection, audited', async () => {
    const spaces = await createSpaces(db, cast);
    await createLink(db, spaces.team, { position: 7 });
    const row = await suggest(spaces.team.id);
    const answer = await accept(row.id, as('teamEditor'));
    expect(answer).toMatchObject({
      status: 'accepted',
      linkId: expect.any(String),
      decidedBy: { id: cast.teamEditor.id },
    });
    const [link] = await db.select().from(links).where(eq(links.id, answer.linkId!));
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
            SELECT position FROM links WHERE collection_id = ${spaces.team.id} AND id <> ${link!.id}
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
      actorId: cast.teamEditor.id,
      ip: ORIGIN.ip,
      before: { status: 'open', name: row.name, url: 'https://wiki.example.com/' },
      after: { status: 'accepted', name: row.name, url: 'https://wiki.example.com/' },
      details: { linkId: link!.id, collectionId: spaces.team.id, suggestedBy: cast.teamMember.id },
    });
  });

  it('accepts an edited suggestion under the rules of links', async () => {
    const spaces = await createSpaces(db, cast);
    const row = await suggest(spaces.organization.id, cast.member);
    await refused(
      () => accept(row.id, as('orgAdmin'), { url: 'javascript:alert(1)' }),
      400,
      'body.url must be an http, https or mailto address',
    );
    await refused(
      () => accept(row.id, as('orgAdmin'), { name: 'a\u0000b' }),
      400,
      'must not contain a NUL character',
    );
    await refused(
      () => accept(row.id, as('orgAdmin'), { description: 'a\u0000b' }),
      400,
      'body.description must not contain a NUL character',
    );
    const answer = await accept(row.id, as('orgAdmin'), {
      name: ' The wiki ',
      url: 'https://wiki.example.org/start',
      description: '',
    });
    const [link] = await db.select().from(links).where(eq(links.id, answer.linkId!));
    expect(link).toMatchObject({
      name: 'The wiki',
      url: 'https://wiki.example.org/start',
      description: '',
    });
  });

  it('declines with a trimmed reason, audited, and no link is added', async () => {
    const spaces = await createSpaces(db, cast);
    const row = await suggest(spaces.team.id);
    const answer = await decline(row.id, as('teamEditor'), {
      reason: '  Already in the handbook ',
    });
    expect(answer).toMatchObject({
      status: 'declined',
      reason: 'Already in the handbook',
      linkId: null,
    });
    expect(await db.select().from(links).where(eq(links.collectionId, spaces.team.id))).toEqual([]);
    const [entry] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetId, row.id), eq(auditLog.action, 'suggestion.declined')));
    expect(entry).toMatchObject({
      before: { status: 'open' },
      after: { status: 'declined', reason: 'Already in the handbook' },
    });
  });

  it('refuses deciding twice with 409, and lets one of three deciders at once win', async () => {
    const spaces = await createSpaces(db, cast);
    const row = await suggest(spaces.team.id);
    await decline(row.id, as('teamEditor'));
    await refused(
      () => accept(row.id, as('orgAdmin')),
      409,
      'This suggestion was already declined; it cannot be decided again.',
    );
    for (let round = 0; round < 4; round += 1) {
      const racing = await suggest(spaces.team.id);
      const outcomes = await Promise.all([
        outcome(accept(racing.id, as('teamEditor'))),
        outcome(accept(racing.id, as('orgAdmin'))),
        outcome(decline(racing.id, as('orgAdmin'))),
      ]);
      expect(outcomes.sort()).toEqual([200, 409, 409]);
      const decided = await suggestionRow(racing.id);
      const added = await db.select().from(links).where(eq(links.collectionId, spaces.team.id));
      expect(added.filter((l) => l.id === decided.linkId)).toHaveLength(
        decided.status === 'accepted' ? 1 : 0,
      );
    }
    const all = await db
      .select()
      .from(linkSuggestions)
      .where(eq(linkSuggestions.collectionId, spaces.team.id));
    const linkCount = (await db.select().from(links).where(eq(links.collectionId, spaces.team.id)))
      .length;
    expect(linkCount).toBe(all.filter((s) => s.status === 'accepted').length);
  });
});

describe('one’s own suggestions', () => {
  it('shows the person their own, newest first, with what became of them', async () => {
    const person = await createUser(db, cast.org.id);
    const spaces = await createSpaces(db, cast);
    const one = await suggest(spaces.organization.id, person, `one-${newId()}`);
    const two = await suggest(spaces.organization.id, person, `two-${newId()}`);
    await suggest(spaces.organization.id, cast.member);
    await decline(one.id, as('orgAdmin'), { reason: 'Not for everyone' });
    const answer = await service.mine(callerOf(person), {});
    expect(answer).toEqual({
      items: [
        expect.objectContaining({ id: two.id, status: 'open', reason: '', decidedAt: null }),
        expect.objectContaining({
          id: one.id,
          status: 'declined',
          reason: 'Not for everyone',
          decidedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
          space: { type: 'organization', id: cast.org.id, name: cast.org.name },
          collection: { id: spaces.organization.id, name: expect.any(String) },
        }),
      ],
      next: null,
    });
    expect(answer.items[0]).not.toHaveProperty('decidedBy');
    expect(answer.items[0]).not.toHaveProperty('suggestedBy');
    const paged = await service.mine(callerOf(person), { limit: 1 });
    expect(paged).toEqual({ items: [expect.objectContaining({ id: two.id })], next: two.id });
  });
});
