import type { CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/dialog';
import { moveTargets } from '../../../lib/menu/arrange';
import type { ItemLocation } from '../../../lib/menu/locate-item';
import { serverMessage } from '../../../lib/server-message';
import { useMoveTo } from '../api/move-to';
import '../../../lib/panel-texts';

/**
 * "Move to…" (decision 0075): every collection of the item's space it may go to, at any
 * depth, each with the names from its space down to it. Choosing one moves the item to its
 * end, and the notice offers to undo it (decision 0076).
 */
export function MoveToDialog({
  location,
  onClose,
}: {
  location: ItemLocation;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const move = useMoveTo();
  const { item } = location;
  const name = 'name' in item ? item.name : '';
  const targets = moveTargets(location);

  const run = async (collectionId: string) => {
    if (await move.write({ item, collectionId })) onClose();
  };

  return (
    <Dialog
      open
      onClose={onClose}
      variant="center"
      className="item-menu move-to"
      title={t('itemMenu.moveToTitle', { name, interpolation: { escapeValue: false } })}
    >
      {targets.length === 0 ? (
        <p className="hint">{t('itemMenu.moveToNone')}</p>
      ) : (
        <ul className="action-list move-to__list">
          {targets.map((target) => (
            <li key={target.id} style={{ '--depth': target.depth } as CSSProperties}>
              <button
                type="button"
                className="button action-list__button move-to__target"
                disabled={move.isPending}
                onClick={() => void run(target.id)}
              >
                <span className="move-to__name">{target.path.at(-1)}</span>
                {target.path.length > 1 ? (
                  <span className="hint move-to__path">{target.path.slice(0, -1).join(' › ')}</span>
                ) : null}
              </button>
            </li>
          ))}
        </ul>
      )}
      {move.isError ? (
        <p className="form-error" role="alert">
          {serverMessage(move.error)?.text ?? t('write.failed')}
        </p>
      ) : null}
    </Dialog>
  );
}
