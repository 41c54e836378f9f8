import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/dialog';
import { config } from '../../../lib/config';
import { useMenu } from '../../../lib/menu/get-menu';
import { safeHref } from '../../../lib/safe-url';

/** The feedback dialog: a way to the organization's (or the build's) external feedback form. */
export function FeedbackDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  // The organization's own form (its settings) comes first, then the build's.
  const configured = useMenu().data?.organization.feedbackUrl ?? config.feedbackUrl;
  const href = configured ? safeHref(configured) : null;
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
