import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { RECENT_LIST_COLLAPSED_COUNT } from '../../../lib/constants';

interface Props<T> {
  title: string;
  entries: readonly T[];
  keyOf: (entry: T) => string;
  render: (entry: T) => ReactNode;
}

/** A titled list showing the first few entries, with 'Show More' for the rest. */
export function RecentList<T>({ title, entries, keyOf, render }: Props<T>) {
  const { t } = useTranslation();
  const [expanded, setExpanded] = useState(false);
  if (entries.length === 0) return null;
  const shown = expanded ? entries : entries.slice(0, RECENT_LIST_COLLAPSED_COUNT);
  return (
    <section className="recent-list" aria-label={title}>
      <h3>{title}</h3>
      <ul>
        {shown.map((entry) => (
          <li key={keyOf(entry)}>{render(entry)}</li>
        ))}
      </ul>
      {entries.length > RECENT_LIST_COLLAPSED_COUNT ? (
        <button
          type="button"
          className="link-button"
          aria-expanded={expanded}
          onClick={() => setExpanded((value) => !value)}
        >
          {expanded ? t('search.showLess') : t('search.showMore')}
        </button>
      ) : null}
    </section>
  );
}
