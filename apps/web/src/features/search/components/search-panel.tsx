import { NO_LINK_CAN } from '../../../lib/menu/can';
import {
  useCallback,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
} from 'react';
import { useTranslation } from 'react-i18next';
import { createLinkSearch } from '@signpost/link-search';
import { Dialog } from '../../../components/dialog';
import { LinkTile } from '../../../components/menu-item-tile';
import { AUTOCOMPLETE_DELAY_MS, SEARCH_MAX_RESULTS } from '../../../lib/constants';
import type { LinkLike, SearchEntry } from '../../../lib/menu/menu-types';
import { useLastUsed, useRecentSearches, type LastUsedLink } from '../../../lib/recent-lists';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { useActiveOption } from '../hooks/use-active-option';
import { stopCollectingTyped, typedBeforeFocus } from '../hooks/use-search-shortcut';
import { openInNewTab } from '../open-in-new-tab';
import { RecentList, shownEntries } from './recent-list';
import { ResultOption } from './result-option';
import '../../../lib/panel-texts';

interface Props {
  index: readonly SearchEntry[];
  /** The terms it opens with: the portal's address carried them (`/?q=…`). */
  initialQuery?: string;
  onClose: () => void;
  onOpenLink: (link: LinkLike) => void;
  /**
   * Opens a result's details (where those who may change it edit it, decision 0008): from
   * the highlighted result's Details button, or a right-click on a result.
   */
  onOpenDetails?: (entry: SearchEntry) => void;
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
 * The search panel: an autocomplete over the search index (min length 1, 300 ms, blank
 * input ignored), the last-used links and the recent searches of the signed-in token.
 *
 * The field is a combobox (decision 0053): while a query is typed its listbox holds the
 * results, best first; while the field is blank, the recent searches. The arrow keys move
 * the active option (the focus stays in the field), Enter picks it: a result opens in a new
 * tab as a click does, a recent search becomes the query. Escape closes the panel.
 */
export function SearchPanel({ index, initialQuery, onClose, onOpenLink, onOpenDetails }: Props) {
  const { t } = useTranslation();
  // Keys typed right after the shortcut, before this field could take them, start the query.
  const [input, setInput] = useState(() => initialQuery ?? typedBeforeFocus());
  // Keys typed until the field has the focus are kept for it, and given to it when it takes
  // the focus: usually as the dialog opens (a child, whose effects run first), or later when
  // something held it up. Keys typed before were kept too.
  const field = useRef<HTMLInputElement>(null);
  const takeTyped = useCallback(() => {
    const typed = typedBeforeFocus();
    stopCollectingTyped();
    if (typed) setInput(typed);
  }, []);
  useEffect(() => {
    if (document.activeElement === field.current) takeTyped();
  }, [takeTyped]);
  const query = useDebouncedValue(input.trim(), AUTOCOMPLETE_DELAY_MS);
  const [lastUsed] = useLastUsed();
  const [recentSearches, pushRecentSearch] = useRecentSearches();
  const [recentExpanded, setRecentExpanded] = useState(false);
  const baseId = useId();
  const resultsId = `${baseId}results`;
  const recentId = `${baseId}recent`;
  // A blank input shows the lists at once; a typed one waits for the debounce.
  const active = input.trim() !== '' && query !== '';
  const search = useMemo(() => createLinkSearch(index), [index]);
  const { results, total } = useMemo(
    () => (active ? search(query, SEARCH_MAX_RESULTS) : { results: [], total: 0 }),
    [active, search, query],
  );
  const recentShown = shownEntries(recentSearches, recentExpanded);

  const listKey = active ? `results:${query}` : 'recent';
  const optionCount = active ? results.length : recentShown.length;
  const { activeIndex, move, clear } = useActiveOption(optionCount, listKey);
  const listId = active ? resultsId : recentId;
  const optionId = (i: number) => `${listId}-${i}`;
  const activeId = activeIndex >= 0 ? optionId(activeIndex) : undefined;

  useEffect(() => {
    if (activeId) document.getElementById(activeId)?.scrollIntoView?.({ block: 'nearest' });
  }, [activeId]);

  const openResult = (link: LinkLike) => {
    if (!openInNewTab(link.url)) return;
    pushRecentSearch(query);
    onOpenLink(link);
  };
  const pickRecentSearch = (entry: string) => {
    setInput(entry);
    clear();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      move(event.key === 'ArrowDown' ? 1 : -1);
    } else if (event.key === 'Enter' && activeIndex >= 0) {
      event.preventDefault();
      if (active) openResult(results[activeIndex]!.item);
      else pickRecentSearch(recentShown[activeIndex]!);
    }
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
        {/* A text field, not type="search": Escape in a search field clears it, where the
            panel's Escape closes the search (as in every dialog). */}
        <input
          ref={field}
          onFocus={takeTyped}
          type="text"
          enterKeyHint="search"
          role="combobox"
          className="search-input"
          aria-label={t('search.label')}
          placeholder={t('search.placeholder')}
          aria-autocomplete="list"
          aria-controls={listId}
          aria-expanded={optionCount > 0}
          aria-activedescendant={activeId}
          autoComplete="off"
          value={input}
          onChange={(event) => {
            setInput(event.target.value);
            clear();
          }}
          onKeyDown={onKeyDown}
        />
      </form>
      <div role="status">
        {active ? (
          <>
            <p className="hint result-count">{t('search.resultCount', { count: total })}</p>
            {results.length === 0 ? <p>{t('search.noResults', { query })}</p> : null}
          </>
        ) : null}
      </div>
      {active && onOpenDetails && activeIndex >= 0 && results[activeIndex] ? (
        <p className="search-details">
          <button
            type="button"
            className="button"
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => onOpenDetails(results[activeIndex]!)}
          >
            {t('search.details', { name: results[activeIndex]!.item.name })}
          </button>
        </p>
      ) : null}
      {active && results.length > 0 ? (
        <section aria-label={t('search.results')}>
          <ul
            role="listbox"
            id={resultsId}
            aria-label={t('search.results')}
            className="option-list"
          >
            {results.map((entry, i) => (
              <ResultOption
                key={`${entry.item.type}:${entry.item.id}`}
                id={optionId(i)}
                entry={entry}
                active={i === activeIndex}
                onOpen={openResult}
                onDetails={onOpenDetails}
              />
            ))}
          </ul>
        </section>
      ) : null}
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
            render={(entry) => <span className="option__name">{entry}</span>}
            listbox={{
              id: recentId,
              optionId,
              activeIndex,
              onPick: pickRecentSearch,
              expanded: recentExpanded,
              onExpandedChange: setRecentExpanded,
            }}
          />
        </div>
      ) : null}
    </Dialog>
  );
}
