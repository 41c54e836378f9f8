import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/dialog';
import { MenuItemTile, type MenuItemTileProps } from '../../../components/menu-item-tile';
import type { DisplaySpace } from '../../../lib/menu/menu-types';

export interface SpacePanelProps extends Omit<MenuItemTileProps, 'item'> {
  space: DisplaySpace;
  onClose: () => void;
}

/** 'Show all': every item of a space, grouped by its top-level collections. */
export function SpacePanel({ space, onClose, ...tileProps }: SpacePanelProps) {
  const { t } = useTranslation();
  return (
    <Dialog open onClose={onClose} title={space.name} variant="sheet">
      {space.collections.map((collection) => (
        <section key={collection.id} className="panel-section" aria-label={collection.name}>
          {space.collections.length > 1 ? <h3>{collection.name}</h3> : null}
          {collection.items.length === 0 ? <p className="hint">{t('space.empty')}</p> : null}
          <ul className="tile-grid">
            {collection.items.map((item) => (
              <li key={`${item.type}:${item.id}`}>
                <MenuItemTile item={item} {...tileProps} />
              </li>
            ))}
          </ul>
        </section>
      ))}
    </Dialog>
  );
}
