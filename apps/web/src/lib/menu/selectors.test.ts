import { describe, expect, it } from 'vitest';
import { makeLink, makeMenu, PROFILE } from '../../test/menu-fixture';
import { favorite, makeShare, OTHER, panelsMenu } from '../../test/panels-fixture';
import { SHARED_ROOT_ID } from '../constants';
import { findMySpace, locateCollection } from './locate-item';
import { processMenu } from './process-menu';
import {
  addPanelParent,
  appLinksOf,
  canAddLink,
  canShare,
  dropParentOf,
  favoriteOf,
  findEntry,
  isShared,
  membersOf,
  shareCreatorOf,
  shareIdOf,
} from './selectors';

const menu = panelsMenu();
const mySpaceId = findMySpace(menu.spaces)!.id;
const at = (id: string, spaces = menu.spaces) => locateCollection(spaces, id)!;

/** The menu's rule for one collection, as the panels ask it. */
function mayShare(id: string, spaces = menu.spaces) {
  const { collection, space, parent } = at(id, spaces);
  return canShare(spaces, PROFILE.id, collection, space.type, parent === null);
}

describe('share selectors', () => {
  it('read a share’s id, members and creator, and nothing from a collection not shared', () => {
    const own = at('own').collection;
    expect(shareIdOf(own)).toBe('share-own');
    expect(isShared(own)).toBe(true);
    expect(membersOf(own)).toEqual([PROFILE, OTHER]);
    expect(shareCreatorOf(own)).toBe(PROFILE.id);
    for (const id of ['projects', mySpaceId, 'team-sub']) {
      const { collection } = at(id);
      expect([shareIdOf(collection), isShared(collection)]).toEqual([null, false]);
      expect(membersOf(collection)).toEqual([]);
      expect(shareCreatorOf(collection)).toBeNull();
    }
  });

  it.each([
    ['a personal collection', 'projects', true],
    ['a collection nested in a personal one', 'inner', true],
    ['the owner’s share', 'own', true],
    ['a share someone else owns', 'theirs', false],
    ['a collection inside a team space', 'team-sub', false],
    ['My Space itself', mySpaceId, false],
    ['the shared-with-me list', SHARED_ROOT_ID, false],
  ])('canShare: %s', (_case, id, expected) => {
    expect(mayShare(id)).toBe(expected);
  });

  it('canShare: nothing inside a share is shared again', () => {
    const inside = {
      type: 'collection' as const,
      id: 'deep',
      name: 'Deep',
      description: '',
      color: null,
      items: [],
    };
    const spaces = processMenu(
      makeMenu({ sharedItems: [makeShare('mine', PROFILE.id, [PROFILE, OTHER], [inside])] }),
    ).spaces;
    expect(mayShare('mine', spaces)).toBe(true);
    expect(mayShare('deep', spaces)).toBe(false);
  });
});

describe('where links are added and moved', () => {
  it.each([
    ['My Space', mySpaceId, true],
    ['a personal collection', 'projects', true],
    ['the shared-with-me list', SHARED_ROOT_ID, false],
    ['a team collection', 'team-sub', false],
  ])('canAddLink: %s', (_case, id, expected) => {
    const { collection, space } = at(id);
    expect(canAddLink(collection, space.type)).toBe(expected);
  });

  it('addPanelParent: the collection itself at the top, else My Space', () => {
    expect(addPanelParent('my', true, 'my')).toBe('my');
    expect(addPanelParent('projects', false, 'my')).toBe('my');
    expect(addPanelParent('projects', false, null)).toBe('projects');
  });

  it('dropParentOf: the parent in the personal space, never the shared-with-me list', () => {
    const inner = at('inner');
    expect(dropParentOf(inner.space.type, inner.parent)).toEqual({
      id: 'projects',
      name: 'Projects',
    });
    expect(dropParentOf('personal', null)).toBeNull();
    expect(dropParentOf('personal', at(SHARED_ROOT_ID).collection)).toBeNull();
    expect(dropParentOf('team', at('team-tools').collection)).toBeNull();
  });
});

describe('link selectors', () => {
  it('findEntry finds a link by type and id', () => {
    expect(findEntry(menu, 'link', 'team-link')?.item.name).toBe('Team wiki');
    expect(findEntry(menu, 'link-favorite', 'team-link')).toBeNull();
    expect(findEntry(menu, 'link-favorite', 'fav-1')?.item).toEqual(favorite);
  });

  it('favoriteOf: the favorite of a team link; none for a personal link or one not favorited', () => {
    expect(favoriteOf(menu, findEntry(menu, 'link', 'team-link')!)?.id).toBe('fav-1');
    expect(favoriteOf(menu, findEntry(menu, 'link', 'root-link')!)).toBeNull();
    const plain = processMenu(
      makeMenu({ teamItems: [makeLink({ id: 'lonely', appName: 'Jira' })] }),
    );
    expect(favoriteOf(plain, findEntry(plain, 'link', 'lonely')!)).toBeNull();
  });

  it('appLinksOf: the other links of the same app, none without an app', () => {
    const team = findEntry(menu, 'link', 'team-link')!;
    expect(appLinksOf(menu, team).map((link) => link.id)).toEqual(['fav-1']);
    expect(appLinksOf(menu, findEntry(menu, 'link', 'root-link')!)).toEqual([]);
  });
});
