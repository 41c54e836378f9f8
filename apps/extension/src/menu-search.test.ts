import { describe, expect, it } from 'vitest';
import { indexLinks, placesOf, searchLinks } from './menu-search';
import { favorite, makeMenu } from './test/menu-fixture';

describe('searching the menu’s links', () => {
  const index = indexLinks(makeMenu());

  it('lists every link once, where it lives; a favorite as its original', () => {
    expect(index.map((link) => [link.name, link.where])).toEqual([
      ['Standup notes', 'My Space'],
      ['MDN Web Docs', 'My Space › Reading list'],
      ['Strange Loop', 'My Space › Reading list › Talks'],
      ['Storybook', 'My Space › Design system'],
      ['Team wiki', 'Engineering › Code & delivery'],
      ['HR portal', 'Acme › Company essentials'],
    ]);
  });

  it('keeps a favorite whose original the menu does not hold', () => {
    const menu = makeMenu();
    const mySpace = menu.spaces[0]!.collections[0]!;
    if (mySpace.type !== 'collection') throw new Error('My Space comes first');
    mySpace.items.push(
      favorite('f-gone', 'l-elsewhere', 'Old intranet', 'https://old.acme.example/'),
    );
    expect(indexLinks(menu).map((link) => link.name)).toContain('Old intranet');
  });

  it('finds by name, address and description, every word, best names first', () => {
    expect(searchLinks(index, 'wiki').map((link) => link.name)).toEqual(['Team wiki']);
    expect(searchLinks(index, 'youtube').map((link) => link.name)).toEqual(['Strange Loop']);
    expect(searchLinks(index, 'payslips').map((link) => link.name)).toEqual(['HR portal']);
    expect(searchLinks(index, 'WEB platform').map((link) => link.name)).toEqual(['MDN Web Docs']);
    expect(searchLinks(index, 'web docs nothing')).toEqual([]);
    expect(searchLinks(index, '   ')).toEqual([]);
  });

  it('ranks the whole name, then its start, then a word’s start, then anywhere', () => {
    const links = ['Notes', 'Team notes', 'Notes archive', 'Keynotes'].map((name, i) => ({
      id: String(i),
      name,
      url: 'https://acme.example/',
      description: '',
      where: 'My Space',
    }));
    expect(searchLinks(links, 'notes').map((link) => link.name)).toEqual([
      'Notes',
      'Notes archive',
      'Team notes',
      'Keynotes',
    ]);
  });

  it('says where an address already is, as the portal stores it', () => {
    expect(placesOf(index, 'https://wiki.acme.example')).toEqual(['Engineering › Code & delivery']);
    expect(placesOf(index, 'https://nowhere.acme.example/')).toEqual([]);
    expect(placesOf(index, 'not an address')).toEqual([]);
  });
});
