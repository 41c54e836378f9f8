import type { ParseKeys } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/dialog';
import type { ItemLocation } from '../../../lib/menu/locate-item';
import { serverMessage } from '../../../lib/server-message';
import { itemActions, useItemAction, type ItemAction } from '../api/item-actions';
import '../../../lib/panel-texts';

const LABELS: Record<ItemAction, ParseKeys> = {
  info: 'itemMenu.info',
  details: 'itemMenu.details',
  edit: 'itemMenu.edit',
  'move-up': 'itemMenu.moveUp',
  'move-down': 'itemMenu.moveDown',
  'move-to': 'itemMenu.moveTo',
  'delete-link': 'itemMenu.delete',
  'move-to-my-space': 'itemMenu.moveToMySpace',
  'add-favorite': 'itemMenu.addToFavorites',
  'remove-favorite': 'itemMenu.removeFromFavorites',
  'delete-favorite': 'itemMenu.deleteFavorite',
  'delete-collection': 'itemMenu.delete',
  'leave-share': 'itemMenu.leave',
  'delete-share': 'itemMenu.delete',
  'import-bookmarks': 'itemMenu.importBookmarks',
  'export-bookmarks': 'itemMenu.exportBookmarks',
};

const DANGER = new Set<ItemAction>([
  'delete-link',
  'delete-collection',
  'delete-share',
  'leave-share',
]);

export interface ItemMenuProps {
  location: ItemLocation;
  profileId: string;
  mySpaceId: string | null;
  /** The favorite that points at this team or organization link, if any. */
  favoriteId?: string | null;
  /**
   * 'info' (links) and 'details' (collections) open the item's details panel; 'edit' opens
   * it with the item's fields to edit.
   */
  onOpenDetails: (edit?: boolean) => void;
  /** 'Move to…' opens the list of collections the item can go to. */
  onMoveTo: () => void;
  /** 'Import bookmarks…' opens the import of a bookmark file into the collection. */
  onImportBookmarks: () => void;
  /** 'Export…' opens the choice of the file the collection is exported as. */
  onExportBookmarks: () => void;
  onClose: () => void;
}

/**
 * An item's context menu (spec §2, §6), opened by a long press or the three-dot button:
 * exactly the actions its place allows. A write closes the menu when it succeeded; on
 * failure the menu stays open with a short message.
 */
export function ItemMenu({
  location,
  profileId,
  mySpaceId,
  favoriteId = null,
  onOpenDetails,
  onMoveTo,
  onImportBookmarks,
  onExportBookmarks,
  onClose,
}: ItemMenuProps) {
  const { t } = useTranslation();
  const mutation = useItemAction();
  const { item } = location;
  const name = 'name' in item ? item.name : '';

  const run = async (action: ItemAction) => {
    if (action === 'info' || action === 'details' || action === 'edit') {
      onOpenDetails(action === 'edit');
      return;
    }
    if (action === 'move-to') {
      onMoveTo();
      return;
    }
    if (action === 'import-bookmarks') {
      onImportBookmarks();
      return;
    }
    if (action === 'export-bookmarks') {
      onExportBookmarks();
      return;
    }
    const parent = location.parent;
    if (await mutation.write({ action, item, parent, profileId, mySpaceId, favoriteId })) {
      onClose();
    }
  };

  return (
    <Dialog open onClose={onClose} variant="center" className="item-menu" title={name}>
      <ul className="action-list" aria-label={t('itemMenu.more', { name })}>
        {itemActions(location, mySpaceId, favoriteId).map((action) => (
          <li key={action}>
            <button
              type="button"
              className={`button action-list__button${DANGER.has(action) ? ' button--danger' : ''}`}
              disabled={mutation.isPending}
              onClick={() => void run(action)}
            >
              {t(LABELS[action])}
            </button>
          </li>
        ))}
      </ul>
      {mutation.isError ? (
        <p className="form-error" role="alert">
          {serverMessage(mutation.error)?.text ?? t('write.failed')}
        </p>
      ) : null}
    </Dialog>
  );
}
