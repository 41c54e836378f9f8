import { AUTOCOMPLETE_MIN_LENGTH } from '../constants';
import type { SearchEntry } from './menu-types';

/**
 * Case-insensitive substring match over the pre-lowercased haystack (name, appName,
 * parentName, description). A blank or too short query matches nothing.
 */
export function searchLinks(index: readonly SearchEntry[], query: string, limit = Infinity) {
  const needle = query.trim().toLowerCase();
  if (needle.length < AUTOCOMPLETE_MIN_LENGTH) return [];
  const results: SearchEntry[] = [];
  for (const entry of index) {
    if (entry.haystack.includes(needle)) {
      results.push(entry);
      if (results.length >= limit) break;
    }
  }
  return results;
}

/** Counts all matches without building a result list. */
export function countMatches(index: readonly SearchEntry[], query: string) {
  const needle = query.trim().toLowerCase();
  if (needle.length < AUTOCOMPLETE_MIN_LENGTH) return 0;
  let count = 0;
  for (const entry of index) if (entry.haystack.includes(needle)) count += 1;
  return count;
}
