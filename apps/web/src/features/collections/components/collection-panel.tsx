import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/dialog';
import { ArrowLeftIcon } from '../../../components/icons';
import { MenuItemTile, type MenuItemTileProps } from '../../../components/menu-item-tile';
import type { DisplayCollection } from '../../../lib/menu/menu-types';

export interface CollectionPanelProps extends Omit<MenuItemTileProps, 'item'> {
  collection: DisplayCollection;
  onBack: () => void;
  onClose: () => void;
}

/**
 * A collection's items, with a back arrow and its name in the header. The header menu, the
 * Add members footer and the drop zones are added on top of this panel.
 */
export function CollectionPanel({
  collection,
  onBack,
  onClose,
  ...tileProps
}: CollectionPanelProps) {
  const { t } = useTranslation();
  return (
    <Dialog
      open
      onClose={onClose}
      variant="sheet"
      title={collection.name}
      leading={
        <button type="button" className="icon-button" onClick={onBack} aria-label={t('space.back')}>
          <ArrowLeftIcon />
        </button>
      }
    >
      {collection.description ? <p className="hint">{collection.description}</p> : null}
      {collection.items.length === 0 ? <p className="hint">{t('space.empty')}</p> : null}
      <ul className="tile-grid">
        {collection.items.map((item) => (
          <li key={`${item.type}:${item.id}`}>
            <MenuItemTile item={item} {...tileProps} />
          </li>
        ))}
      </ul>
    </Dialog>
  );
}
