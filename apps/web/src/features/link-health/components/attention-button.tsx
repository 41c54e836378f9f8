import { useTranslation } from 'react-i18next';
import { WarningIcon } from '../../../components/health-icons';
import { useLinkHealth } from '../../../lib/link-health/context';

/**
 * The header's way to the links the person can fix (decision 0069), with their count; not
 * there when there is nothing to fix (the marks of shares one is a member of ask nothing).
 * Narrow screens show the icon and the count; the button's name is the whole sentence.
 */
export function AttentionButton({ onOpen }: { onOpen: () => void }) {
  const { t } = useTranslation();
  const { fixable } = useLinkHealth();
  const count = fixable.length;
  if (count === 0) return null;
  return (
    <button type="button" className="button attention-button" onClick={onOpen}>
      <WarningIcon />
      <span className="attention-button__count" aria-hidden="true">
        {count}
      </span>
      <span className="attention-button__text">{t('portal.attention', { count })}</span>
    </button>
  );
}
