import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/dialog';
import { useMenu } from '../../../lib/menu/get-menu';
import { safeHref } from '../../../lib/safe-url';
import { hasTrackingConsent, setTrackingConsent } from '../../../lib/tracking';

/**
 * Consent preferences: the person chooses whether usage events may be sent, and finds the
 * organization's own consent page when its settings name one.
 */
export function ConsentDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const [allowed, setAllowed] = useState(hasTrackingConsent);
  const consentUrl = useMenu().data?.organization.consentUrl;
  const organizationHref = consentUrl ? safeHref(consentUrl) : null;
  return (
    <Dialog
      open
      onClose={onClose}
      title={t('portal.consentTitle')}
      footer={
        <button
          type="button"
          className="button button--primary"
          onClick={() => {
            setTrackingConsent(allowed);
            onClose();
          }}
        >
          {t('portal.consentSave')}
        </button>
      }
    >
      <p>{t('portal.consentText')}</p>
      {organizationHref ? (
        <p>
          <a href={organizationHref} target="_blank" rel="noopener noreferrer">
            {t('portal.consentOrganization')}
          </a>
        </p>
      ) : null}
      <label className="checkbox">
        <input
          type="checkbox"
          checked={allowed}
          onChange={(event) => setAllowed(event.target.checked)}
        />
        {t('portal.consentAllow')}
      </label>
    </Dialog>
  );
}
