import {
  MenuResponse,
  type Collection,
  type Menu,
  type MenuItem,
  type Space,
} from '@signpost/contract';
import Ajv from 'ajv';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { favorites, links, teamMemberships, users } from '../../db/schema/index.ts';
import { createTestApp } from '../../../test/app.ts';
import {
  addTeamMember,
  createCollection,
  createFavorite,
  createLink,
  createOrganization,
  createShare,
  createTeam,
  createUser,
  signIn,
} from '../../../test/factories.ts';

const { app, db, database } = await createTestApp();

// Every menu the tests read is checked against the contract's schema by a JSON Schema
// validator of its own (strict: the schema itself must be valid JSON Schema). The route sends
// the menu with JSON.stringify, so only this check holds the server to the contract.
const checkMenu = new Ajv({ strict: true, allErrors: true }).compile(MenuResponse);
const schemaErrors = (body: unknown) =>
  checkMenu(body) ? [] : (checkMenu.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);

/** The menu of a 200 answer, once it is known to match the contract. */
const menuOf = (response: LightMyRequestResponse) => {
  expect(response.statusCode).toBe(200);
  const body = response.json<Menu>();
  expect(schemaErrors(body)).toEqual([]);
  return body;
};

const getMenu = async (headers: Record<string, string>) =>
  menuOf(await app.inject({ method: 'GET', url: '/api/consumer/menu', headers }));

const space = (menu: Menu, type: Space['type'], name?: string) => {
  const found = menu.spaces.find((s) => s.type === type && (!name || s.name === name));
  if (!found) throw new Error(`no ${type} space ${name ?? ''}`);
  return found;
};

const names = (items: MenuItem[]) => items.map((i) => i.name);

/** An organization with a person in two teams, and content everywhere. */
async function world(size: number) {
  const org = await createOrganization(db, { name: `Org ${size}` });
  const me = await createUser(db, org.id, { name: 'Ada Lovelace' });
  const buddy = await createUser(db, org.id, { name: 'Bob Buddy' });
  const friend = await createUser(db, org.id, { name: 'Cy Friend' });
  const teams = [];
  for (let t = 0; t < 2; t += 1) {
    const team = await createTeam(db, org.id, { name: `Team ${t}`, buddyId: buddy.id });
    await addTeamMember(db, team, me.id);
    teams.push(team);
    for (let c = 0; c < size; c += 1) {
      const col = await createCollection(db, { team });
      const sub = await createCollection(db, { team }, { parentId: col.id });
      for (let l = 0; l < size; l += 1) await createLink(db, l % 2 ? col : sub);
    }
  }
  const orgLinks = [];
  for (let c = 0; c < size; c += 1) {
    const col = await createCollection(db, { organizationId: org.id });
    for (let l = 0; l < size; l += 1) orgLinks.push(await createLink(db, col));
  }
  for (let c = 0; c < size; c += 1) {
    const col = await createCollection(db, { user: me });
    const sub = await createCollection(db, { user: me }, { parentId: col.id });
    for (let l = 0; l < size; l += 1) await createLink(db, sub, { createdBy: me.id });
    await createFavorite(db, me, orgLinks[c]!.id, col.id);
    const theirs = await createCollection(db, { user: friend });
    await createLink(db, theirs, { createdBy: friend.id });
    await createShare(db, friend, theirs.id, [me.id]);
    const mine = await createCollection(db, { user: me });
    await createShare(db, me, mine.id, [friend.id]);
  }
  return { org, me, buddy, friend, teams };
}

describe('GET /api/consumer/menu', () => {
  it('requires authentication', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/consumer/menu' });
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe('UNAUTHORIZED');
  });

  it('orders spaces personal, teams, organization, with My Space then shared-root', async () => {
    const org = await createOrganization(db, { name: 'Acme' });
    const me = await createUser(db, org.id, { name: 'Ada' });
    const design = await createTeam(db, org.id, { name: 'Design' });
    const build = await createTeam(db, org.id, { name: 'Build' });
    await addTeamMember(db, design, me.id);
    await addTeamMember(db, build, me.id, 'editor');
    await createTeam(db, org.id, { name: 'Not mine' });
    const menu = await getMenu((await signIn(app, me)).headers);
    expect(menu.profile).toEqual({ id: me.id, name: 'Ada', email: me.email });
    expect(menu.organization).toEqual({
      id: org.id,
      name: 'Acme',
      feedbackUrl: null,
      consentUrl: null,
      intros: { personal: '', team: '', organization: '' },
    });
    expect(menu.spaces.map((s) => [s.type, s.name])).toEqual([
      ['personal', 'My Space'],
      ['team', 'Build'],
      ['team', 'Design'],
      ['organization', 'Acme'],
    ]);
    const personal = space(menu, 'personal');
    expect(personal.collections.map((c) => c.id)).toEqual([me.rootId, 'shared-root']);
    expect(personal.collections[0]?.name).toBe('My Space');
  });

  it('tags every top-level collection: shared-root, or a plain collection', async () => {
    const org = await createOrganization(db);
    const me = await createUser(db, org.id);
    const team = await createTeam(db, org.id);
    await addTeamMember(db, team, me.id);
    await createCollection(db, { team }, { name: 'Team tools' });
    await createCollection(db, { organizationId: org.id }, { name: 'Org handbook' });
    const menu = await getMenu((await signIn(app, me)).headers);
    expect(menu.spaces.map((s) => s.collections.map((c) => [c.type, c.name]))).toEqual([
      [
        ['collection', 'My Space'],
        ['shared-root', 'Shared collections'],
      ],
      [['collection', 'Team tools']],
      [['collection', 'Org handbook']],
    ]);
  });

  it('holds its answers to the schema: a wrong menu fails the check', async () => {
    const { me } = await world(1);
    const menu = await getMenu((await signIn(app, me)).headers);
    const copy = () => structuredClone(menu);

    const untagged = copy();
    Reflect.deleteProperty(untagged.spaces[0]!.collections[0]!, 'type');
    expect(schemaErrors(untagged)).toContain(
      "/spaces/0/collections/0 must have required property 'type'",
    );

    const leaking = copy();
    const orgLink = space(leaking, 'organization').collections[0]!.items[0]!;
    expect(orgLink.type).toBe('link');
    Object.assign(orgLink, { position: 3 });
    expect(schemaErrors(leaking)).toContain(
      '/spaces/3/collections/0/items/0 must NOT have additional properties',
    );

    const plainInSharedRoot = copy();
    const sharedRoot = space(plainInSharedRoot, 'personal').collections[1]!;
    expect(sharedRoot.items[0]?.type).toBe('collection-share');
    Object.assign(sharedRoot.items[0]!, { type: 'collection' });
    expect(schemaErrors(plainInSharedRoot)).toContain(
      '/spaces/0/collections/1/items/0/type must be equal to constant',
    );
    expect(schemaErrors(menu)).toEqual([]);
  });

  it('nests collections and orders items by position across links, favorites and collections', async () => {
    const org = await createOrganization(db);
    const me = await createUser(db, org.id);
    const team = await createTeam(db, org.id);
    await addTeamMember(db, team, me.id);
    const teamCol = await createCollection(db, { team }, { name: 'Tools' });
    const wiki = await createLink(db, teamCol, { name: 'Wiki', appName: 'Confluence' });
    const mySpaceRow = { id: me.rootId, organizationId: org.id };
    await createLink(db, mySpaceRow, { name: 'Second', position: 2 });
    const favorite = await createFavorite(db, me, wiki.id, me.rootId);
    await db.update(favorites).set({ position: 1 }).where(eq(favorites.id, favorite.id));
    const reading = await createCollection(db, { user: me }, { name: 'Reading', position: 0 });
    await createCollection(db, { user: me }, { name: 'Deep', parentId: reading.id });
    const menu = await getMenu((await signIn(app, me)).headers);
    const mySpace = space(menu, 'personal').collections[0] as Collection;
    expect(mySpace.items.map((i) => [i.type, i.name])).toEqual([
      ['collection', 'Reading'],
      ['link-favorite', 'Wiki'],
      ['link', 'Second'],
    ]);
    const readingItem = mySpace.items[0];
    expect(readingItem?.type === 'collection' && names(readingItem.items)).toEqual(['Deep']);
    expect(mySpace.items[1]).toMatchObject({
      type: 'link-favorite',
      linkId: wiki.id,
      appName: 'Confluence',
    });
    const teamSpace = space(menu, 'team');
    expect(teamSpace.collections.map((c) => c.name)).toEqual(['Tools']);
  });

  it('shows only what the person may see', async () => {
    const org = await createOrganization(db);
    const other = await createOrganization(db);
    const me = await createUser(db, org.id);
    const colleague = await createUser(db, org.id);
    const stranger = await createUser(db, other.id);
    const theirTeam = await createTeam(db, org.id);
    await addTeamMember(db, theirTeam, colleague.id);
    await createLink(db, await createCollection(db, { team: theirTeam }), { name: 'Team secret' });
    await createLink(db, await createCollection(db, { user: colleague }), { name: 'Private' });
    await createLink(db, await createCollection(db, { organizationId: other.id }), {
      name: 'Other org',
    });
    await createLink(db, await createCollection(db, { user: stranger }), { name: 'Stranger' });
    const body = JSON.stringify(await getMenu((await signIn(app, me)).headers));
    for (const hidden of ['Team secret', 'Private', 'Other org', 'Stranger', theirTeam.id]) {
      expect(body).not.toContain(hidden);
    }
  });

  it('puts a share in shared-root for its members, and where its owner keeps it for the owner', async () => {
    const org = await createOrganization(db);
    const owner = await createUser(db, org.id, { name: 'Owner' });
    const member = await createUser(db, org.id, { name: 'Member' });
    const outsider = await createUser(db, org.id, { name: 'Outsider' });
    await createCollection(db, { user: owner }, { name: 'Before' });
    const shared = await createCollection(db, { user: owner }, { name: 'Trip' });
    await createCollection(db, { user: owner }, { name: 'After' });
    const inner = await createCollection(
      db,
      { user: owner },
      { name: 'Hotels', parentId: shared.id },
    );
    await createLink(db, inner, { name: 'Hotel A', createdBy: member.id });
    const share = await createShare(db, owner, shared.id, [member.id]);
    const trip = {
      type: 'collection-share',
      id: shared.id,
      name: 'Trip',
      description: '',
      color: null,
      shareId: share.id,
      shareCreatorId: owner.id,
      // What each of them may do is menu-can.routes.test.ts's subject.
      can: expect.any(Object),
      linkCan: expect.any(Object),
      members: [
        { id: member.id, name: 'Member', email: member.email },
        { id: owner.id, name: 'Owner', email: owner.email },
      ],
      teams: [],
      items: [
        {
          type: 'collection',
          id: inner.id,
          name: 'Hotels',
          description: '',
          color: null,
          can: expect.any(Object),
          linkCan: expect.any(Object),
          items: [expect.objectContaining({ type: 'link', name: 'Hotel A', createdBy: member.id })],
        },
      ],
    };

    // The owner's share keeps its place among their collections, and shows once.
    const ownerMenu = await getMenu((await signIn(app, owner)).headers);
    const [mySpace, ownerShared] = space(ownerMenu, 'personal').collections;
    expect(names(mySpace!.items)).toEqual(['Before', 'Trip', 'After']);
    expect(mySpace!.items[1]).toEqual(trip);
    expect(ownerShared).toMatchObject({ id: 'shared-root', items: [] });

    // A member cannot see where the owner keeps it: it stands in their shared-root.
    const memberMenu = await getMenu((await signIn(app, member)).headers);
    const [memberSpace, sharedRoot] = space(memberMenu, 'personal').collections;
    expect(names(memberSpace!.items)).not.toContain('Trip');
    expect(sharedRoot?.id).toBe('shared-root');
    expect(sharedRoot?.items).toEqual([trip]);

    const outsiderMenu = JSON.stringify(await getMenu((await signIn(app, outsider)).headers));
    expect(outsiderMenu).not.toContain('Trip');
  });

  it('keeps a nested share of its owner inside the collection that holds it', async () => {
    const org = await createOrganization(db);
    const owner = await createUser(db, org.id);
    const member = await createUser(db, org.id);
    const projects = await createCollection(db, { user: owner }, { name: 'Projects' });
    const nested = await createCollection(
      db,
      { user: owner },
      { name: 'Launch', parentId: projects.id },
    );
    await createShare(db, owner, nested.id, [member.id]);
    const menu = await getMenu((await signIn(app, owner)).headers);
    const [mySpace, sharedRoot] = space(menu, 'personal').collections;
    const holder = mySpace!.items.find((item) => item.name === 'Projects');
    expect(holder).toMatchObject({
      type: 'collection',
      items: [{ type: 'collection-share', id: nested.id, name: 'Launch' }],
    });
    expect(sharedRoot!.items).toEqual([]);
  });

  it('drops a favorite when its link goes or access goes, and brings it back with access', async () => {
    const org = await createOrganization(db);
    const me = await createUser(db, org.id);
    const team = await createTeam(db, org.id);
    await addTeamMember(db, team, me.id);
    const col = await createCollection(db, { team });
    const kept = await createLink(db, col, { name: 'Kept' });
    const gone = await createLink(db, col, { name: 'Gone' });
    await createFavorite(db, me, kept.id);
    await createFavorite(db, me, gone.id);
    const { headers } = await signIn(app, me);
    const favoriteNames = async () =>
      (space(await getMenu(headers), 'personal').collections[0] as Collection).items
        .filter((i) => i.type === 'link-favorite')
        .map((i) => i.name);
    expect(await favoriteNames()).toEqual(['Kept', 'Gone']);
    await db.delete(links).where(eq(links.id, gone.id));
    await db.update(links).set({ name: 'Renamed' }).where(eq(links.id, kept.id));
    expect(await favoriteNames()).toEqual(['Renamed']);
    await db.delete(teamMemberships).where(eq(teamMemberships.userId, me.id));
    expect(await favoriteNames()).toEqual([]);
    await addTeamMember(db, team, me.id);
    expect(await favoriteNames()).toEqual(['Renamed']);
  });

  it('names the team buddy', async () => {
    const org = await createOrganization(db);
    const me = await createUser(db, org.id);
    const buddy = await createUser(db, org.id, { name: 'Helpful Hana' });
    const team = await createTeam(db, org.id, { buddyId: buddy.id });
    await addTeamMember(db, team, me.id);
    const menu = await getMenu((await signIn(app, me)).headers);
    expect(space(menu, 'team').buddy).toEqual({
      id: buddy.id,
      name: 'Helpful Hana',
      email: buddy.email,
    });
  });

  it('answers 304 to an unchanged menu and 200 once anything in it changes', async () => {
    const { me, org } = await world(1);
    const { headers } = await signIn(app, me);
    const first = await app.inject({ method: 'GET', url: '/api/consumer/menu', headers });
    menuOf(first);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/"/);
    const again = await app.inject({
      method: 'GET',
      url: '/api/consumer/menu',
      headers: { ...headers, 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers['content-length'] ?? '0').toBe('0');
    await createLink(db, await createCollection(db, { organizationId: org.id }), { name: 'New' });
    const changed = await app.inject({
      method: 'GET',
      url: '/api/consumer/menu',
      headers: { ...headers, 'if-none-match': etag },
    });
    menuOf(changed);
    expect(changed.headers.etag).not.toBe(etag);
    expect(changed.body).toContain('"New"');
    await db.update(users).set({ name: 'Ada King' }).where(eq(users.id, me.id));
    const renamed = await app.inject({
      method: 'GET',
      url: '/api/consumer/menu',
      headers: { ...headers, 'if-none-match': changed.headers.etag as string },
    });
    expect(menuOf(renamed).profile.name).toBe('Ada King');
  });

  it('runs the same number of SQL statements (at most 8) whatever the size of the data', async () => {
    const built: number[] = [];
    const held: number[] = [];
    for (const size of [1, 6]) {
      const { me } = await world(size);
      const { headers } = await signIn(app, me);
      // The first answer is built by the menu statement; the second is joined from the text
      // the server holds for the same versions (decision 0057).
      let before = database.statements.count;
      await getMenu(headers);
      built.push(database.statements.count - before);
      before = database.statements.count;
      const menu = await getMenu(headers);
      held.push(database.statements.count - before);
      expect(JSON.stringify(menu).length).toBeGreaterThan(size * 500);
    }
    expect(built[0]).toBe(built[1]);
    expect(built[0]).toBeLessThanOrEqual(8);
    expect(held).toEqual([1, 1]);
  });
});
