// What the menu says each person may do (decision 0008): the `can` flags per role, checked
// against the contract, and the open suggestions the people who run a space see.
import {
  MenuResponse,
  type LinkCan,
  type Menu,
  type MenuItem,
  type Space,
} from '@signpost/contract';
import Ajv from 'ajv';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/app.ts';
import { createSignedInCast, createWorld, type Person } from '../../../test/support/world.ts';

const { app, db } = await createTestApp();
const cast = await createSignedInCast(app, db);
const w = await createWorld(db, cast);

const checkMenu = new Ajv({ strict: true, allErrors: true }).compile(MenuResponse);

async function menuOf(person: Person, etag?: string): Promise<Menu> {
  const response = await app.inject({
    method: 'GET',
    url: '/api/consumer/menu',
    headers: { ...person.headers, ...(etag ? { 'if-none-match': etag } : {}) },
  });
  expect(response.statusCode).toBe(200);
  const menu = response.json<Menu>();
  expect(checkMenu(menu), JSON.stringify(checkMenu.errors)).toBe(true);
  return menu;
}

type Found = MenuItem | Space['collections'][number];

/** The collection or item of the menu with this id (and type, for links and favorites), as sent. */
function sent(menu: Menu, id: string, type?: string): { found: Found; linkCan: LinkCan | null } {
  const walk = (
    items: readonly Found[],
    linkCan: LinkCan | null,
  ): { found: Found; linkCan: LinkCan | null } | undefined => {
    for (const item of items) {
      if (item.id === id && (!type || item.type === type)) return { found: item, linkCan };
      const inner = 'items' in item ? walk(item.items, item.linkCan) : undefined;
      if (inner) return inner;
    }
    return undefined;
  };
  const found = walk(
    menu.spaces.flatMap((space) => space.collections),
    null,
  );
  if (!found) throw new Error(`${id} is not in the menu`);
  return found;
}

/**
 * The collection or item with this id, a link with the flags it has: its own `can`, or else
 * the `linkCan` of the collection that holds it.
 */
function find(menu: Menu, id: string, type?: string): { can: unknown } {
  const { found, linkCan } = sent(menu, id, type);
  if (found.type === 'link') return { ...found, can: found.can ?? linkCan };
  return found;
}

const spaceOf = (menu: Menu, type: Space['type']) => menu.spaces.find((s) => s.type === type)!;

const readOnly = {
  edit: false,
  delete: false,
  move: false,
  reorder: false,
  addLink: false,
  addCollection: false,
  share: false,
  leave: false,
  suggest: true,
};
const runs = { ...readOnly, edit: true, delete: true, move: true, reorder: true };
const running = { ...runs, addLink: true, addCollection: true };

describe('the can flags of the menu', () => {
  it('lets the owner change their own collections, and share those that can be shared', async () => {
    const menu = await menuOf(cast.owner);
    expect(find(menu, cast.owner.rootId).can).toEqual({
      ...running,
      // My Space is neither deleted nor moved; it holds a favorite, and is never shared.
      delete: false,
      move: false,
      suggest: false,
    });
    expect(find(menu, w.spaces.own.id).can).toMatchObject({ share: true, delete: true });
    expect(find(menu, w.spaces.shared.id).can).toMatchObject({ share: true, leave: false });
    // Shares do not nest.
    expect(find(menu, w.spaces.sharedSub.id).can).toMatchObject({ share: false, edit: true });
    expect(find(menu, 'shared-root').can).toEqual({ ...readOnly, suggest: false });
    expect(find(menu, w.links.own.id, 'link').can).toEqual({
      edit: true,
      delete: true,
      move: true,
      favorite: false,
    });
    expect(find(menu, w.favorite.id, 'link-favorite').can).toEqual({
      edit: false,
      delete: true,
      move: true,
      favorite: false,
    });
    expect(spaceOf(menu, 'personal').can).toEqual({ addCollection: false });
    expect(menu.can).toEqual({ administer: false, organization: false });
  });

  it('lets a member of a share add and leave, and change only the links they added', async () => {
    const menu = await menuOf(cast.member);
    expect(find(menu, w.spaces.shared.id).can).toEqual({
      ...readOnly,
      suggest: false,
      addLink: true,
      leave: true,
    });
    expect(find(menu, w.spaces.sharedSub.id).can).toMatchObject({ addLink: true, leave: false });
    expect(find(menu, w.links.memberInShare.id, 'link').can).toMatchObject({ edit: true });
    expect(find(menu, w.links.ownerInShare.id, 'link').can).toMatchObject({
      edit: false,
      delete: false,
      move: false,
    });
  });

  it('keeps team and organization content read-only for their plain members', async () => {
    const menu = await menuOf(cast.teamMember);
    expect(find(menu, w.spaces.team.id).can).toEqual(readOnly);
    expect(find(menu, w.spaces.organization.id).can).toEqual(readOnly);
    expect(find(menu, w.links.team.id, 'link').can).toEqual({
      edit: false,
      delete: false,
      move: false,
      favorite: true,
    });
    const team = spaceOf(menu, 'team');
    expect(team.can).toEqual({ addCollection: false });
    expect(team).not.toHaveProperty('openSuggestions');
    expect(spaceOf(menu, 'organization')).not.toHaveProperty('openSuggestions');
    expect(menu.can).toEqual({ administer: false, organization: false });
  });

  it("lets a team's editor run its space, and only that one", async () => {
    const menu = await menuOf(cast.teamEditor);
    expect(find(menu, w.spaces.team.id).can).toEqual(running);
    expect(find(menu, w.spaces.teamSub.id).can).toEqual(running);
    expect(find(menu, w.links.team.id, 'link').can).toEqual({
      edit: true,
      delete: true,
      move: true,
      favorite: true,
    });
    expect(spaceOf(menu, 'team')).toMatchObject({ can: { addCollection: true } });
    expect(find(menu, w.spaces.organization.id).can).toEqual(readOnly);
    expect(spaceOf(menu, 'organization').can).toEqual({ addCollection: false });
    expect(menu.can).toEqual({ administer: true, organization: false });
  });

  it('lets an administrator run the organization space', async () => {
    const menu = await menuOf(cast.orgAdmin);
    expect(find(menu, w.spaces.organization.id).can).toEqual(running);
    expect(find(menu, w.links.organization.id, 'link').can).toMatchObject({ edit: true });
    expect(spaceOf(menu, 'organization').can).toEqual({ addCollection: true });
    expect(menu.can).toEqual({ administer: true, organization: true });
  });

  it('sends link flags once per collection, and on a link only where they differ', async () => {
    const member = await menuOf(cast.member);
    // In a share, the links a member added are theirs to change: they say so themselves.
    const mine = sent(member, w.links.memberInShare.id, 'link');
    expect(mine.found).toHaveProperty('can', {
      ...mine.linkCan,
      edit: true,
      delete: true,
      move: true,
    });
    expect(mine.linkCan).toMatchObject({ edit: false, delete: false, move: false });
    // The owner's link in the same share follows the collection's flags.
    expect(sent(member, w.links.ownerInShare.id, 'link').found).not.toHaveProperty('can');
    // No link of a team or of the organization carries flags of its own.
    const links: MenuItem[] = [];
    const walk = (items: readonly Found[]) => {
      for (const item of items) {
        if (item.type === 'link') links.push(item);
        if ('items' in item) walk(item.items);
      }
    };
    for (const space of member.spaces.filter((s) => s.type !== 'personal')) walk(space.collections);
    expect(links.length).toBeGreaterThan(0);
    expect(links.filter((link) => 'can' in link)).toEqual([]);
    expect(sent(member, 'shared-root').found).toHaveProperty('linkCan', {
      edit: false,
      delete: false,
      move: false,
      favorite: false,
    });
  });

  it('counts the open suggestions of a space for those who run it, and a new one shows', async () => {
    const suggest = (person: Person, collectionId: string) =>
      app.inject({
        method: 'POST',
        url: `/api/consumer/collections/${collectionId}/suggestions`,
        headers: person.headers,
        payload: { name: 'Idea', url: 'https://idea.example' },
      });
    const first = await app.inject({
      method: 'GET',
      url: '/api/consumer/menu',
      headers: cast.teamEditor.headers,
    });
    const before = first.json<Menu>();
    const teamBefore = spaceOf(before, 'team').openSuggestions ?? -1;
    expect(teamBefore).toBeGreaterThanOrEqual(0);

    expect((await suggest(cast.teamMember, w.spaces.teamSub.id)).statusCode).toBe(204);
    expect((await suggest(cast.teamMember, w.spaces.organization.id)).statusCode).toBe(204);
    // The menu's version moved: the cached answer is not reused.
    const editorMenu = await menuOf(cast.teamEditor, first.headers.etag as string);
    expect(spaceOf(editorMenu, 'team').openSuggestions).toBe(teamBefore + 1);
    expect(spaceOf(editorMenu, 'organization')).not.toHaveProperty('openSuggestions');
    const adminMenu = await menuOf(cast.orgAdmin);
    expect(spaceOf(adminMenu, 'organization').openSuggestions).toBeGreaterThanOrEqual(1);
    const memberMenu = await menuOf(cast.teamMember);
    expect(spaceOf(memberMenu, 'team')).not.toHaveProperty('openSuggestions');
  });
});
