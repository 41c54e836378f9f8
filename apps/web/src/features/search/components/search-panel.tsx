import { NO_LINK_CAN } from '../../../lib/menu/can';
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/dialog';
import { LinkTile } from '../../../components/menu-item-tile';
import { AUTOCOMPLETE_DELAY_MS, SEARCH_MAX_RESULTS } from '../../../lib/constants';
import type { LinkLike, SearchEntry } from '../../../lib/menu/menu-types';
import { createLinkSearch } from '../../../lib/menu/search-links';
import { useLastUsed, useRecentSearches, type LastUsedLink } from '../../../lib/recent-lists';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { RecentList } from './recent-list';

interface Props {
  index: readonly SearchEntry[];
  onClose: () => void;
  onOpenLink: (link: LinkLike) => void;
}

function asLink(entry: LastUsedLink): LinkLike {
  return {
    type: 'link',
    description: '',
    appName: null,
    createdBy: null,
    can: NO_LINK_CAN,
    ...entry,
  };
}

/**
 * The search panel: autocomplete over the search index (min length 1, 300 ms, blank input
 * ignored), the last-used links and the recent searches of the signed-in token.
 */
export function SearchPanel({ index, onClose, onOpenLink }: Props) {
  const { t } = useTranslation();
  const [input, setInput] = useState('');
  const query = useDebouncedValue(input.trim(), AUTOCOMPLETE_DELAY_MS);
  const [lastUsed] = useLastUsed();
  const [recentSearches, pushRecentSearch] = useRecentSearches();
  const resultsId = useId();
  // A blank input shows the lists at once; a typed one waits for the debounce.
  const active = input.trim() !== '' && query !== '';
  const search = useMemo(() => createLinkSearch(index), [index]);
  const matches = useMemo(() => (active ? search(query) : []), [active, search, query]);
  const results = matches.slice(0, SEARCH_MAX_RESULTS);
  const total = matches.length;

  const openResult = (link: LinkLike) => {
    pushRecentSearch(query);
    onOpenLink(link);
  };

  return (
    <Dialog open onClose={onClose} title={t('search.title')} className="search-panel">
      <form
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          if (input.trim() !== '') pushRecentSearch(input.trim());
        }}
      >
        <input
          type="search"
          className="search-input"
          aria-label={t('search.label')}
          placeholder={t('search.placeholder')}
          aria-controls={resultsId}
          autoComplete="off"
          value={input}
          onChange={(event) => setInput(event.target.value)}
        />
      </form>
      <div id={resultsId} aria-live="polite">
        {active ? (
          <section aria-label={t('search.results')}>
            <p className="hint result-count">{t('search.resultCount', { count: total })}</p>
            {results.length === 0 ? <p>{t('search.noResults', { query })}</p> : null}
            <ul className="result-list">
              {results.map((entry) => (
                <li key={`${entry.item.type}:${entry.item.id}`} className="result">
                  <LinkTile link={entry.item} onOpen={openResult} />
                  <span className="result__location">{entry.locationTree.join(' > ')}</span>
                </li>
              ))}
            </ul>
          </section>
        ) : null}
      </div>
      {!active ? (
        <div className="search-lists">
          <RecentList
            title={t('search.lastUsed')}
            entries={lastUsed}
            keyOf={(entry) => entry.id}
            render={(entry) => <LinkTile link={asLink(entry)} onOpen={onOpenLink} />}
          />
          <RecentList
            title={t('search.recentSearches')}
            entries={recentSearches}
            keyOf={(entry) => entry}
            render={(entry) => (
              <button type="button" className="link-button" onClick={() => setInput(entry)}>
                {entry}
              </button>
            )}
          />
        </div>
      ) : null}
    </Dialog>
  );
}
