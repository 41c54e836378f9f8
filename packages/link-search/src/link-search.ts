import type { LinkSearchEntry } from './search-entry.ts';

/**
 * The shortest query that matches anything, once trimmed (the spec's autocomplete minimum
 * length): a blank query matches nothing.
 */
export const MIN_QUERY_LENGTH = 1;

/** How many earlier queries a link search remembers to narrow from. */
const NARROWING_MEMORY = 8;

/**
 * How well a link matches, best first (decision 0053). A link's tier is the best place the
 * query occurs in it: its whole name, the start of its name, the start of a word of its
 * name, elsewhere in its name, the start of a word of its appName, anywhere else (the rest
 * of the appName, the collection that holds it, its description).
 */
export const MatchTier = {
  exactName: 0,
  namePrefix: 1,
  nameWordPrefix: 2,
  inName: 3,
  appNameWordPrefix: 4,
  elsewhere: 5,
} as const;
export type MatchTier = (typeof MatchTier)[keyof typeof MatchTier];
const TIERS = 6;

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/** Whether the character at `at` continues a word (a letter or digit: a word starts after anything else). */
function isWordCharacter(text: string, at: number) {
  const code = text.charCodeAt(at);
  if (code < 128) {
    return (code >= 97 && code <= 122) || (code >= 48 && code <= 57) || (code >= 65 && code <= 90);
  }
  return LETTER_OR_DIGIT.test(text.charAt(at));
}

/** Whether the needle occurs at the start of a word between `from` (its first occurrence) and `end`. */
function startsAWord(haystack: string, needle: string, from: number, end: number) {
  for (
    let at = from;
    at !== -1 && at + needle.length <= end;
    at = haystack.indexOf(needle, at + 1)
  ) {
    if (at === 0 || !isWordCharacter(haystack, at - 1)) return true;
  }
  return false;
}

/**
 * The tier of an entry whose haystack holds the needle first at `at` (see MatchTier); the
 * haystack is passed read, so that it is read once per entry and keystroke.
 */
function tierOf(
  { nameEnd, appNameEnd }: Pick<LinkSearchEntry, 'nameEnd' | 'appNameEnd'>,
  haystack: string,
  needle: string,
  at: number,
): MatchTier {
  if (at < nameEnd) {
    if (at === 0) return needle.length === nameEnd ? MatchTier.exactName : MatchTier.namePrefix;
    return startsAWord(haystack, needle, at, nameEnd) ? MatchTier.nameWordPrefix : MatchTier.inName;
  }
  if (at < appNameEnd && startsAWord(haystack, needle, at, appNameEnd)) {
    return MatchTier.appNameWordPrefix;
  }
  return MatchTier.elsewhere;
}

/** The same link in the index more than once: the original and the person's favorites of it. */
interface Twins<Entry extends LinkSearchEntry> {
  members: Entry[];
  /** Each member's place in the index, to keep the earliest one's place. */
  positions: Map<Entry, number>;
}

const twinsByIndex = new WeakMap<readonly LinkSearchEntry[], Twins<LinkSearchEntry>[]>();

/**
 * A favorite points at its original link (`linkId`); both are in the index when the person
 * sees the original's space. Only these few groups need merging, found once per index (a
 * search panel opened again over the same menu finds them known).
 */
function findTwins<Entry extends LinkSearchEntry>(index: readonly Entry[]): Twins<Entry>[] {
  // The twins kept for an index are made of that index's own entries.
  let twins = twinsByIndex.get(index) as Twins<Entry>[] | undefined;
  if (!twins) {
    twins = groupTwins(index);
    twinsByIndex.set(index, twins);
  }
  return twins;
}

function groupTwins<Entry extends LinkSearchEntry>(index: readonly Entry[]): Twins<Entry>[] {
  const favorited = new Set<string>();
  for (const entry of index) {
    if (entry.item.type === 'link-favorite') favorited.add(entry.item.linkId);
  }
  if (favorited.size === 0) return [];
  const groups = new Map<string, Twins<Entry>>();
  index.forEach((entry, position) => {
    const { item } = entry;
    const key = item.type === 'link-favorite' ? item.linkId : item.id;
    if (!favorited.has(key)) return;
    const group: Twins<Entry> = groups.get(key) ?? { members: [], positions: new Map() };
    group.members.push(entry);
    group.positions.set(entry, position);
    groups.set(key, group);
  });
  return [...groups.values()].filter((group) => group.members.length > 1);
}

/**
 * For one query: the twins that match more than once become one result. The result shows
 * the original link (else the first favorite) and takes the best tier among the matching
 * members and, within it, the earliest member's place; the other members are dropped.
 * `shownAt` maps the member whose place is kept to the entry shown there, and the dropped
 * ones to null.
 */
function mergeTwins<Entry extends LinkSearchEntry>(twins: readonly Twins<Entry>[], needle: string) {
  let shownAt: Map<Entry, Entry | null> | null = null;
  let dropped = 0;
  for (const { members, positions } of twins) {
    const matching: { entry: Entry; tier: MatchTier }[] = [];
    for (const entry of members) {
      const haystack = entry.haystack;
      const at = haystack.indexOf(needle);
      if (at !== -1) matching.push({ entry, tier: tierOf(entry, haystack, needle, at) });
    }
    if (matching.length < 2) continue;
    const place = matching.reduce((best, candidate) =>
      candidate.tier < best.tier ||
      (candidate.tier === best.tier && positions.get(candidate.entry)! < positions.get(best.entry)!)
        ? candidate
        : best,
    );
    const shown =
      matching.find(({ entry }) => entry.item.type === 'link')?.entry ?? matching[0]!.entry;
    shownAt ??= new Map();
    for (const { entry } of matching) shownAt.set(entry, entry === place.entry ? shown : null);
    dropped += matching.length - 1;
  }
  return { shownAt, dropped };
}

/**
 * Collects, for one query, the first `kept` matches in ranked order: each tier's matches in
 * index order, and no more of a tier than can still reach the first `kept` (once the better
 * tiers hold `kept`, a worse match is counted, not ranked: most keystrokes of a long index
 * then skip the word checks).
 */
function rankFirst<Entry extends LinkSearchEntry>(kept: number, needle: string) {
  const tiers: Entry[][] = Array.from({ length: TIERS }, () => []);
  /** The worst tier that can still reach the first `kept`, and how many the tiers up to it hold. */
  let needed: number = MatchTier.elsewhere;
  let held = 0;
  /** Whether the entry matches; a match is ranked when it can reach the first `kept`. */
  const add = (entry: Entry) => {
    const haystack = entry.haystack;
    const at = haystack.indexOf(needle);
    if (at === -1) return false;
    // The best tier a first occurrence at `at` allows, before any word check.
    const best =
      at === 0
        ? MatchTier.exactName
        : at < entry.nameEnd
          ? MatchTier.nameWordPrefix
          : at < entry.appNameEnd
            ? MatchTier.appNameWordPrefix
            : MatchTier.elsewhere;
    if (best > needed) return true;
    const tier = best === MatchTier.elsewhere ? best : tierOf(entry, haystack, needle, at);
    if (tier > needed || (tier === needed && held >= kept)) return true;
    tiers[tier]!.push(entry);
    held += 1;
    while (needed > 0 && held - tiers[needed]!.length >= kept) {
      held -= tiers[needed]!.length;
      tiers[needed] = [];
      needed -= 1;
    }
    return true;
  };
  return { tiers, add };
}

export interface LinkSearchResult<Entry extends LinkSearchEntry> {
  /** The best matches, best first, at most the limit asked for. */
  results: readonly Entry[];
  /** How many links match in all (a favorite and its original counted once). */
  total: number;
}

const NOTHING: LinkSearchResult<never> = { results: [], total: 0 };

/**
 * The search over one index, for one search session: `search(query, limit)` gives the best
 * `limit` matches and the number of all matches.
 *
 * A link matches when the query is a case-insensitive substring of its pre-lowercased
 * haystack (name, appName, parentName, description); a blank or too short query matches
 * nothing. Matches are ranked by MatchTier, and keep the index's order within a tier. A
 * favorite and its original that both match are one result (see mergeTwins).
 *
 * Only the matches that can be among the first `limit` are ranked (a few more when twins
 * are dropped); the rest are counted. A query that contains an earlier one (typing on, or
 * typing again after a correction) can only match what that earlier one matched, so the
 * search scans those matches instead of the whole index: the first letter scans everything,
 * the next ones a shrinking list.
 */
export function createLinkSearch<Entry extends LinkSearchEntry>(index: readonly Entry[]) {
  const twins = findTwins(index);
  /** Earlier queries, latest first: their matches in index order, to narrow from, and their answer. */
  let remembered: {
    needle: string;
    matches: readonly Entry[];
    limit: number;
    result: LinkSearchResult<Entry>;
  }[] = [];
  return (query: string, limit: number): LinkSearchResult<Entry> => {
    const needle = query.trim().toLowerCase();
    if (needle.length < MIN_QUERY_LENGTH) return NOTHING;
    // Typing the same query again (after a correction) gives the same answer.
    const same = remembered.find((earlier) => earlier.needle === needle && earlier.limit === limit);
    if (same) {
      remembered = [same, ...remembered.filter((earlier) => earlier !== same)];
      return same.result;
    }
    let pool: readonly Entry[] = index;
    let poolNeedle = '';
    for (const earlier of remembered) {
      if (earlier.needle.length > poolNeedle.length && needle.includes(earlier.needle)) {
        pool = earlier.matches;
        poolNeedle = earlier.needle;
      }
    }
    const { shownAt, dropped } = mergeTwins(twins, needle);
    const ranking = rankFirst<Entry>(limit + dropped, needle);
    let matches: readonly Entry[] = pool;
    if (poolNeedle === needle) {
      for (const entry of pool) ranking.add(entry);
    } else {
      const found: Entry[] = [];
      for (const entry of pool) {
        if (ranking.add(entry)) found.push(entry);
      }
      matches = found;
    }
    const results: Entry[] = [];
    ranked: for (const tier of ranking.tiers) {
      for (const entry of tier) {
        if (results.length >= limit) break ranked;
        const shown = shownAt === null ? entry : shownAt.get(entry);
        if (shown !== null) results.push(shown ?? entry);
      }
    }
    const result = { results, total: matches.length - dropped };
    remembered = [
      { needle, matches, limit, result },
      ...remembered.filter((earlier) => earlier.needle !== needle),
    ].slice(0, NARROWING_MEMORY);
    return result;
  };
}
