import { describe, expect, it } from 'vitest';
import { RECENT_LIST_MAX_ENTRIES } from './constants';
import { makeLink } from '../test/menu-fixture';
import { FAVORITE } from '../test/can-fixture';
import { lastUsedOf, pushRecent } from './recent-lists';

const same = (a: string, b: string) => a === b;

describe('pushRecent', () => {
  it('puts the newest entry first', () => {
    expect(pushRecent(['b', 'a'], 'c', same)).toEqual(['c', 'b', 'a']);
  });

  it('never holds duplicates: a repeated entry moves to the front', () => {
    expect(pushRecent(['c', 'b', 'a'], 'a', same)).toEqual(['a', 'c', 'b']);
  });

  it('keeps at most six entries, dropping the oldest', () => {
    let list: string[] = [];
    for (const entry of ['1', '2', '3', '4', '5', '6', '7', '8'])
      list = pushRecent(list, entry, same);
    expect(list).toHaveLength(RECENT_LIST_MAX_ENTRIES);
    expect(list).toEqual(['8', '7', '6', '5', '4', '3']);
  });

  it('does not drop anything when a duplicate of a full list is pushed', () => {
    const full = ['6', '5', '4', '3', '2', '1'];
    expect(pushRecent(full, '1', same)).toEqual(['1', '6', '5', '4', '3', '2']);
  });
});

describe('lastUsedOf', () => {
  const original = makeLink({ name: 'GitHub', url: 'https://github.com', icon: '/icon.png' });

  it('remembers a link by its id, name, address and icon', () => {
    expect(lastUsedOf(original)).toEqual({
      id: original.id,
      name: 'GitHub',
      url: 'https://github.com',
      icon: '/icon.png',
    });
  });

  it('remembers a favorite as its original, so that the two are one entry', () => {
    const favorite = {
      ...original,
      type: 'link-favorite' as const,
      id: 'favorite-1',
      linkId: original.id,
      can: FAVORITE,
    };
    const sameLink = (a: { id: string }, b: { id: string }) => a.id === b.id;
    const list = pushRecent([lastUsedOf(original)], lastUsedOf(favorite), sameLink);
    expect(list).toEqual([lastUsedOf(original)]);
  });
});
