import { useTranslation } from 'react-i18next';

interface Props {
  organizationName: string | null;
  onLogout: () => void;
  onConsent: () => void;
  /** Opens the person's settings; without it, the footer offers none. */
  onSettings?: () => void;
  /** Opens the administration console; only for the people who run something. */
  onAdminister?: () => void;
}

/** The footer: organization name, settings, logout and the consent-preferences link. */
export function PortalFooter({
  organizationName,
  onLogout,
  onConsent,
  onSettings,
  onAdminister,
}: Props) {
  const { t } = useTranslation();
  return (
    <footer className="portal-footer">
      <span>{organizationName}</span>
      <button type="button" className="link-button" onClick={onConsent}>
        {t('portal.consentPreferences')}
      </button>
      {onSettings ? (
        <button type="button" className="link-button" onClick={onSettings}>
          {t('portal.settings')}
        </button>
      ) : null}
      {onAdminister ? (
        <button type="button" className="link-button" onClick={onAdminister}>
          {t('portal.administration')}
        </button>
      ) : null}
      <button type="button" className="link-button" onClick={onLogout}>
        {t('portal.logout')}
      </button>
    </footer>
  );
}
