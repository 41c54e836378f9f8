import type { DirectoryIndex, Facets } from './directory-index.ts';
import type { NamePlace } from './name-order.ts';

/** A person as the peer search answers them. */
export interface PeerFound {
  id: string;
  name: string;
  email: string;
}

/** What a page of the console's people list asks for. */
export interface ListQuery extends Facets {
  /** Lowered as the database lowers it, and trimmed; '' for none. */
  q: string;
  cursor: NamePlace | null;
  /** How many people to return at most. */
  count: number;
}

const ACTIVE: Facets = { status: 'active' };

/**
 * The peer search (decision 0060): the active people whose lowered name or e-mail contains
 * `query` (lowered as the database lowers; '' for everyone), but `excludeId`, in name order:
 * `limit` people after the first `offset`.
 */
export function searchPeers(
  index: DirectoryIndex,
  query: string,
  excludeId: string,
  offset: number,
  limit: number,
): PeerFound[] {
  if (limit <= 0) return [];
  if (query === '') {
    return index.pageOf(ACTIVE, offset, limit, excludeId).map((slot) => index.peer(slot));
  }
  const exclude = index.slotOfId(excludeId);
  const found: PeerFound[] = [];
  let skip = offset;
  index.scan(query, ACTIVE, null, (slot) => {
    if (slot === exclude) return false;
    if (skip > 0) {
      skip -= 1;
      return false;
    }
    found.push(index.peer(slot));
    return found.length >= limit;
  });
  return found;
}

/**
 * A page of the console's people list (decision 0046): the slots of the people with the
 * query's role, status, way of signing in and team whose lowered name or e-mail contains
 * `q`, in name order after the cursor, `count` at most.
 */
export function listPeople(index: DirectoryIndex, query: ListQuery): number[] {
  const found: number[] = [];
  if (query.count <= 0) return found;
  index.scan(query.q, query, query.cursor, (slot) => {
    found.push(slot);
    return found.length >= query.count;
  });
  return found;
}
