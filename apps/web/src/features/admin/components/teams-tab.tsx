import { useTranslation } from 'react-i18next';

/** The console's teams tab. */
export function TeamsTab() {
  const { t } = useTranslation('admin');
  return <h3 className="admin-tab__title">{t('teams.title')}</h3>;
}
