import type { Person } from '@signpost/contract';
import { useCallback, useEffect, useRef, useState } from 'react';
import { getPeers } from '../api/get-peers';

/**
 * The people list, PEERS_PAGE_SIZE at a time: the first page loads when the query changes
 * (and on open); `loadMore` appends the next one. An empty page stops further loading.
 */
export function usePeerPages(query: string) {
  const [people, setPeople] = useState<Person[]>([]);
  const [done, setDone] = useState(false);
  const [loading, setLoading] = useState(true);
  // Answers to an older query are dropped; only one page loads at a time.
  const generation = useRef(0);
  const busy = useRef(false);
  const count = useRef(0);

  const loadPage = useCallback(async (forQuery: string, offset: number, forGeneration: number) => {
    busy.current = true;
    setLoading(true);
    const page = await getPeers({ query: forQuery, offset });
    if (forGeneration !== generation.current) return;
    busy.current = false;
    setLoading(false);
    if (page.length === 0) {
      setDone(true);
      return;
    }
    setPeople((previous) => {
      const known = new Set(previous.map((person) => person.id));
      const next = [...previous, ...page.filter((person) => !known.has(person.id))];
      count.current = offset + page.length;
      return next;
    });
  }, []);

  useEffect(() => {
    generation.current += 1;
    count.current = 0;
    setPeople([]);
    setDone(false);
    void loadPage(query, 0, generation.current);
  }, [query, loadPage]);

  const loadMore = useCallback(() => {
    if (busy.current || done) return;
    void loadPage(query, count.current, generation.current);
  }, [done, loadPage, query]);

  return { people, done, loading, loadMore };
}
