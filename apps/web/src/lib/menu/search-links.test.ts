import type { FavoriteItem } from '@signpost/contract';
import { describe, expect, it } from 'vitest';
import { FAVORITE } from '../../test/can-fixture';
import { makeLink, makeMenu } from '../../test/menu-fixture';
import { processMenu } from './process-menu';
import { AUTOCOMPLETE_MIN_LENGTH } from '../constants';
import type { SearchEntry, ShownLink } from './menu-types';
import { createLinkSearch } from './search-links';

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whether the needle starts a word of the text: at its start, or after a non-letter/digit. */
function startsAWord(text: string, needle: string) {
  return new RegExp(`(^|[^\\p{L}\\p{N}])${escape(needle)}`, 'u').test(text);
}

/** The tiers of decision 0053, written plainly from the item's fields. */
function plainTier(entry: SearchEntry, needle: string) {
  const name = entry.item.name.toLowerCase();
  const appName = (entry.item.appName ?? '').toLowerCase();
  if (name === needle) return 0;
  if (name.startsWith(needle)) return 1;
  if (startsAWord(name, needle)) return 2;
  if (name.includes(needle)) return 3;
  if (startsAWord(appName, needle)) return 4;
  return 5;
}

const linkKey = (entry: SearchEntry) =>
  entry.item.type === 'link-favorite' ? entry.item.linkId : entry.item.id;

/**
 * The definition of the search, written plainly: every match, sorted by tier and then by
 * place in the index; a favorite and its original once, shown as the original, at the best
 * place of the two. The narrowing, bucketing search must agree with it.
 */
function plainSearch(index: readonly SearchEntry[], query: string) {
  const needle = query.trim().toLowerCase();
  if (needle.length < AUTOCOMPLETE_MIN_LENGTH) return [];
  const matches = index
    .map((entry, position) => ({ entry, position }))
    .filter(({ entry }) => entry.haystack.includes(needle))
    .map((match) => ({ ...match, tier: plainTier(match.entry, needle) }))
    .sort((a, b) => a.tier - b.tier || a.position - b.position)
    .map(({ entry }) => entry);
  const seen = new Set<string>();
  const result: SearchEntry[] = [];
  for (const entry of matches) {
    const key = linkKey(entry);
    if (seen.has(key)) continue;
    seen.add(key);
    const original = matches.find((other) => other.item.type === 'link' && other.item.id === key);
    result.push(original ?? entry);
  }
  return result;
}

function favoriteOf(link: ShownLink, id: string): FavoriteItem {
  return {
    type: 'link-favorite',
    id,
    linkId: link.id,
    can: FAVORITE,
    name: link.name,
    description: link.description,
    url: link.url,
    icon: link.icon,
    appName: link.appName,
  };
}

const names = (entries: readonly SearchEntry[]) => entries.map((entry) => entry.item.name);

/** Every result of one query, best first. */
const rank = (entries: readonly SearchEntry[], query: string) =>
  createLinkSearch(entries)(query, Infinity).results;

const index = processMenu(
  makeMenu({
    myItems: [
      makeLink({ name: 'Grafana', description: 'Dashboards' }),
      makeLink({ name: 'Wiki', appName: 'Confluence' }),
    ],
  }),
).searchIndex;

describe('link search', () => {
  it.each([
    ['name', 'GRAF', 'Grafana'],
    ['description', 'dashb', 'Grafana'],
    ['appName', 'confluence', 'Wiki'],
    ['parentName', 'hr', 'Payroll'],
  ])('matches on %s, case-insensitively', (_field, query, expected) => {
    expect(names(rank(index, query))).toContain(expected);
  });

  it('ignores blank queries and does not match what no field holds', () => {
    const search = createLinkSearch(index);
    for (const query of ['   ', '', 'zzz']) {
      expect(search(query)).toEqual({ results: [], total: 0 });
    }
  });

  it('does not match across two fields', () => {
    // "Grafana" then "Dashboards": the fields are apart, not one text.
    expect(rank(index, 'grafana dashb')).toEqual([]);
  });

  it('keeps a keystroke over 10,000 links fast', () => {
    const big = processMenu(
      makeMenu({
        myItems: Array.from({ length: 10_000 }, (_, i) =>
          makeLink({ name: `Link number ${i}`, description: `About topic ${i % 97}` }),
        ),
      }),
    ).searchIndex;
    const started = performance.now();
    const search = createLinkSearch(big);
    for (const query of ['l', 'li', 'lin', 'link', 'topic 5', 'zz']) search(query);
    // Generous bound for shared machines; the budget is a 2 ms mean.
    expect((performance.now() - started) / 6).toBeLessThan(20);
  });
});

/** The demo organization's links that matter here, where Dana (the demo person) sees them. */
function demoIndex() {
  const github = makeLink({
    name: 'GitHub',
    url: 'https://github.com',
    appName: 'GitHub',
    description: 'All Northwind repositories',
  });
  const grafana = makeLink({
    name: 'Grafana',
    url: 'https://grafana.com',
    appName: 'Grafana',
    description: 'Service dashboards and alerts',
  });
  const menu = makeMenu({
    myItems: [
      makeLink({
        name: 'My pull requests',
        url: 'https://github.com/pulls',
        appName: 'GitHub',
        description: 'Reviews waiting for me',
      }),
      makeLink({ name: 'Standup notes', appName: 'Google Docs' }),
      favoriteOf(github, 'favorite-github'),
      makeLink({
        name: 'Launch dashboard',
        url: 'https://grafana.com',
        appName: 'Grafana',
        description: 'Sign-ups and errors on the day',
      }),
    ],
    teamItems: [
      github,
      makeLink({ name: 'Jira', appName: 'Jira', description: 'Sprint boards and the backlog' }),
      makeLink({ name: 'Sentry', appName: 'Sentry', description: 'Errors from production' }),
      grafana,
      makeLink({ name: 'Datadog', appName: 'Datadog', description: 'Logs, traces and APM' }),
    ],
  });
  return { index: processMenu(menu).searchIndex, github };
}

describe('ranking', () => {
  it('puts GitHub above My pull requests for "git", and lists GitHub once', () => {
    const { index: demo, github } = demoIndex();
    const results = rank(demo, 'git');
    expect(names(results)).toEqual(['GitHub', 'My pull requests']);
    // The original is shown, though its favorite comes first in the index.
    expect(results[0]!.item).toMatchObject({ type: 'link', id: github.id });
    expect(results[0]!.locationTree).toEqual(['Engineering', 'Tools']);
  });

  it('puts Grafana first for "grafana"', () => {
    const { index: demo } = demoIndex();
    expect(names(rank(demo, 'grafana'))).toEqual(['Grafana', 'Launch dashboard']);
    expect(names(rank(demo, 'Grafana ')).at(0)).toBe('Grafana');
  });

  it('ranks exact name, name prefix, word in name, inside name, appName, then the rest', () => {
    const ranked = processMenu(
      makeMenu({
        myItems: [
          makeLink({ name: 'Expenses', description: 'Pay back what you spent' }),
          makeLink({ name: 'Repay', description: '' }),
          makeLink({ name: 'Wallet', appName: 'Xpay' }),
          makeLink({ name: 'Shop', appName: 'PayPal' }),
          makeLink({ name: 'Team pay' }),
          makeLink({ name: 'Pay slips' }),
          makeLink({ name: 'Pay' }),
          makeLink({ name: 'Payroll report' }),
        ],
      }),
    ).searchIndex;
    expect(names(rank(ranked, 'pay'))).toEqual([
      'Pay',
      'Pay slips',
      'Payroll report',
      // The organization's Payroll: a name prefix too, after My Space's in the index.
      'Payroll',
      'Team pay',
      'Repay',
      'Shop',
      'Expenses',
      'Wallet',
    ]);
  });

  it('keeps the order of the index within a tier', () => {
    const ties = processMenu(
      makeMenu({
        myItems: ['Pager duty', 'Payroll', 'Paint shop', 'Pay slips'].map((name) =>
          makeLink({ name }),
        ),
      }),
    ).searchIndex;
    // Payroll of the organization comes after My Space's links in the index.
    expect(names(rank(ties, 'pa'))).toEqual([
      'Pager duty',
      'Payroll',
      'Paint shop',
      'Pay slips',
      'Payroll',
    ]);
  });

  it('finds a word start after punctuation, and not inside a word', () => {
    const words = processMenu(
      makeMenu({
        myItems: [
          makeLink({ name: 'Inconfluent' }),
          makeLink({ name: 'Team-confluence' }),
          makeLink({ name: 'Docs (Confluence)' }),
          makeLink({ name: 'Confluence' }),
        ],
      }),
    ).searchIndex;
    expect(names(rank(words, 'conf'))).toEqual([
      'Confluence',
      'Team-confluence',
      'Docs (Confluence)',
      'Inconfluent',
    ]);
    expect(rank(words, 'conf').map((entry) => plainTier(entry, 'conf'))).toEqual([1, 2, 2, 3]);
    // Inside a word everywhere: the order of the index.
    expect(names(rank(words, 'flu'))).toEqual([
      'Inconfluent',
      'Team-confluence',
      'Docs (Confluence)',
      'Confluence',
    ]);
  });
});

describe('a favorite and its original', () => {
  const original = makeLink({ name: 'Status board', description: 'Service health' });
  const twins = processMenu(
    makeMenu({
      myItems: [makeLink({ name: 'Notes' }), favoriteOf(original, 'favorite-status')],
      teamItems: [makeLink({ name: 'Statuspage' }), original],
    }),
  ).searchIndex;

  it('are one result: the original, at the favorite’s place when that comes first', () => {
    const results = rank(twins, 'status');
    expect(names(results)).toEqual(['Status board', 'Statuspage']);
    expect(results[0]!.item).toMatchObject({ type: 'link', id: original.id });
    // The count is of results, not of index entries.
    expect(createLinkSearch(twins)('status').total).toBe(2);
  });

  it('show the favorite when only the favorite matches', () => {
    // Only the favorite lies in My Space.
    const results = rank(twins, 'my space');
    expect(results.map((entry) => entry.item.type)).toEqual(['link', 'link-favorite']);
    expect(results[1]!.item.id).toBe('favorite-status');
  });

  it('show a favorite whose original is not in the menu', () => {
    const alone = processMenu(
      makeMenu({ myItems: [favoriteOf(makeLink({ name: 'Elsewhere' }), 'favorite-alone')] }),
    ).searchIndex;
    expect(rank(alone, 'elsewhere').map((entry) => entry.item.id)).toEqual(['favorite-alone']);
  });

  it('are one result for two favorites of one link without the original', () => {
    const link = makeLink({ name: 'Twice' });
    const twice = processMenu(
      makeMenu({ myItems: [favoriteOf(link, 'favorite-1'), favoriteOf(link, 'favorite-2')] }),
    ).searchIndex;
    expect(rank(twice, 'twice').map((entry) => entry.item.id)).toEqual(['favorite-1']);
  });
});

describe('createLinkSearch', () => {
  const { index: demo } = demoIndex();
  const many = processMenu(
    makeMenu({
      myItems: ['Payroll', 'Pay slips', 'Paint shop', 'Holiday planner', 'Pager duty'].map((name) =>
        makeLink({ name }),
      ),
    }),
  ).searchIndex;

  it('finds what the plain search finds, in the same order, keystroke after keystroke', () => {
    for (const entries of [many, demo]) {
      const search = createLinkSearch(entries);
      for (const query of [
        'p',
        'pa',
        'pay',
        'payr',
        'pay',
        'pai',
        'p',
        'pla',
        'PLANNER ',
        'g',
        'gi',
        'git',
        'gith',
        'a',
        'an',
        'ana',
        'e',
        'zz',
      ]) {
        const plain = plainSearch(entries, query);
        for (const limit of [1, 2, Infinity]) {
          expect(search(query, limit)).toEqual({
            results: plain.slice(0, limit),
            total: plain.length,
          });
        }
      }
    }
  });

  it('agrees with the plain search over a larger index, for every limit', () => {
    const words = ['pay', 'git', 'hub', 'grafana', 'expense', 'report', 'team', 'repay', 'a-b'];
    const pick = (i: number, salt: number) => words[(i * salt + (i >> 2)) % words.length]!;
    const team: ShownLink[] = Array.from({ length: 300 }, (_, i) =>
      makeLink({
        name: `${pick(i, 7)} ${pick(i, 3)}${i % 5 === 0 ? pick(i, 11) : ''}`,
        appName: i % 3 === 0 ? null : pick(i, 5),
        description: `${pick(i, 13)} of ${pick(i, 17)}`,
      }),
    );
    const favorites = team
      .filter((_, i) => i % 37 === 0)
      .map((link, i) => favoriteOf(link, `favorite-${i}`));
    const large = processMenu(
      makeMenu({ myItems: [...favorites, team[1]!], teamItems: team.slice(2) }),
    ).searchIndex;
    const search = createLinkSearch(large);
    for (const query of [
      'p',
      'pa',
      'pay',
      'ay',
      'g',
      'gi',
      'git',
      'hub',
      'b',
      'a-',
      're',
      'of t',
    ]) {
      const plain = plainSearch(large, query);
      expect(plain.length).toBeGreaterThan(0);
      for (const limit of [1, 5, 50, Infinity]) {
        expect(search(query, limit)).toEqual({
          results: plain.slice(0, limit),
          total: plain.length,
        });
      }
    }
  });

  it('narrows from an earlier query the new one contains, not from the whole index', () => {
    let reads = 0;
    const counted = many.map((entry) => ({
      ...entry,
      get haystack() {
        reads += 1;
        return entry.haystack;
      },
    }));
    const search = createLinkSearch(counted);
    search('pa', Infinity);
    const afterFirst = reads;
    expect(afterFirst).toBe(counted.length);
    const narrowed = search('pay', Infinity).results;
    expect(reads - afterFirst).toBe(plainSearch(many, 'pa').length);
    expect(names(narrowed)).toEqual(names(plainSearch(many, 'pay')));
    expect(names(narrowed)).toContain('Pay slips');
  });

  it('ignores blank queries', () => {
    expect(rank(many, '  ')).toEqual([]);
  });
});
