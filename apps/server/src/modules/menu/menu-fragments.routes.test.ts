// Shared menu fragments (decision 0057): team and organization spaces are serialized once per
// scope version and rights, and reused. The same answers as without the cache, for every
// kind of person; reuse that ends with the next version; no rights carried across people.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Menu } from '@signpost/contract';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { selectRows } from '../../db/client.ts';
import { links } from '../../db/schema/index.ts';
import { createMenuService } from './menu.service.ts';
import { createTestApp } from '../../../test/app.ts';
import {
  addTeamMember,
  createCollection,
  createLink,
  createOrganization,
  createTeam,
} from '../../../test/factories.ts';
import { call } from '../../../test/support/consumer-call.ts';
import { createPerson, type Person } from '../../../test/support/world.ts';

const { app, db, database, repositories } = await createTestApp();
// The same database, served by an app without the cache.
const uncached = await buildApp({
  config: loadConfig({ LOG_LEVEL: 'silent', MENU_CACHE_MB: '0' }),
  database,
});
await uncached.ready();
afterAll(() => uncached.close());

let admin: Person;
let editor: Person;
let member: Person;
let otherMember: Person;
let teamLink: { id: string };
let orgLink: { id: string };
let teamCollection: { id: string; organizationId: string };
let theTeam: { id: string; organizationId: string };

beforeAll(async () => {
  const org = await createOrganization(db);
  admin = await createPerson(app, db, org.id, 'admin');
  editor = await createPerson(app, db, org.id);
  member = await createPerson(app, db, org.id);
  otherMember = await createPerson(app, db, org.id);
  const team = await createTeam(db, org.id, { buddyId: editor.id });
  theTeam = team;
  await addTeamMember(db, team, editor.id, 'editor');
  await addTeamMember(db, team, member.id);
  await addTeamMember(db, team, otherMember.id);
  await addTeamMember(db, team, admin.id);
  teamCollection = await createCollection(db, { team });
  teamLink = await createLink(db, teamCollection, { name: 'Team wiki' });
  const orgCollection = await createCollection(db, { organizationId: org.id });
  orgLink = await createLink(db, orgCollection, { name: 'Intranet' });
  // Open suggestions: counted for the team's editors and the organization's administrators.
  for (const collection of [teamCollection, orgCollection]) {
    const answer = await call(app, 'POST', `/collections/${collection.id}/suggestions`, member, {
      name: 'Suggested',
      url: 'https://suggested.example',
    });
    expect(answer.statusCode, answer.body).toBe(204);
  }
});

async function menuOf(server: typeof app, person: Person): Promise<Menu> {
  const response = await server.inject({
    method: 'GET',
    url: '/api/consumer/menu',
    headers: person.headers,
  });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  return response.json<Menu>();
}

const spaceOf = (menu: Menu, type: 'team' | 'organization') =>
  menu.spaces.find((space) => space.type === type)!;
const linkNames = (menu: Menu, type: 'team' | 'organization') =>
  JSON.stringify(spaceOf(menu, type)).match(/"name":"[^"]*"/g);

/** Changes a link's name with the menu's triggers off: no version moves. */
async function renameUntracked(id: string, name: string) {
  await db.transaction(async (tx) => {
    await selectRows(tx, sql`SET LOCAL session_replication_role = replica`);
    await tx.update(links).set({ name }).where(eq(links.id, id));
  });
}

describe('shared menu fragments', () => {
  it('answer exactly what the menu without them answers, for members, editors and administrators', async () => {
    for (const person of [editor, admin, member, otherMember]) {
      const expected = await menuOf(uncached, person);
      // The first answer fills the cache, the second comes from it.
      expect(await menuOf(app, person)).toEqual(expected);
      expect(await menuOf(app, person)).toEqual(expected);
    }
  });

  it("reuse a team's and the organization's space for people with the same rights, until its next version", async () => {
    await menuOf(app, member);
    await renameUntracked(teamLink.id, 'Untracked name');
    await renameUntracked(orgLink.id, 'Untracked org name');
    // Held: the cached app still serves the space as it was serialized; the other reads it.
    const held = await menuOf(app, otherMember);
    expect(linkNames(held, 'team')).toContain('"name":"Team wiki"');
    expect(linkNames(held, 'organization')).toContain('"name":"Intranet"');
    const fresh = await menuOf(uncached, otherMember);
    expect(linkNames(fresh, 'team')).toContain('"name":"Untracked name"');

    // A tracked change moves the team's version: the next answer is built anew.
    const answer = await call(app, 'PATCH', `/links/${teamLink.id}`, editor, {
      name: 'Team wiki, renamed',
    });
    expect(answer.statusCode, answer.body).toBe(204);
    const after = await menuOf(app, otherMember);
    expect(linkNames(after, 'team')).toContain('"name":"Team wiki, renamed"');
    // The organization's version did not move: its space is still the held one.
    expect(linkNames(after, 'organization')).toContain('"name":"Intranet"');
    await renameUntracked(orgLink.id, 'Intranet');
  });

  it("never give one person's rights to another: editors', administrators' and members' spaces are kept apart", async () => {
    // Editors and administrators first, so that their spaces are held before the members'.
    const asEditor = await menuOf(app, editor);
    const asAdmin = await menuOf(app, admin);
    const asMember = await menuOf(app, member);
    expect(spaceOf(asEditor, 'team')).toMatchObject({
      can: { addCollection: true },
      openSuggestions: 1,
    });
    expect(spaceOf(asAdmin, 'organization')).toMatchObject({
      can: { addCollection: true },
      openSuggestions: 1,
    });
    const memberTeam = spaceOf(asMember, 'team');
    const memberOrg = spaceOf(asMember, 'organization');
    expect(memberTeam.can.addCollection).toBe(false);
    expect(memberTeam).not.toHaveProperty('openSuggestions');
    expect(memberOrg.can.addCollection).toBe(false);
    expect(memberOrg).not.toHaveProperty('openSuggestions');
    expect(asMember).toEqual(await menuOf(uncached, member));
  });

  it('stay correct when the cache is too small to hold them all', async () => {
    // Room for about one space: every answer evicts another.
    const small = createMenuService({ db, menu: repositories.menu, cacheBytes: 3_000 });
    for (const round of [1, 2, 3]) {
      for (const person of [member, editor, admin, otherMember]) {
        const context = await app.services.auth.authenticate(
          person.headers.authorization.slice('Bearer '.length),
          true,
        );
        const answer = JSON.parse((await small.getMenuJson(context!)).toString('utf8')) as Menu;
        expect(answer, `round ${round}`).toEqual(await menuOf(uncached, person));
      }
    }
  });
});

describe("a person's own part", () => {
  const myLinkNames = (menu: Menu) =>
    JSON.stringify(menu.spaces.find((space) => space.type === 'personal')).match(/"name":"[^"]*"/g);

  it('is joined from held text while none of their versions moves, with no menu statement', async () => {
    const me = await createPerson(app, db, teamCollection.organizationId);
    await addTeamMember(db, theTeam, me.id);
    const mine = await createCollection(db, { user: me });
    const link = await createLink(db, mine, { name: 'My notes' });
    const first = await menuOf(app, me);
    expect(first).toEqual(await menuOf(uncached, me));

    await renameUntracked(link.id, 'Untracked notes');
    const before = database.statements.count;
    const again = await menuOf(app, me);
    // The session lookup alone: the rest is text the server holds for these versions.
    expect(database.statements.count - before).toBe(1);
    expect(again).toEqual(first);
    expect(myLinkNames(await menuOf(uncached, me))).toContain('"name":"Untracked notes"');

    // A change of theirs moves their own version: the next answer is built anew.
    const renamed = await call(app, 'PATCH', `/links/${link.id}`, me, { name: 'Notes, renamed' });
    expect(renamed.statusCode, renamed.body).toBe(204);
    const after = await menuOf(app, me);
    expect(myLinkNames(after)).toContain('"name":"Notes, renamed"');
    expect(after).toEqual(await menuOf(uncached, me));
  });

  it('is not answered from when a space it needs is not held: the menu is built again', async () => {
    const me = await createPerson(app, db, teamCollection.organizationId);
    const big = await createTeam(db, me.organizationId);
    await addTeamMember(db, big, me.id);
    const runbooks = await createCollection(db, { team: big });
    for (let i = 0; i < 160; i += 1) await createLink(db, runbooks, { name: `Runbook ${i}` });
    const expected = await menuOf(uncached, me);
    // Room for this person's own part (a quarter of it), never for their team's space.
    const bytes = 12_000;
    expect(Buffer.byteLength(JSON.stringify(spaceOf(expected, 'team')))).toBeGreaterThan(bytes);
    const small = createMenuService({ db, menu: repositories.menu, cacheBytes: bytes });
    const context = await app.services.auth.authenticate(
      me.headers.authorization.slice('Bearer '.length),
      true,
    );
    for (const round of [1, 2]) {
      const before = database.statements.count;
      const answer = JSON.parse((await small.getMenuJson(context!)).toString('utf8')) as Menu;
      expect(answer, `round ${round}`).toEqual(expected);
      // The menu statement ran again: nothing was joined without the team's space.
      expect(database.statements.count - before, `round ${round}`).toBeGreaterThan(0);
    }
  });

  it("is read again when a space they share changes, and never serves another person's", async () => {
    const me = await createPerson(app, db, teamCollection.organizationId);
    await addTeamMember(db, theTeam, me.id);
    await menuOf(app, me);
    await menuOf(app, member);
    // The team's version moves: everyone's own part is built anew with the new team space.
    const answer = await call(app, 'PATCH', `/links/${teamLink.id}`, editor, {
      name: 'Team wiki, once more',
    });
    expect(answer.statusCode, answer.body).toBe(204);
    for (const person of [me, member]) {
      const menu = await menuOf(app, person);
      expect(linkNames(menu, 'team')).toContain('"name":"Team wiki, once more"');
      expect(menu).toEqual(await menuOf(uncached, person));
      // Each answer is the person's own: their profile, their personal space.
      expect(menu.profile.email).toBe(person.email);
    }
  });
});

describe('held bytes', () => {
  it('carry every character as UTF-8, built or joined from held parts, with its exact length', async () => {
    const me = await createPerson(app, db, teamCollection.organizationId);
    await addTeamMember(db, theTeam, me.id);
    const mine = await createCollection(db, { user: me });
    const names = ['Café — naïve', '東京の手順書', 'Ops 🚀 board', 'Zürich “quotes” \\ back'];
    for (const name of names) await createLink(db, mine, { name });
    for (const name of names) await createLink(db, teamCollection, { name: `Team ${name}` });
    const bodies: string[] = [];
    // The first answer is built; the second joined from held bytes alone.
    for (const round of ['built', 'held']) {
      const response = await app.inject({
        method: 'GET',
        url: '/api/consumer/menu',
        headers: me.headers,
      });
      expect(response.statusCode, round).toBe(200);
      expect(response.headers['content-type'], round).toBe('application/json; charset=utf-8');
      expect(Number(response.headers['content-length']), round).toBe(response.rawPayload.length);
      const text = response.rawPayload.toString('utf8');
      for (const name of names) {
        expect(text, round).toContain(JSON.stringify(name));
        expect(text, round).toContain(JSON.stringify(`Team ${name}`));
      }
      bodies.push(text);
    }
    expect(bodies[1]).toBe(bodies[0]);
    expect(JSON.parse(bodies[0]!)).toEqual(await menuOf(uncached, me));
  });
});
