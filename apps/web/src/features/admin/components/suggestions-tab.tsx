import { useTranslation } from 'react-i18next';

/** The console's suggestions tab. */
export function SuggestionsTab() {
  const { t } = useTranslation('admin');
  return <h3 className="admin-tab__title">{t('suggestions.title')}</h3>;
}
