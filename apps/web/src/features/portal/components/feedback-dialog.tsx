import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/dialog';
import { config } from '../../../lib/config';
import { safeHref } from '../../../lib/safe-url';

/** The feedback dialog: a way to the configured external feedback form. */
export function FeedbackDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const href = config.feedbackUrl ? safeHref(config.feedbackUrl) : null;
  return (
    <Dialog open onClose={onClose} title={t('portal.feedbackTitle')}>
      {href ? (
        <>
          <p>{t('portal.feedbackText')}</p>
          <a
            className="button button--primary"
            href={href}
            target="_blank"
            rel="noopener noreferrer"
          >
            {t('portal.feedbackLink')}
          </a>
        </>
      ) : (
        <p>{t('portal.feedbackUnavailable')}</p>
      )}
    </Dialog>
  );
}
