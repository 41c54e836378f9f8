import { lazy, Suspense, useId, type CSSProperties } from 'react';
import { COLLECTION_PREVIEW_MAX_ICONS } from '../lib/constants';
import type { CollectionLike, DisplayItem, LinkLike } from '../lib/menu/menu-types';
import { isLink } from '../lib/menu/menu-types';
import { safeHref } from '../lib/safe-url';
import { useLongPress } from '../lib/use-long-press';
import { useTexts } from '../lib/use-texts';
import { useLinkMark } from '../lib/link-health/context';
import { LinkIcon } from './link-icon';
import { FolderIcon, MoreIcon, PlusIcon, UsersIcon } from './icons';

export interface MenuItemTileProps {
  item: DisplayItem;
  /** Called when a link is opened (for the last-used list). */
  onOpenLink?: (link: LinkLike) => void;
  onOpenCollection?: (collection: CollectionLike) => void;
  onAdd?: (collectionId: string) => void;
  /** Opens the item's context menu: by the three-dot button or a long press. */
  onItemMenu?: (item: DisplayItem) => void;
  /** In lists where items can also be dragged, a long press opens the menu on release. */
  longPressOnRelease?: boolean;
}

type PressProps = ReturnType<typeof useLongPress>;

const HealthMark = lazy(() => import('./health-mark').then((m) => ({ default: m.HealthMark })));

/**
 * A link opens in a new tab without opener or referrer; an unsafe address is plain text.
 * A link that needs attention carries its mark.
 */
export function LinkTile({
  link,
  onOpen,
  pressProps,
}: {
  link: LinkLike;
  onOpen?: (link: LinkLike) => void;
  pressProps?: PressProps;
}) {
  const t = useTexts();
  const mark = useLinkMark(link);
  const marked = mark ? ' tile--marked' : '';
  const href = safeHref(link.url);
  const content = (
    <>
      <LinkIcon name={link.name} icon={link.icon} />
      <span className="tile__name">{link.name}</span>
      {mark ? (
        <Suspense fallback={null}>
          <HealthMark mark={mark} />
        </Suspense>
      ) : null}
    </>
  );
  if (!href) {
    return (
      <span className={`tile tile--disabled${marked}`} title={t('item.unsafeUrl')} {...pressProps}>
        {content}
      </span>
    );
  }
  return (
    <a
      className={`tile${marked}`}
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      title={link.description || link.name}
      onClick={() => onOpen?.(link)}
      {...pressProps}
    >
      {content}
      <span className="visually-hidden"> {t('item.opensInNewTab')}</span>
    </a>
  );
}

/** A collection shows up to COLLECTION_PREVIEW_MAX_ICONS icons of its links. */
export function CollectionPreview({ collection }: { collection: CollectionLike }) {
  const links = collection.items.filter(isLink).slice(0, COLLECTION_PREVIEW_MAX_ICONS);
  if (links.length === 0) {
    // A collection without links of its own shows a folder rather than an empty square.
    return (
      <span className="collection-preview collection-preview--empty" aria-hidden="true">
        <FolderIcon />
      </span>
    );
  }
  return (
    <span className="collection-preview" aria-hidden="true">
      {links.map((link) => (
        <LinkIcon key={link.id} name={link.name} icon={link.icon} />
      ))}
    </span>
  );
}

/**
 * The mark of a shared collection, for its owner and its members alike: an icon of people
 * over the corner of its preview, named for assistive technology (decision 0056). It sits
 * beside the tile's button, not in it, so the button keeps the collection's name as its
 * own and takes the mark as its description.
 */
function SharedMark({ id, members, teams }: { id: string; members: number; teams: string[] }) {
  const t = useTexts();
  const label =
    teams.length > 0
      ? t('item.sharedWithTeams', { count: members, teams: teams.join(', ') })
      : t('item.shared', { count: members });
  return (
    <span id={id} className="tile__shared" role="img" aria-label={label}>
      <UsersIcon />
    </span>
  );
}

export function MenuItemTile(props: MenuItemTileProps) {
  const t = useTexts();
  const { item, onItemMenu, longPressOnRelease } = props;
  const markId = useId();
  const withMenu = onItemMenu && item.type !== 'addlink';
  const shared = item.type === 'collection-share';
  const pressProps = useLongPress(withMenu ? () => onItemMenu(item) : undefined, {
    onRelease: longPressOnRelease,
  });
  const tile = (
    <Tile {...props} pressProps={pressProps} describedBy={shared ? markId : undefined} />
  );
  if (!withMenu && !shared) return tile;
  return (
    <div className="tile-wrap">
      {tile}
      {shared ? (
        <SharedMark
          id={markId}
          members={item.members.length}
          teams={item.teams.map((team) => team.name)}
        />
      ) : null}
      {withMenu ? (
        <button
          type="button"
          className="icon-button tile__more"
          aria-label={t('itemMenu.more', { name: item.name })}
          onClick={() => onItemMenu(item)}
        >
          <MoreIcon />
        </button>
      ) : null}
    </div>
  );
}

function Tile({
  item,
  onOpenLink,
  onOpenCollection,
  onAdd,
  pressProps,
  describedBy,
}: MenuItemTileProps & { pressProps: PressProps; describedBy?: string }) {
  const t = useTexts();
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
  if (isLink(item)) return <LinkTile link={item} onOpen={onOpenLink} pressProps={pressProps} />;
  return (
    <button
      type="button"
      className="tile tile--collection"
      onClick={() => onOpenCollection?.(item)}
      aria-describedby={describedBy}
      style={item.color ? ({ '--collection-color': item.color } as CSSProperties) : undefined}
      {...pressProps}
    >
      <CollectionPreview collection={item} />
      <span className="tile__name">{item.name}</span>
    </button>
  );
}
