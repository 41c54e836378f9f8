import { describe, expect, it } from 'vitest';
import { makeLink, makeMenu, PROFILE } from '../../test/menu-fixture';
import { favorite, OTHER, panelsMenu } from '../../test/panels-fixture';
import { SHARED_ROOT_ID } from '../constants';
import { RUNS } from '../../test/can-fixture';
import { findMySpace, locateCollection } from './locate-item';
import { processMenu } from './process-menu';
import {
  addPanelParent,
  appLinksOf,
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
});

describe('where links are added and moved', () => {
  it('addPanelParent: the collection itself at the top, else My Space', () => {
    expect(addPanelParent('my', true, 'my')).toBe('my');
    expect(addPanelParent('projects', false, 'my')).toBe('my');
    expect(addPanelParent('projects', false, null)).toBe('projects');
  });

  it('dropParentOf: the parent when the person may add to it, never the shared-with-me list', () => {
    const inner = at('inner');
    expect(dropParentOf(inner.parent)).toEqual({ id: 'projects', name: 'Projects' });
    expect(dropParentOf(null)).toBeNull();
    expect(dropParentOf(at(SHARED_ROOT_ID).collection)).toBeNull();
    // A team collection as its plain member sees it: read-only.
    expect(dropParentOf(at('team-tools').collection)).toBeNull();
    const editor = processMenu(makeMenu({ teamCan: RUNS, teamEditor: true }));
    expect(dropParentOf(locateCollection(editor.spaces, 'team-tools')!.collection)).toEqual({
      id: 'team-tools',
      name: 'Tools',
    });
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
