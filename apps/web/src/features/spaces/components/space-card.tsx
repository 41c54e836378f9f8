import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import type { BookmarkImportTarget } from '@signpost/contract';
import { FolderIcon } from '../../../components/icons';
import { MenuItemTile, type MenuItemTileProps } from '../../../components/menu-item-tile';
import { SPACE_PANEL_MAX_ITEMS } from '../../../lib/constants';
import { spaceImportTarget } from '../../../lib/menu/bookmark-places';
import { useMenu } from '../../../lib/menu/get-menu';
import { spaceItems } from '../../../lib/menu/process-menu';
import type { DisplaySpace } from '../../../lib/menu/menu-types';
import { BuddyContact } from './buddy-contact';
import { SpaceToolbar } from './space-toolbar';

export interface SpaceCardProps extends Omit<MenuItemTileProps, 'item'> {
  space: DisplaySpace;
  profileName: string;
  onShowAll: (space: DisplaySpace) => void;
  /** Opens the suggestions waiting in the space, for those who run it. */
  onOpenSuggestions?: () => void;
  /** Adds a top-level collection; offered where the space's `can.addCollection` holds. */
  onAddCollection?: (space: DisplaySpace) => void;
  /** Opens a collection's details, to suggest a link there. */
  onSuggest?: (collectionId: string) => void;
  /**
   * Opens one of the space's top-level collections as a panel (its Add, its menu): offered
   * to the people who run the space when the card cannot show them apart.
   */
  onOpenTopCollection?: (collectionId: string) => void;
  /**
   * Imports a bookmark file into a new collection at the top of the space; offered where the
   * person may add one there (decision 0087).
   */
  onImportBookmarks?: (target: BookmarkImportTarget) => void;
  /** Exports the whole space as a file. */
  onExportBookmarks?: (space: DisplaySpace) => void;
}

/**
 * One card per space: toolbar, intro text, at most 12 items, then 'Show all' with a count.
 * The people who run a team or organization space (its `can.addCollection`) add top-level
 * collections from the toolbar, or from the empty state of a space without any.
 * Memoized: opening a panel or typing a search re-renders the portal, not its cards.
 */
export const SpaceCard = memo(function SpaceCard({
  space,
  profileName,
  onShowAll,
  onOpenSuggestions,
  onAddCollection,
  onSuggest,
  onOpenTopCollection,
  onImportBookmarks,
  onExportBookmarks,
  ...tileProps
}: SpaceCardProps) {
  const { t } = useTranslation();
  // The organization's own intro for this kind of space (its settings), else the built-in one.
  const intro = useMenu().data?.organization.intros[space.type];
  const items = spaceItems(space);
  const shown = items.slice(0, SPACE_PANEL_MAX_ITEMS);
  // The Add tile is not an item: "Show all" counts what there is to see.
  const count = items.filter((item) => item.type !== 'addlink').length;
  // Show all is also the way to each top-level collection of a team or organization space
  // (its Add and details) for the people who run it, when the card cannot show them apart:
  // several of them, or one that is empty.
  const collectionsApart =
    space.type !== 'personal' &&
    space.collections.some((collection) => collection.can.edit) &&
    (space.collections.length > 1 ||
      space.collections.some((collection) => collection.items.length === 0));
  const addCollection =
    space.can.addCollection && onAddCollection ? () => onAddCollection(space) : undefined;
  const bare = space.collections.length === 0;
  const importTarget = onImportBookmarks ? spaceImportTarget(space) : null;
  const importBookmarks =
    importTarget && onImportBookmarks ? () => onImportBookmarks(importTarget) : undefined;
  const exportBookmarks = onExportBookmarks ? () => onExportBookmarks(space) : undefined;
  return (
    <section className="space-card" aria-label={space.name} data-space-type={space.type}>
      <SpaceToolbar
        space={space}
        onOpenSuggestions={onOpenSuggestions}
        onAddCollection={bare ? undefined : addCollection}
        onSuggest={onSuggest}
        onImportBookmarks={importBookmarks}
        onExportBookmarks={exportBookmarks}
      />
      <p className="space-card__intro">
        {intro || t(`space.intro.${space.type}`, { name: profileName, space: space.name })}
      </p>
      {space.buddy ? <BuddyContact buddy={space.buddy} className="space-card__buddy" /> : null}
      {addCollection && bare ? (
        <div className="space-card__empty">
          <p className="hint">{t('space.noCollections')}</p>
          <button type="button" className="button button--primary" onClick={addCollection}>
            {t('space.addCollection')}
          </button>
        </div>
      ) : shown.length === 0 ? (
        <p className="hint">{t('space.empty')}</p>
      ) : null}
      <ul className="tile-grid">
        {shown.map((item) => (
          <li key={`${item.type}:${item.id}`}>
            <MenuItemTile item={item} {...tileProps} />
          </li>
        ))}
      </ul>
      {collectionsApart && onOpenTopCollection ? (
        <ul className="space-card__collections" aria-label={t('space.collections')}>
          {space.collections.map((collection) => (
            <li key={collection.id}>
              <button
                type="button"
                className="button space-card__collection"
                onClick={() => onOpenTopCollection(collection.id)}
              >
                <FolderIcon />
                <bdi>{collection.name}</bdi>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {items.length > SPACE_PANEL_MAX_ITEMS || collectionsApart ? (
        <button type="button" className="button show-all" onClick={() => onShowAll(space)}>
          {t('space.showAll')}
          <span className="badge" aria-label={t('space.itemCount', { count })}>
            {count}
          </span>
        </button>
      ) : null}
    </section>
  );
});
