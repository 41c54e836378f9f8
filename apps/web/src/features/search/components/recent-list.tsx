import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { RECENT_LIST_COLLAPSED_COUNT } from '../../../lib/constants';
import '../../../lib/panel-texts';

/** The list as the listbox of the search's combobox: each entry an option (decision 0053). */
export interface RecentListbox<T> {
  id: string;
  optionId: (index: number) => string;
  /** The option the arrow keys reached, or -1. */
  activeIndex: number;
  onPick: (entry: T) => void;
  /** The entries shown change with 'Show More' (the arrow keys move through those). */
  expanded: boolean;
  onExpandedChange: (expanded: boolean) => void;
}

interface Props<T> {
  title: string;
  entries: readonly T[];
  keyOf: (entry: T) => string;
  render: (entry: T) => ReactNode;
  listbox?: RecentListbox<T>;
}

/** The entries a recent list shows: the first few, or all once expanded. */
export function shownEntries<T>(entries: readonly T[], expanded: boolean) {
  return expanded ? entries : entries.slice(0, RECENT_LIST_COLLAPSED_COUNT);
}

/** A titled list showing the first few entries, with 'Show More' for the rest. */
export function RecentList<T>({ title, entries, keyOf, render, listbox }: Props<T>) {
  const { t } = useTranslation();
  const [ownExpanded, setOwnExpanded] = useState(false);
  const expanded = listbox ? listbox.expanded : ownExpanded;
  const setExpanded = listbox ? listbox.onExpandedChange : setOwnExpanded;
  if (entries.length === 0) return null;
  const shown = shownEntries(entries, expanded);
  return (
    <section className="recent-list" aria-label={title}>
      <h3>{title}</h3>
      {listbox ? (
        <ul role="listbox" id={listbox.id} aria-label={title} className="option-list">
          {shown.map((entry, index) => (
            // The combobox's input keeps the focus and handles the keys (aria-activedescendant);
            // a click picks the option too.
            // eslint-disable-next-line jsx-a11y-x/click-events-have-key-events -- see above
            <li
              key={keyOf(entry)}
              id={listbox.optionId(index)}
              role="option"
              aria-selected={index === listbox.activeIndex}
              className={`option${index === listbox.activeIndex ? ' option--active' : ''}`}
              // The field keeps the focus.
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => listbox.onPick(entry)}
            >
              {render(entry)}
            </li>
          ))}
        </ul>
      ) : (
        <ul>
          {shown.map((entry) => (
            <li key={keyOf(entry)}>{render(entry)}</li>
          ))}
        </ul>
      )}
      {entries.length > RECENT_LIST_COLLAPSED_COUNT ? (
        <button
          type="button"
          className="link-button"
          aria-expanded={expanded}
          onClick={() => setExpanded(!expanded)}
        >
          {expanded ? t('search.showLess') : t('search.showMore')}
        </button>
      ) : null}
    </section>
  );
}
