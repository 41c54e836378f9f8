import { useTranslation } from 'react-i18next';

/** The console's settings tab. */
export function SettingsTab() {
  const { t } = useTranslation('admin');
  return <h3 className="admin-tab__title">{t('settings.title')}</h3>;
}
