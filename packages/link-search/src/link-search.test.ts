import { describe, expect, it } from 'vitest';
import { createLinkSearch, MatchTier, MIN_QUERY_LENGTH } from './link-search.ts';
import { haystackOf, type LinkSearchEntry } from './search-entry.ts';

/** A link's fields, as the menu holds them. */
interface Link {
  id: string;
  name: string;
  appName: string | null;
  description: string;
}

/** A person's favorite of a link, kept in My Space. */
interface Favorite {
  id: string;
  favoriteOf: Link;
}

/** An entry of the index, with the fields it was made of, for the plain search below. */
interface Entry extends LinkSearchEntry {
  link: Link;
  parentName: string;
}

let made = 0;
const link = (name: string, fields: Partial<Omit<Link, 'id' | 'name'>> = {}): Link => {
  made += 1;
  return { id: `link-${made}`, name, appName: null, description: '', ...fields };
};
const favorite = (favoriteOf: Link, id: string): Favorite => ({ id, favoriteOf });

/** The entry of a link or a favorite held by the collection named `parentName`. */
function entry(placed: Link | Favorite, parentName: string): Entry {
  const shown = 'favoriteOf' in placed ? placed.favoriteOf : placed;
  return {
    item:
      'favoriteOf' in placed
        ? { type: 'link-favorite', id: placed.id, linkId: placed.favoriteOf.id }
        : { type: 'link', id: placed.id },
    link: shown,
    parentName,
    ...haystackOf(shown, parentName),
  };
}

/**
 * The index of a small menu, in its order: the links and favorites of My Space, those of a
 * team's collection Tools, and the organization's Payroll in its collection HR.
 */
function menuIndex({
  mySpace = [],
  tools = [],
}: {
  mySpace?: (Link | Favorite)[];
  tools?: Link[];
}) {
  return [
    ...mySpace.map((placed) => entry(placed, 'My Space')),
    ...tools.map((placed) => entry(placed, 'Tools')),
    entry(link('Payroll', { appName: 'Workday' }), 'HR'),
  ];
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whether the needle starts a word of the text: at its start, or after a non-letter/digit. */
function startsAWord(text: string, needle: string) {
  return new RegExp(`(^|[^\\p{L}\\p{N}])${escape(needle)}`, 'u').test(text);
}

/** The tiers of decision 0053, written plainly from the link's fields. */
function plainTier({ link: { name, appName } }: Entry, needle: string): MatchTier {
  const lowerName = name.toLowerCase();
  if (lowerName === needle) return MatchTier.exactName;
  if (lowerName.startsWith(needle)) return MatchTier.namePrefix;
  if (startsAWord(lowerName, needle)) return MatchTier.nameWordPrefix;
  if (lowerName.includes(needle)) return MatchTier.inName;
  if (startsAWord((appName ?? '').toLowerCase(), needle)) return MatchTier.appNameWordPrefix;
  return MatchTier.elsewhere;
}

/** Whether one of the link's fields holds the needle, written plainly from the fields. */
function plainMatch({ link: { name, appName, description }, parentName }: Entry, needle: string) {
  return [name, appName ?? '', parentName, description].some((field) =>
    field.toLowerCase().includes(needle),
  );
}

const linkKey = ({ item }: Entry) => (item.type === 'link-favorite' ? item.linkId : item.id);

/**
 * The definition of the search, written plainly: every match, sorted by tier and then by
 * place in the index; a favorite and its original once, shown as the original, at the best
 * place of the two. The narrowing, bucketing search must agree with it.
 */
function plainSearch(index: readonly Entry[], query: string) {
  const needle = query.trim().toLowerCase();
  if (needle.length < MIN_QUERY_LENGTH) return [];
  const matches = index
    .map((candidate, position) => ({ entry: candidate, position }))
    .filter(({ entry: candidate }) => plainMatch(candidate, needle))
    .map((match) => ({ ...match, tier: plainTier(match.entry, needle) }))
    .sort((a, b) => a.tier - b.tier || a.position - b.position)
    .map(({ entry: candidate }) => candidate);
  const seen = new Set<string>();
  const result: Entry[] = [];
  for (const match of matches) {
    const key = linkKey(match);
    if (seen.has(key)) continue;
    seen.add(key);
    const original = matches.find((other) => other.item.type === 'link' && other.item.id === key);
    result.push(original ?? match);
  }
  return result;
}

const names = (entries: readonly Entry[]) => entries.map((found) => found.link.name);

/** Every result of one query, best first. */
const rank = (entries: readonly Entry[], query: string) =>
  createLinkSearch(entries)(query, Infinity).results;

/** Links of the demo organization, where its demo person sees them. */
const github = link('GitHub', { appName: 'GitHub', description: 'All Northwind repositories' });
const demo = menuIndex({
  mySpace: [
    link('My pull requests', { appName: 'GitHub', description: 'Reviews waiting for me' }),
    link('Standup notes', { appName: 'Google Docs' }),
    favorite(github, 'favorite-github'),
    link('Launch dashboard', { appName: 'Grafana', description: 'Sign-ups and errors on the day' }),
  ],
  tools: [
    github,
    link('Jira', { appName: 'Jira', description: 'Sprint boards and the backlog' }),
    link('Sentry', { appName: 'Sentry', description: 'Errors from production' }),
    link('Grafana', { appName: 'Grafana', description: 'Service dashboards and alerts' }),
    link('Datadog', { appName: 'Datadog', description: 'Logs, traces and APM' }),
  ],
});

const fields = menuIndex({
  mySpace: [
    link('Grafana', { description: 'Dashboards' }),
    link('Wiki', { appName: 'Confluence' }),
  ],
});

/** A person's links in several collections; the team wiki is also a favorite in My Space. */
const teamWiki = link('Team wiki', { description: 'How we work' });
const nested = [
  entry(link('Standup notes'), 'My Space'),
  entry(favorite(teamWiki, 'favorite-wiki'), 'My Space'),
  entry(link('MDN Web Docs', { description: 'The web platform' }), 'Reading list'),
  entry(link('Strange Loop'), 'Talks'),
  entry(link('Storybook'), 'Design system'),
  entry(teamWiki, 'Code & delivery'),
  entry(link('HR portal', { description: 'Leave and payslips' }), 'Company essentials'),
];

const tiers = menuIndex({
  mySpace: [
    link('Expenses', { description: 'Pay back what you spent' }),
    link('Repay'),
    link('Wallet', { appName: 'Xpay' }),
    link('Shop', { appName: 'PayPal' }),
    link('Team pay'),
    link('Pay slips'),
    link('Pay'),
    link('Payroll report'),
  ],
});

const ties = menuIndex({
  mySpace: ['Pager duty', 'Payroll', 'Paint shop', 'Pay slips'].map((name) => link(name)),
});

const words = menuIndex({
  mySpace: ['Inconfluent', 'Team-confluence', 'Docs (Confluence)', 'Confluence'].map((name) =>
    link(name),
  ),
});

const notes = ['Notes', 'Team notes', 'Notes archive', 'Keynotes'].map((name) =>
  entry(link(name), 'My Space'),
);

/** Each case: an index, a query, and every result it gives, best first. */
const CASES: [string, readonly Entry[], string, string[]][] = [
  // What matches (spec §5): one field holding the query, whatever its case.
  ['matches on the name, case-insensitively', fields, 'GRAF', ['Grafana']],
  ['matches on the description', fields, 'dashb', ['Grafana']],
  ['matches on the appName', fields, 'confluence', ['Wiki']],
  ['matches on the collection that holds the link', fields, 'hr', ['Payroll']],
  ['does not match across two fields', fields, 'grafana dashb', []],
  ['finds a name', nested, 'wiki', ['Team wiki']],
  ['finds a description', nested, 'payslips', ['HR portal']],
  ['finds a phrase of a description, whatever its case', nested, 'WEB platform', ['MDN Web Docs']],
  ['finds nothing when no field holds the whole query', nested, 'web docs nothing', []],
  ['finds nothing for a blank query', nested, '   ', []],
  // How matches rank (decision 0053).
  ['puts Grafana first for "grafana"', demo, 'grafana', ['Grafana', 'Launch dashboard']],
  ['trims the query', demo, 'Grafana ', ['Grafana', 'Launch dashboard']],
  [
    'ranks the exact name, the name’s start, a word’s start, inside the name, the appName, then the rest',
    tiers,
    'pay',
    [
      'Pay',
      'Pay slips',
      'Payroll report',
      // The organization's Payroll: a name's start too, after My Space's in the index.
      'Payroll',
      'Team pay',
      'Repay',
      'Shop',
      'Expenses',
      'Wallet',
    ],
  ],
  [
    'ranks the whole name, its start, a word’s start, then anywhere in it',
    notes,
    'notes',
    ['Notes', 'Notes archive', 'Team notes', 'Keynotes'],
  ],
  [
    'keeps the order of the index within a tier',
    ties,
    'pa',
    // The organization's Payroll comes after My Space's links in the index.
    ['Pager duty', 'Payroll', 'Paint shop', 'Pay slips', 'Payroll'],
  ],
  [
    'finds a word’s start after punctuation, and not inside a word',
    words,
    'conf',
    ['Confluence', 'Team-confluence', 'Docs (Confluence)', 'Inconfluent'],
  ],
  [
    'keeps the index’s order where the query is inside a word everywhere',
    words,
    'flu',
    ['Inconfluent', 'Team-confluence', 'Docs (Confluence)', 'Confluence'],
  ],
];

describe('link search', () => {
  it.each(CASES)('%s', (_case, index, query, expected) => {
    expect(names(rank(index, query))).toEqual(expected);
  });

  it('ranks by the tiers of the plain definition', () => {
    expect(rank(words, 'conf').map((found) => plainTier(found, 'conf'))).toEqual([
      MatchTier.namePrefix,
      MatchTier.nameWordPrefix,
      MatchTier.nameWordPrefix,
      MatchTier.inName,
    ]);
  });

  it('ignores blank queries and does not match what no field holds', () => {
    const search = createLinkSearch(fields);
    for (const query of ['   ', '', 'zzz']) {
      expect(search(query, 50)).toEqual({ results: [], total: 0 });
    }
  });

  it('puts GitHub above My pull requests for "git", and lists GitHub once, as its original', () => {
    const results = rank(demo, 'git');
    expect(names(results)).toEqual(['GitHub', 'My pull requests']);
    // The original is shown, though its favorite comes first in the index.
    expect(results[0]!.item).toEqual({ type: 'link', id: github.id });
    expect(results[0]!.parentName).toBe('Tools');
  });

  it('keeps a keystroke over 10,000 links fast', () => {
    const big = Array.from({ length: 10_000 }, (_, i) =>
      entry(link(`Link number ${i}`, { description: `About topic ${i % 97}` }), 'My Space'),
    );
    const started = performance.now();
    const search = createLinkSearch(big);
    for (const query of ['l', 'li', 'lin', 'link', 'topic 5', 'zz']) search(query, 50);
    // Generous bound for shared machines; the budget is a 2 ms mean.
    expect((performance.now() - started) / 6).toBeLessThan(20);
  });
});

describe('a favorite and its original', () => {
  const original = link('Status board', { description: 'Service health' });
  const twins = menuIndex({
    mySpace: [link('Notes'), favorite(original, 'favorite-status')],
    tools: [link('Statuspage'), original],
  });

  it('are one result: the original, at the favorite’s place when that comes first', () => {
    const results = rank(twins, 'status');
    expect(names(results)).toEqual(['Status board', 'Statuspage']);
    expect(results[0]!.item).toEqual({ type: 'link', id: original.id });
    // The count is of results, not of index entries.
    expect(createLinkSearch(twins)('status', 50).total).toBe(2);
  });

  it('show the favorite when only the favorite matches', () => {
    // Only the favorite lies in My Space.
    const results = rank(twins, 'my space');
    expect(results.map((found) => found.item.type)).toEqual(['link', 'link-favorite']);
    expect(results[1]!.item.id).toBe('favorite-status');
  });

  it('show a favorite whose original is not in the index', () => {
    const alone = menuIndex({ mySpace: [favorite(link('Elsewhere'), 'favorite-alone')] });
    expect(rank(alone, 'elsewhere').map((found) => found.item.id)).toEqual(['favorite-alone']);
  });

  it('are one result for two favorites of one link without the original', () => {
    const once = link('Twice');
    const twice = menuIndex({
      mySpace: [favorite(once, 'favorite-1'), favorite(once, 'favorite-2')],
    });
    expect(rank(twice, 'twice').map((found) => found.item.id)).toEqual(['favorite-1']);
  });
});

describe('createLinkSearch', () => {
  const many = menuIndex({
    mySpace: ['Payroll', 'Pay slips', 'Paint shop', 'Holiday planner', 'Pager duty'].map((name) =>
      link(name),
    ),
  });

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
    const vocabulary = [
      'pay',
      'git',
      'hub',
      'grafana',
      'expense',
      'report',
      'team',
      'repay',
      'a-b',
    ];
    const pick = (i: number, salt: number) =>
      vocabulary[(i * salt + (i >> 2)) % vocabulary.length]!;
    const team = Array.from({ length: 300 }, (_, i) =>
      link(`${pick(i, 7)} ${pick(i, 3)}${i % 5 === 0 ? pick(i, 11) : ''}`, {
        appName: i % 3 === 0 ? null : pick(i, 5),
        description: `${pick(i, 13)} of ${pick(i, 17)}`,
      }),
    );
    const favorites = team
      .filter((_, i) => i % 37 === 0)
      .map((original, i) => favorite(original, `favorite-${i}`));
    const large = menuIndex({ mySpace: [...favorites, team[1]!], tools: team.slice(2) });
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
    const counted = many.map((candidate) => ({
      ...candidate,
      get haystack() {
        reads += 1;
        return candidate.haystack;
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

describe('haystackOf', () => {
  it('holds the four fields lower-cased, and says where the name and the appName end', () => {
    const built = haystackOf(
      { name: 'Deep', appName: 'JIRA', description: 'Hidden gem' },
      'Projects',
    );
    expect(built).toEqual({
      haystack: 'deep\njira\nprojects\nhidden gem',
      nameEnd: 4,
      appNameEnd: 9,
    });
    expect(haystackOf({ name: 'Wiki', appName: null, description: '' }, 'My Space')).toEqual({
      haystack: 'wiki\n\nmy space\n',
      nameEnd: 4,
      appNameEnd: 5,
    });
  });
});
