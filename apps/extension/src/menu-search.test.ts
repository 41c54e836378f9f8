import { createLinkSearch } from '@signpost/link-search';
import { describe, expect, it } from 'vitest';
import { indexLinks, placesOf } from './menu-search';
import { favorite, makeMenu } from './test/menu-fixture';

describe('indexing the menu’s links', () => {
  const index = indexLinks(makeMenu());

  it('lists every link and favorite in the menu’s order, where it lives', () => {
    expect(index.map(({ item, where }) => [item.type, item.name, where])).toEqual([
      ['link', 'Standup notes', 'My Space'],
      ['link-favorite', 'Team wiki', 'My Space'],
      ['link', 'MDN Web Docs', 'My Space › Reading list'],
      ['link', 'Strange Loop', 'My Space › Reading list › Talks'],
      ['link', 'Storybook', 'My Space › Design system'],
      ['link', 'Team wiki', 'Engineering › Code & delivery'],
      ['link', 'HR portal', 'Acme › Company essentials'],
    ]);
  });

  it('searches what the portal searches: the name, appName, collection and description, not the address', () => {
    const loop = index.find(({ item }) => item.id === 'l-loop');
    expect(loop?.haystack).toBe('strange loop\n\ntalks\n');
    const mdn = index.find(({ item }) => item.id === 'l-mdn');
    expect(mdn?.haystack).toBe('mdn web docs\n\nreading list\nthe web platform');
  });

  it('finds a favorite once, as its original, where the original lives', () => {
    const { results, total } = createLinkSearch(index)('wiki', 8);
    expect(results.map(({ item, where }) => [item.id, where])).toEqual([
      ['l-wiki', 'Engineering › Code & delivery'],
    ]);
    expect(total).toBe(1);
  });

  it('keeps a favorite whose original the menu does not hold', () => {
    const menu = makeMenu();
    const mySpace = menu.spaces[0]!.collections[0]!;
    if (mySpace.type !== 'collection') throw new Error('My Space comes first');
    mySpace.items.push(
      favorite('f-gone', 'l-elsewhere', 'Old intranet', 'https://old.acme.example/'),
    );
    const results = createLinkSearch(indexLinks(menu))('intranet', 8).results;
    expect(results.map(({ item, where }) => [item.id, where])).toEqual([['f-gone', 'My Space']]);
  });

  it('says where an address already is, as the portal stores it', () => {
    expect(placesOf(index, 'https://wiki.acme.example')).toEqual(['Engineering › Code & delivery']);
    expect(placesOf(index, 'https://nowhere.acme.example/')).toEqual([]);
    expect(placesOf(index, 'not an address')).toEqual([]);
  });
});
