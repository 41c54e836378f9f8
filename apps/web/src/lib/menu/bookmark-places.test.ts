import { describe, expect, it } from 'vitest';
import { MY_SPACE, RUNS } from '../../test/can-fixture';
import { makeMenu } from '../../test/menu-fixture';
import { panelsMenu } from '../../test/panels-fixture';
import { spaceImportTarget } from './bookmark-places';
import { exportScope, importPlaceName } from './bookmark-scope';
import { processMenu } from './process-menu';

const spacesOf = (...args: Parameters<typeof makeMenu>) => processMenu(makeMenu(...args)).spaces;

describe('where bookmarks may come in', () => {
  it('brings a file into My Space for its owner, and into a space for those who run it', () => {
    const [personal, team, organization] = spacesOf({ teamEditor: true, teamCan: RUNS });
    expect(spaceImportTarget(personal!)).toEqual({ into: 'new' });
    expect(spaceImportTarget(team!)).toEqual({ into: 'new', spaceId: 'team-1' });
    expect(spaceImportTarget(organization!)).toBeNull();
    expect(spaceImportTarget(spacesOf({ admin: true })[2]!)).toEqual({
      into: 'new',
      spaceId: 'org-space',
    });
  });

  it('brings none into a My Space that may not hold a new collection', () => {
    const [personal] = spacesOf();
    personal!.collections[0]!.can = { ...MY_SPACE, addCollection: false };
    expect(spaceImportTarget(personal!)).toBeNull();
  });

  it('names the place: the collection, the space, or My Space', () => {
    const spaces = panelsMenu().spaces;
    expect(importPlaceName(spaces, { into: 'collection', collectionId: 'inner' })).toBe('Inner');
    expect(importPlaceName(spaces, { into: 'new', spaceId: 'team-1' })).toBe('Engineering');
    expect(importPlaceName(spaces, { into: 'new' })).toBe('My Space');
  });
});

describe('what an export is of', () => {
  it('asks for a space by its kind, a team by its id, and offers a policy outside My Space', () => {
    const spaces = spacesOf();
    expect(exportScope(spaces, { spaceId: 'personal' })).toEqual({
      query: { space: 'personal' },
      name: 'My Space',
      managed: false,
    });
    expect(exportScope(spaces, { spaceId: 'team-1' })).toEqual({
      query: { space: 'team-1' },
      name: 'Engineering',
      managed: true,
    });
    expect(exportScope(spaces, { spaceId: 'org-space' })?.query).toEqual({ space: 'organization' });
  });

  it('asks for a collection by its id, wherever it is, and nothing once it is gone', () => {
    const spaces = panelsMenu().spaces;
    expect(exportScope(spaces, { collectionId: 'inner' })).toEqual({
      query: { collectionId: 'inner' },
      name: 'Inner',
      managed: false,
    });
    expect(exportScope(spaces, { collectionId: 'team-sub' })?.managed).toBe(true);
    expect(exportScope(spaces, { collectionId: 'gone' })).toBeNull();
  });
});
