import { useId, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/dialog';
import { ArrowLeftIcon, MoreIcon } from '../../../components/icons';
import { MenuItemTile, type MenuItemTileProps } from '../../../components/menu-item-tile';
import type { DisplayItem } from '../../../lib/menu/menu-types';
import { useDismiss } from '../../../lib/use-dismiss';

export interface CollectionPanelProps extends Omit<MenuItemTileProps, 'item'> {
  collection: { id: string; name: string; description: string; items: DisplayItem[] };
  onBack: () => void;
  onClose: () => void;
  /** Header menu entries; each is shown only when given. */
  onDetails?: () => void;
  onAddLink?: () => void;
  /**
   * The Add members footer: shown when the panel's parent is the personal space and the
   * panel itself is not the personal space (spec §2), to the people who may share it.
   */
  onAddMembers?: () => void;
  /** The items area, e.g. a drag-and-drop grid; a plain grid of tiles otherwise. */
  children?: ReactNode;
}

/**
 * A collection's items (spec §2): header with a back arrow, the collection's name and a
 * menu; the Add members footer; the drop zones come with the items area.
 */
export function CollectionPanel({
  collection,
  onBack,
  onClose,
  onDetails,
  onAddLink,
  onAddMembers,
  children,
  ...tileProps
}: CollectionPanelProps) {
  const { t } = useTranslation();
  const [menuOpen, setMenuOpen] = useState(false);
  const menuId = useId();
  const menuArea = useRef<HTMLDivElement>(null);
  const menuToggle = useRef<HTMLButtonElement>(null);
  // Escape closes the menu alone; the panel stays open.
  useDismiss(menuOpen, () => setMenuOpen(false), menuArea, menuToggle);
  const entries = [
    onDetails ? { label: t('itemMenu.details'), run: onDetails } : null,
    onAddLink ? { label: t('itemMenu.addLink'), run: onAddLink } : null,
    onAddMembers ? { label: t('itemMenu.addMembers'), run: onAddMembers } : null,
  ].filter((entry) => entry !== null);

  return (
    <Dialog
      open
      onClose={onClose}
      variant="sheet"
      className="collection-panel"
      title={collection.name}
      leading={
        <button type="button" className="icon-button" onClick={onBack} aria-label={t('space.back')}>
          <ArrowLeftIcon />
        </button>
      }
      trailing={
        entries.length > 0 ? (
          <div className="header-menu" ref={menuArea}>
            <button
              ref={menuToggle}
              type="button"
              className="icon-button"
              aria-label={t('itemMenu.collectionMenu')}
              aria-expanded={menuOpen}
              aria-controls={menuId}
              onClick={() => setMenuOpen((open) => !open)}
            >
              <MoreIcon />
            </button>
            {menuOpen ? (
              <ul id={menuId} className="header-menu__list">
                {entries.map((entry) => (
                  <li key={entry.label}>
                    <button
                      type="button"
                      className="link-button"
                      onClick={() => {
                        setMenuOpen(false);
                        entry.run();
                      }}
                    >
                      {entry.label}
                    </button>
                  </li>
                ))}
              </ul>
            ) : null}
          </div>
        ) : null
      }
      footer={
        onAddMembers ? (
          <button type="button" className="button button--primary" onClick={onAddMembers}>
            {t('details.addMembers')}
          </button>
        ) : undefined
      }
    >
      {collection.description ? <p className="hint">{collection.description}</p> : null}
      {collection.items.length === 0 ? <p className="hint">{t('space.empty')}</p> : null}
      {children ?? (
        <ul className="tile-grid">
          {collection.items.map((item) => (
            <li key={`${item.type}:${item.id}`}>
              <MenuItemTile item={item} {...tileProps} />
            </li>
          ))}
        </ul>
      )}
    </Dialog>
  );
}
