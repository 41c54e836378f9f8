import { describe, expect, it } from 'vitest';
import { makeLink, makeMenu, PROFILE } from '../../test/menu-fixture';
import { favorite, OTHER, panelsMenu } from '../../test/panels-fixture';
import { SHARED_ROOT_ID } from '../constants';
import { FAVORITE, RUNS } from '../../test/can-fixture';
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
    // Its own favorite is the same link, not another one of the app.
    expect(appLinksOf(menu, team)).toEqual([]);
    expect(appLinksOf(menu, findEntry(menu, 'link', 'root-link')!)).toEqual([]);
  });

  it('appLinksOf: lists each link once, a favorite and its link as one', () => {
    const app = { appName: 'GitHub' };
    const teamLink = makeLink({ id: 'gh', name: 'GitHub', url: 'https://github.com/', ...app });
    const processed = processMenu(
      makeMenu({
        myItems: [
          makeLink({
            id: 'pulls',
            name: 'My pull requests',
            url: 'https://github.com/pulls',
            ...app,
          }),
          {
            type: 'link-favorite',
            id: 'fav-gh',
            linkId: 'gh',
            name: 'GitHub',
            description: '',
            url: 'https://github.com/',
            icon: null,
            appName: 'GitHub',
            can: FAVORITE,
          },
          // Another entry with the address of one already listed.
          makeLink({ id: 'gh-copy', name: 'GitHub again', url: 'https://github.com/', ...app }),
          makeLink({ id: 'issues', name: 'Issues', url: 'https://github.com/issues', ...app }),
        ],
        teamItems: [teamLink],
      }),
    );
    const names = (id: string, type: 'link' | 'link-favorite' = 'link') =>
      appLinksOf(processed, findEntry(processed, type, id)!).map((link) => link.name);
    expect(names('pulls')).toEqual(['GitHub', 'Issues']);
    // From the team's link or from its favorite, the other one is not "another link".
    expect(names('gh')).toEqual(['My pull requests', 'Issues']);
    expect(names('fav-gh', 'link-favorite')).toEqual(['My pull requests', 'Issues']);
  });
});
