import { useTranslation } from 'react-i18next';

/** The console's people tab. */
export function PeopleTab() {
  const { t } = useTranslation('admin');
  return <h3 className="admin-tab__title">{t('people.title')}</h3>;
}
