import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/dialog';
import { hasTrackingConsent, setTrackingConsent } from '../../../lib/tracking';

/** Consent preferences: the person chooses whether usage events may be sent. */
export function ConsentDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const [allowed, setAllowed] = useState(hasTrackingConsent);
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
