import type { CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { COLLECTION_PREVIEW_MAX_ICONS } from '../lib/constants';
import type { CollectionLike, DisplayItem, LinkLike } from '../lib/menu/menu-types';
import { isLink } from '../lib/menu/menu-types';
import { safeHref } from '../lib/safe-url';
import { LinkIcon } from './link-icon';
import { PlusIcon } from './icons';

export interface MenuItemTileProps {
  item: DisplayItem;
  /** Called when a link is opened (for the last-used list). */
  onOpenLink?: (link: LinkLike) => void;
  onOpenCollection?: (collection: CollectionLike) => void;
  onAdd?: (collectionId: string) => void;
}

/** A link opens in a new tab without opener or referrer; an unsafe address is plain text. */
export function LinkTile({ link, onOpen }: { link: LinkLike; onOpen?: (link: LinkLike) => void }) {
  const { t } = useTranslation();
  const href = safeHref(link.url);
  const content = (
    <>
      <LinkIcon name={link.name} icon={link.icon} />
      <span className="tile__name">{link.name}</span>
    </>
  );
  if (!href) {
    return (
      <span className="tile tile--disabled" title={t('item.unsafeUrl')}>
        {content}
      </span>
    );
  }
  return (
    <a
      className="tile"
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      aria-label={t('item.openInNewTab', { name: link.name })}
      title={link.description || link.name}
      onClick={() => onOpen?.(link)}
    >
      {content}
    </a>
  );
}

/** A collection shows up to COLLECTION_PREVIEW_MAX_ICONS icons of its links. */
export function CollectionPreview({ collection }: { collection: CollectionLike }) {
  const links = collection.items.filter(isLink).slice(0, COLLECTION_PREVIEW_MAX_ICONS);
  return (
    <span className="collection-preview" aria-hidden="true">
      {links.map((link) => (
        <LinkIcon key={link.id} name={link.name} icon={link.icon} />
      ))}
    </span>
  );
}

export function MenuItemTile({ item, onOpenLink, onOpenCollection, onAdd }: MenuItemTileProps) {
  const { t } = useTranslation();
  if (item.type === 'addlink') {
    return (
      <button type="button" className="tile tile--add" onClick={() => onAdd?.(item.collectionId)}>
        <span className="link-icon link-icon--add" aria-hidden="true">
          <PlusIcon />
        </span>
        <span className="tile__name">{t('space.add')}</span>
      </button>
    );
  }
  if (isLink(item)) return <LinkTile link={item} onOpen={onOpenLink} />;
  return (
    <button
      type="button"
      className="tile tile--collection"
      onClick={() => onOpenCollection?.(item)}
      style={item.color ? ({ '--collection-color': item.color } as CSSProperties) : undefined}
    >
      <CollectionPreview collection={item} />
      <span className="tile__name">{item.name}</span>
    </button>
  );
}
