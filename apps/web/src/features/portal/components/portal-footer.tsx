import { useTranslation } from 'react-i18next';

interface Props {
  organizationName: string | null;
  onLogout: () => void;
  onConsent: () => void;
}

/** The footer: organization name, logout and the consent-preferences link. */
export function PortalFooter({ organizationName, onLogout, onConsent }: Props) {
  const { t } = useTranslation();
  return (
    <footer className="portal-footer">
      <span>{organizationName}</span>
      <button type="button" className="link-button" onClick={onConsent}>
        {t('portal.consentPreferences')}
      </button>
      <button type="button" className="link-button" onClick={onLogout}>
        {t('portal.logout')}
      </button>
    </footer>
  );
}
