import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/dialog';
import { MenuItemTile, type MenuItemTileProps } from '../../../components/menu-item-tile';
import type { DisplayCollection, DisplaySpace } from '../../../lib/menu/menu-types';
import { useProgressiveCount } from '../../../lib/use-progressive-count';
import { BuddyContact } from './buddy-contact';

export interface SpacePanelProps extends Omit<MenuItemTileProps, 'item'> {
  space: DisplaySpace;
  onClose: () => void;
  /** Adds a top-level collection; given where the space's `can.addCollection` holds. */
  onAddCollection?: () => void;
  /** Opens the add panel of a collection (shown where its `can.addLink` holds). */
  onAddTo?: (collectionId: string) => void;
  /** Opens a collection's details: edit, delete (shown where its `can.edit` holds). */
  onCollectionDetails?: (collectionId: string) => void;
  /**
   * Wraps the tiles of one top-level collection (the portal gives the choice of several
   * items at once there, decision 0075); the tiles alone otherwise.
   */
  wrapItems?: (collection: DisplayCollection, tiles: ReactNode) => ReactNode;
}

/**
 * 'Show all': every item of a space, grouped by its top-level collections. A space of
 * hundreds of links renders its first screenful at once and the rest in short steps.
 */
export function SpacePanel({
  space,
  onClose,
  onAddCollection,
  onAddTo,
  onCollectionDetails,
  wrapItems = (_collection, tiles) => tiles,
  ...tileProps
}: SpacePanelProps) {
  const { t } = useTranslation();
  const total = space.collections.reduce((sum, collection) => sum + collection.items.length, 0);
  let budget = useProgressiveCount(total);
  return (
    <Dialog open onClose={onClose} title={space.name} variant="sheet">
      {space.buddy ? <BuddyContact buddy={space.buddy} className="space-panel__buddy" /> : null}
      {onAddCollection ? (
        <p className="space-panel__actions">
          <button type="button" className="button" onClick={onAddCollection}>
            {t('space.addCollection')}
          </button>
        </p>
      ) : null}
      {space.collections.map((collection) => {
        // The people who run a team or organization space reach each of its top-level
        // collections here: Add, and its details (edit, delete).
        const curated =
          space.type !== 'personal' && (collection.can.addLink || collection.can.edit);
        const shown = collection.items.slice(0, Math.max(0, budget));
        budget -= shown.length;
        return (
          <section
            key={collection.id}
            className="panel-section space-panel__section"
            aria-label={collection.name}
          >
            {space.collections.length > 1 || curated ? (
              <div className="space-panel__heading">
                <h3>{collection.name}</h3>
                {curated ? (
                  <div className="space-panel__tools">
                    {onAddTo && collection.can.addLink ? (
                      <button
                        type="button"
                        className="button"
                        aria-label={t('space.addTo', { name: collection.name })}
                        onClick={() => onAddTo(collection.id)}
                      >
                        {t('space.add')}
                      </button>
                    ) : null}
                    {onCollectionDetails && collection.can.edit ? (
                      <button
                        type="button"
                        className="button"
                        aria-label={t('space.detailsOf', { name: collection.name })}
                        onClick={() => onCollectionDetails(collection.id)}
                      >
                        {t('itemMenu.details')}
                      </button>
                    ) : null}
                  </div>
                ) : null}
              </div>
            ) : null}
            {collection.items.length === 0 ? <p className="hint">{t('space.empty')}</p> : null}
            {wrapItems(
              collection,
              <ul className="tile-grid" aria-busy={shown.length < collection.items.length}>
                {shown.map((item) => (
                  <li key={`${item.type}:${item.id}`}>
                    <MenuItemTile item={item} {...tileProps} />
                  </li>
                ))}
              </ul>,
            )}
          </section>
        );
      })}
    </Dialog>
  );
}
