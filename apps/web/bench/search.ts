// Client search per keystroke (docs/performance.md, "Web"): the search panel's work for one
// keystroke, over a search index of 10,000 and 100,000 generated links.
//
//   npx tsx apps/web/bench/search.ts
import { SEARCH_MAX_RESULTS } from '../src/lib/constants.ts';
import { NO_COLLECTION_CAN } from '../src/lib/menu/can.ts';
import type { FavoriteItem } from '@signpost/contract';
import { createLinkSearch, MIN_QUERY_LENGTH } from '@signpost/link-search';
import type { DisplaySpace, SearchEntry, ShownLink } from '../src/lib/menu/menu-types.ts';
import { buildSearchIndex } from '../src/lib/menu/process-menu.ts';

/** A small seeded generator (mulberry32), so every run searches the same links. */
function prng(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const words = (text: string) => text.trim().split(/\s+/);
const APPS = words(`Jira Confluence GitHub Figma Miro Slack Notion Salesforce Workday Zendesk
  Tableau Grafana Sentry Datadog HubSpot Asana Trello Dropbox Okta ServiceNow`);
const TOPICS = words(`budget roadmap onboarding payroll holidays travel expenses security
  incident release pricing hiring benefits contracts invoices marketing campaign design
  analytics dashboard handbook policy training calendar support backlog sprint retro okr
  vendor procurement compliance audit legal privacy newsletter wiki architecture deploy`);
const KINDS = words(`report board page sheet guide form plan review template checklist notes
  overview tracker portal request`);
const TEAMS = words(`Sales Finance People Engineering Design Marketing Support Legal Product
  Operations Data Security`);

/** How many favorites the person keeps (the reference data set's number). */
const FAVORITES = 20;

/**
 * A menu shaped like the reference one (spaces of collections of 50 links), n links in all,
 * and a personal space of 20 favorites of them.
 */
export function generateSpaces(links: number, seed = 7): DisplaySpace[] {
  const random = prng(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)] as T;
  const spaces: DisplaySpace[] = [];
  const perCollection = 50;
  const collectionsPerSpace = 10;
  let made = 0;
  for (let s = 0; made < links; s += 1) {
    const team = pick(TEAMS);
    const space: DisplaySpace = {
      id: `space-${s}`,
      name: s === 0 ? 'Organization' : `${team} ${s}`,
      type: s === 0 ? 'organization' : 'team',
      can: { addCollection: false },
      collections: [],
    };
    for (let c = 0; c < collectionsPerSpace && made < links; c += 1) {
      const items: ShownLink[] = [];
      for (let l = 0; l < perCollection && made < links; l += 1, made += 1) {
        const app = pick(APPS);
        const topic = pick(TOPICS);
        items.push({
          type: 'link',
          id: `link-${made}`,
          name: `${topic[0]!.toUpperCase()}${topic.slice(1)} ${pick(KINDS)} ${made % 97}`,
          description: `The ${pick(TOPICS)} ${pick(KINDS)} of ${team} for ${pick(TOPICS)}`,
          url: `https://${app.toLowerCase()}.example.com/${topic}/${made}`,
          icon: null,
          appName: random() < 0.8 ? app : null,
          createdBy: null,
          can: { edit: false, delete: false, move: false, favorite: true },
        });
      }
      space.collections.push({
        type: 'collection',
        id: `collection-${s}-${c}`,
        name: `${team} ${pick(TOPICS)}`,
        description: '',
        color: null,
        can: NO_COLLECTION_CAN,
        items,
      });
    }
    spaces.push(space);
  }
  // A personal space first, as in the menu, with favorites of 20 links spread over the rest
  // (a favorite and its original are one result).
  const favorites: FavoriteItem[] = [];
  const linksOf = spaces.flatMap((space) =>
    space.collections.flatMap((collection) => collection.items as ShownLink[]),
  );
  for (let f = 0; f < FAVORITES && linksOf.length > 0; f += 1) {
    const link = linksOf[Math.floor((f * linksOf.length) / FAVORITES)]!;
    favorites.push({
      ...link,
      type: 'link-favorite',
      id: `favorite-${f}`,
      linkId: link.id,
      can: { edit: false, delete: true, move: true, favorite: false },
    });
  }
  spaces.unshift({
    id: 'personal',
    name: 'My Space',
    type: 'personal',
    can: { addCollection: false },
    collections: [
      {
        type: 'collection',
        id: 'my-space',
        name: 'My Space',
        description: '',
        color: null,
        can: NO_COLLECTION_CAN,
        items: favorites,
      },
    ],
  });
  return spaces;
}

/**
 * What people type, a letter at a time: every state of the input is a keystroke. '⌫' is a
 * backspace (a typo corrected); a new query starts from an empty input.
 */
export const QUERIES = [
  'payroll',
  'jira board',
  'onboari⌫ding guide',
  'q',
  'sec',
  'figma',
  'holiday',
  'dashboard 4',
  'expens⌫⌫⌫⌫ense form',
  'engineering',
  'zzz',
  'okr',
  'Roadmap review',
  'grafana',
  'privacy p⌫policy',
];

export const KEYSTROKES = QUERIES.map((typed) => {
  const states: string[] = [];
  let input = '';
  for (const key of typed) {
    input = key === '⌫' ? input.slice(0, -1) : input + key;
    if (input) states.push(input);
  }
  return states;
});

/**
 * One keystroke of the search panel: the best matches (ranked, narrowed from an earlier
 * keystroke's matches when the query grew) and the count.
 */
function keystroke(search: ReturnType<typeof createLinkSearch<SearchEntry>>, query: string) {
  const { results, total } = search(query, SEARCH_MAX_RESULTS);
  return results.length + total;
}

/**
 * A reference, not the search: the first results and the count by two plain scans of the
 * whole index, unranked (the search before narrowing and ranking).
 */
function fullScan(index: readonly SearchEntry[], query: string) {
  const needle = query.trim().toLowerCase();
  if (needle.length < MIN_QUERY_LENGTH) return 0;
  let first = 0;
  for (const entry of index) {
    if (entry.haystack.includes(needle) && (first += 1) >= SEARCH_MAX_RESULTS) break;
  }
  let count = 0;
  for (const entry of index) if (entry.haystack.includes(needle)) count += 1;
  return first + count;
}

export interface SearchFigure {
  links: number;
  keystrokes: number;
  meanMs: number;
  p95Ms: number;
  maxMs: number;
}

/**
 * Mean time per keystroke over the sequence, after a warm-up pass, over `rounds` passes.
 * Each query is a new search panel (a new search over the same index).
 */
export function measureSearch(links: number, rounds = 5, narrowing = true): SearchFigure {
  const index = buildSearchIndex(generateSpaces(links));
  let sink = 0;
  const times: number[] = [];
  for (let round = -2; round < rounds; round += 1) {
    for (const states of KEYSTROKES) {
      const search = createLinkSearch(index);
      for (const query of states) {
        const started = performance.now();
        sink += narrowing ? keystroke(search, query) : fullScan(index, query);
        if (round >= 0) times.push(performance.now() - started);
      }
    }
  }
  if (sink < 0) throw new Error('unreachable');
  times.sort((a, b) => a - b);
  const sum = times.reduce((total, time) => total + time, 0);
  return {
    links: index.length,
    keystrokes: times.length,
    meanMs: sum / times.length,
    p95Ms: times[Math.floor(times.length * 0.95)] ?? 0,
    maxMs: times[times.length - 1] ?? 0,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const [links, narrowing] of [
    [10_000, true],
    [10_000, false],
    [100_000, true],
    [100_000, false],
  ] as const) {
    const figure = measureSearch(links, 5, narrowing);
    console.log(
      `${figure.links} links, ${narrowing ? 'narrowing' : 'full scans'}: mean ${figure.meanMs.toFixed(3)} ms, p95 ${figure.p95Ms.toFixed(3)} ms, ` +
        `max ${figure.maxMs.toFixed(3)} ms over ${figure.keystrokes} keystrokes`,
    );
  }
}
