import { useTranslation } from 'react-i18next';
import type { ServerMessage } from '../../../lib/server-message';
import '../../../lib/panel-texts';

/**
 * The foot of an edit in place (a link's or a collection's): the server's refusal when it is
 * about no one field, then Cancel and Save.
 */
export function EditFormFoot({
  failed,
  problem,
  pending,
  onCancel,
}: {
  /** Whether the last save failed. */
  failed: boolean;
  /** What the server said; shown here unless it is about a field (shown by the field). */
  problem: ServerMessage<string> | null;
  pending: boolean;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  return (
    <>
      {failed && !problem?.field ? (
        <p className="form-error" role="alert">
          {problem?.text ?? t('write.failed')}
        </p>
      ) : null}
      <div className="details__actions">
        <button type="button" className="button" onClick={onCancel} disabled={pending}>
          {t('details.cancel')}
        </button>
        <button type="submit" className="button button--primary" disabled={pending}>
          {t('details.save')}
        </button>
      </div>
    </>
  );
}
