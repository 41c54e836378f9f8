import { useTranslation } from 'react-i18next';

/** The console's audit tab. */
export function AuditTab() {
  const { t } = useTranslation('admin');
  return <h3 className="admin-tab__title">{t('audit.title')}</h3>;
}
