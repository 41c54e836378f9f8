import { afterEach, describe, expect, it } from 'vitest';
import {
  closeConsole,
  consolePath,
  openConsoleView,
  parseConsolePath,
  type ConsoleView,
} from './console-address';

afterEach(() => window.history.replaceState(null, '', '/'));

describe("the console's addresses", () => {
  it.each<[string, ConsoleView | null]>([
    ['/', null],
    ['/consoles', null],
    ['/console', { section: null, id: null, space: false }],
    ['/console/', { section: null, id: null, space: false }],
    ['/console/people', { section: 'people', id: null, space: false }],
    ['/console/people/p1', { section: 'people', id: 'p1', space: false }],
    ['/console/teams/t1', { section: 'teams', id: 't1', space: false }],
    ['/console/teams/t1/space', { section: 'teams', id: 't1', space: true }],
    ['/console/broken-links', { section: 'broken-links', id: null, space: false }],
    ['/console/organization', { section: 'organization', id: null, space: false }],
    ['/console/audit/x', { section: 'audit', id: null, space: false }],
    // Addresses of the console that name nothing it has open its first section.
    ['/console/nothing', { section: null, id: null, space: false }],
    ['/console/teams/t1/space/more', { section: null, id: null, space: false }],
    ['/console/people/%E0%A4%A', { section: 'people', id: null, space: false }],
  ])('%s is %o', (path, view) => {
    expect(parseConsolePath(path)).toEqual(view);
  });

  it('prints each view as the address that reads back as it', () => {
    const views: ConsoleView[] = [
      { section: null, id: null, space: false },
      { section: 'people', id: 'a b/c', space: false },
      { section: 'teams', id: 't1', space: true },
      { section: 'audit', id: null, space: false },
    ];
    for (const view of views) expect(parseConsolePath(consolePath(view))).toEqual(view);
    expect(consolePath({ section: 'audit', id: 'x' })).toBe('/console/audit');
  });

  it('counts the entries since the portal, and opens the portal after a console opened directly', () => {
    window.history.replaceState(null, '', '/console/audit');
    openConsoleView({ section: 'people' });
    // Opened by a bookmark: no portal behind it.
    expect(window.history.state).toEqual({ consoleDepth: 1, fromPortal: false });
    closeConsole();
    expect(window.location.pathname).toBe('/');

    openConsoleView({ section: 'people' });
    openConsoleView({ section: 'teams', id: 't1' });
    expect(window.location.pathname).toBe('/console/teams/t1');
    expect(window.history.state).toEqual({ consoleDepth: 2, fromPortal: true });
  });
});
