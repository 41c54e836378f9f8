import type { CollectionShareItem } from '@signpost/contract';
import { describe, expect, it } from 'vitest';
import { ADD_LINK_ID, SHARED_ROOT_ID } from '../constants';
import { makeLink, makeMenu, PROFILE } from '../../test/menu-fixture';
import { locateItem } from './locate-item';
import { processMenu, spaceItems } from './process-menu';
import { FAVORITE, OWN_LINK, OWNED, READ_LINK, RUN_LINK } from '../../test/can-fixture';

function share(id: string, creator: string): CollectionShareItem {
  return {
    type: 'collection-share',
    id,
    name: `Share ${id}`,
    description: '',
    color: null,
    shareId: `share-${id}`,
    shareCreatorId: creator,
    members: [PROFILE],
    teams: [],
    can: OWNED,
    linkCan: OWN_LINK,
    items: [makeLink({ name: `Inside ${id}` })],
  };
}

describe('processMenu', () => {
  it('puts the Add item first in the personal space’s first non-shared collection', () => {
    const first = makeLink();
    const menu = processMenu(makeMenu({ myItems: [first] }));
    const personal = menu.spaces[0]!;
    expect(personal.collections[0]!.items.map((item) => item.id)).toEqual([ADD_LINK_ID, first.id]);
    expect(personal.collections[0]!.items[0]).toMatchObject({
      type: 'addlink',
      collectionId: 'my',
    });
    // Only the personal space gets one.
    const others = menu.spaces.slice(1).flatMap(spaceItems);
    expect(others.some((item) => item.type === 'addlink')).toBe(false);
  });

  it('moves shares the current person created from shared-root into the personal list', () => {
    const mine = share('mine', PROFILE.id);
    const theirs = share('theirs', 'someone-else');
    const menu = processMenu(makeMenu({ sharedItems: [mine, theirs] }));
    const [own, sharedRoot] = menu.spaces[0]!.collections;
    expect(own!.items.map((item) => item.id)).toEqual([ADD_LINK_ID, 'mine']);
    expect(sharedRoot!.id).toBe(SHARED_ROOT_ID);
    expect(sharedRoot!.items.map((item) => item.id)).toEqual(['theirs']);
  });

  it('replaces the owner’s own copy of a shared collection instead of showing it twice', () => {
    const mine = share('nested', PROFILE.id);
    const menu = processMenu(
      makeMenu({
        myItems: [
          {
            type: 'collection',
            id: 'outer',
            name: 'Outer',
            description: '',
            color: null,
            can: OWNED,
            linkCan: OWN_LINK,
            items: [
              {
                type: 'collection',
                id: 'nested',
                name: 'Nested',
                description: '',
                color: null,
                can: OWNED,
                linkCan: OWN_LINK,
                items: [],
              },
            ],
          },
        ],
        sharedItems: [mine],
      }),
    );
    const own = menu.spaces[0]!.collections[0]!;
    expect(own.items.map((item) => item.id)).toEqual([ADD_LINK_ID, 'outer']);
    const found = locateItem(menu.spaces, 'collection-share', 'nested');
    expect(found?.item).toMatchObject({ type: 'collection-share', shareId: 'share-nested' });
    const path = found && [found.space.name, ...found.ancestors.map((ancestor) => ancestor.name)];
    expect(path).toEqual(['My Space', 'My Space', 'Outer']);
  });

  it('gives each link the flags of its collection unless the link sent its own', () => {
    const { can: _, ...plain } = makeLink({ id: 'plain' });
    const own = makeLink({ id: 'own', can: RUN_LINK });
    const menu = processMenu(
      makeMenu({
        teamItems: [
          plain,
          {
            type: 'collection',
            id: 'inner',
            name: 'Inner',
            description: '',
            color: null,
            can: OWNED,
            linkCan: OWN_LINK,
            items: [{ ...plain, id: 'nested' }, own],
          },
        ],
      }),
    );
    const canOf = (id: string) => locateItem(menu.spaces, 'link', id)?.item;
    // The team's collection sends READ_LINK for its links (a plain member's).
    expect(canOf('plain')).toMatchObject({ can: READ_LINK });
    expect(canOf('nested')).toMatchObject({ can: OWN_LINK });
    expect(canOf('own')).toMatchObject({ can: RUN_LINK });
    expect(menu.searchIndex.find((entry) => entry.item.id === 'nested')?.item.can).toEqual(
      OWN_LINK,
    );
  });

  it('flattens every link and favorite into the search index with its location', () => {
    const deep = makeLink({ name: 'Deep', description: 'Hidden Gem', appName: 'Jira' });
    const menu = processMenu(
      makeMenu({
        myItems: [
          {
            type: 'collection',
            id: 'c1',
            name: 'Projects',
            description: '',
            color: null,
            can: OWNED,
            linkCan: OWN_LINK,
            items: [deep],
          },
        ],
        teamItems: [
          {
            type: 'link-favorite',
            id: 'fav',
            linkId: 'orig',
            can: FAVORITE,
            name: 'Fav',
            description: '',
            url: 'https://fav.example.com',
            icon: null,
            appName: null,
          },
        ],
      }),
    );
    const entry = menu.searchIndex.find((candidate) => candidate.item.id === deep.id);
    expect(entry).toMatchObject({
      parentName: 'Projects',
      locationTree: ['My Space', 'Projects'],
      topParentType: 'personal',
    });
    expect(entry!.haystack).toBe('deep\njira\nprojects\nhidden gem');
    const payroll = menu.searchIndex.find((candidate) => candidate.item.name === 'Payroll');
    // A collection whose name differs from its space keeps both in the path.
    expect(payroll?.locationTree).toEqual(['Acme Corp', 'HR']);
    expect(menu.searchIndex.map((candidate) => candidate.item.name)).toEqual([
      'Deep',
      'Fav',
      'Payroll',
    ]);
    expect(menu.searchIndex.find((candidate) => candidate.item.id === 'fav')?.topParentType).toBe(
      'team',
    );
  });
});
