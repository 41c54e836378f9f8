import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/dialog';
import { MoveTargetList } from '../../../components/move-target-list';
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
        <MoveTargetList
          targets={targets}
          disabled={move.isPending}
          onChoose={(id) => void run(id)}
        />
      )}
      {move.isError ? (
        <p className="form-error" role="alert">
          {serverMessage(move.error)?.text ?? t('write.failed')}
        </p>
      ) : null}
    </Dialog>
  );
}
