import type { SuggestionStatus } from '@signpost/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAdminSuggestions } from '../api/suggestions';
import { SuggestionsItem } from './suggestions-item';

const STATUSES: SuggestionStatus[] = ['open', 'accepted', 'declined'];

/**
 * The console's suggestions tab (administrators and team editors): the suggestions to the
 * spaces the person runs, open ones first; accept (optionally edited) or decline.
 */
export function SuggestionsTab() {
  const { t } = useTranslation('admin');
  const [status, setStatus] = useState<SuggestionStatus>('open');
  const list = useAdminSuggestions(status);
  const [notice, setNotice] = useState<string | null>(null);
  const items = list.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <div className="admin-suggestions">
      <h2 className="admin-tab__title">{t('suggestions.title')}</h2>
      <label className="admin-field">
        <span>{t('suggestions.status')}</span>
        <select
          value={status}
          onChange={(event) => setStatus(event.target.value as SuggestionStatus)}
        >
          {STATUSES.map((value) => (
            <option key={value} value={value}>
              {t(`suggestions.statuses.${value}`)}
            </option>
          ))}
        </select>
      </label>
      <p role="status" className="hint">
        {notice}
      </p>
      {list.isPending ? <p className="hint">{t('console.loading')}</p> : null}
      {list.isError ? <p className="form-error">{t('console.loadFailed')}</p> : null}
      {list.isSuccess && items.length === 0 ? (
        <p className="hint">{t('suggestions.none')}</p>
      ) : null}
      <ul className="admin-list" aria-label={t('suggestions.title')}>
        {items.map((item) => (
          <SuggestionsItem key={item.id} item={item} onDone={setNotice} />
        ))}
      </ul>
      {list.hasNextPage ? (
        <button type="button" className="button" onClick={() => void list.fetchNextPage()}>
          {t('suggestions.more')}
        </button>
      ) : null}
    </div>
  );
}
