import { useTranslation } from 'react-i18next';
import { useOwnSuggestions } from '../api/own-suggestions';
import { formatDate } from './format-date';
import { SettingsSection } from './settings-section';
import '../../../lib/panel-texts';

/** "Your suggestions": what the person suggested to team and organization spaces, and what became of it. */
export function SuggestionsSection() {
  const { t } = useTranslation();
  const list = useOwnSuggestions();
  const items = list.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <SettingsSection title={t('settings.suggestions.title')}>
      {list.isPending ? <p className="hint">{t('portal.loading')}</p> : null}
      {list.isError ? <p className="form-error">{t('settings.loadFailed')}</p> : null}
      {list.isSuccess && items.length === 0 ? (
        <p className="hint">{t('settings.suggestions.none')}</p>
      ) : null}
      {items.length > 0 ? (
        <ul className="settings-list" aria-label={t('settings.suggestions.title')}>
          {items.map((item) => (
            <li key={item.id} className="settings-list__item">
              <span>
                <strong>{item.name}</strong>{' '}
                {t('settings.suggestions.where', {
                  collection: item.collection.name,
                  space: item.space.name,
                })}
              </span>
              <span className="hint">
                {t(`settings.suggestions.status.${item.status}`)}
                {' · '}
                {formatDate(item.decidedAt ?? item.createdAt)}
                {item.reason
                  ? ` · ${t('settings.suggestions.reason', { reason: item.reason })}`
                  : ''}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
      {list.hasNextPage ? (
        <button type="button" className="button" onClick={() => void list.fetchNextPage()}>
          {t('settings.suggestions.more')}
        </button>
      ) : null}
    </SettingsSection>
  );
}
