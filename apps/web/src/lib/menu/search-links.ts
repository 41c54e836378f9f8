import { AUTOCOMPLETE_MIN_LENGTH } from '../constants';
import type { SearchEntry } from './menu-types';

/** How many earlier queries a link search remembers to narrow from. */
const NARROWING_MEMORY = 8;

/**
 * Every match of a query, in index order, for one search session over one index: a
 * case-insensitive substring of the pre-lowercased haystack (name, appName, parentName,
 * description); a blank or too short query matches nothing. A query
 * that contains an earlier one (typing on, or typing again after a correction) can only match
 * what that earlier one matched, so the search scans those matches instead of the whole
 * index: the first letter scans everything, the next ones a shrinking list.
 */
export function createLinkSearch(index: readonly SearchEntry[]) {
  let remembered: { needle: string; matches: readonly SearchEntry[] }[] = [];
  return (query: string): readonly SearchEntry[] => {
    const needle = query.trim().toLowerCase();
    if (needle.length < AUTOCOMPLETE_MIN_LENGTH) return [];
    let pool: readonly SearchEntry[] = index;
    let poolNeedle = '';
    for (const earlier of remembered) {
      if (earlier.needle.length > poolNeedle.length && needle.includes(earlier.needle)) {
        pool = earlier.matches;
        poolNeedle = earlier.needle;
      }
    }
    const matches =
      poolNeedle === needle ? pool : pool.filter((entry) => entry.haystack.includes(needle));
    remembered = [
      { needle, matches },
      ...remembered.filter((earlier) => earlier.needle !== needle),
    ].slice(0, NARROWING_MEMORY);
    return matches;
  };
}
