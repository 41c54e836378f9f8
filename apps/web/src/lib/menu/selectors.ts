import type { Person } from '@signpost/contract';
import { locateItem, type Container } from './locate-item';
import type { DisplaySpace, LinkLike, ProcessedMenu, SearchEntry } from './menu-types';

/**
 * The portal's rules read from the menu, as pure functions: which collection is a share,
 * who may share or add, where an add goes, a link's favorite and its app's links. The panels
 * ask here; none of them decides on its own.
 */

/** The share a collection is, if any. */
export function shareIdOf(collection: Container): string | null {
  return collection.type === 'collection-share' ? collection.shareId : null;
}

/** Whether the collection is a share (shares stand in the shared-root). */
export function isShared(collection: Container): boolean {
  return Boolean(shareIdOf(collection));
}

/** The people a shared collection is shared with; nobody for a collection not shared. */
export function membersOf(collection: Container): Person[] {
  return collection.type === 'collection-share' ? collection.members : [];
}

/** Who created the share, for a share in the shared-root (null otherwise). */
export function shareCreatorOf(collection: Container): string | null {
  return collection.type === 'collection-share' ? collection.shareCreatorId : null;
}

/**
 * Whether the person may share the collection or add people to its share (spec §6,
 * decision 0011): a personal collection below the top, not inside a share (shares do not
 * nest), and for a share only its creator.
 */
export function canShare(
  spaces: readonly DisplaySpace[],
  profileId: string,
  collection: Container,
  spaceType: DisplaySpace['type'],
  topLevel: boolean,
): boolean {
  if (spaceType !== 'personal' || topLevel) return false;
  const creator = shareCreatorOf(collection);
  if (creator !== null) return creator === profileId;
  const location = locateItem(spaces, 'collection', collection.id);
  return !location?.ancestors.some(
    (ancestor) => isShared(ancestor) || ancestor.type === 'shared-root',
  );
}

/** Only the personal space takes new links, and not the shared-with-me list (spec §6). */
export function canAddLink(collection: Container, spaceType: DisplaySpace['type']): boolean {
  return spaceType === 'personal' && collection.type !== 'shared-root';
}

/**
 * The parent panel id of the add panel opened from a collection: the collection itself at
 * the top of the space (the choice of link or collection), else My Space (the link form
 * only, naming the collection); see decision 0011.
 */
export function addPanelParent(
  collectionId: string,
  topLevel: boolean,
  mySpaceId: string | null,
): string {
  return topLevel ? collectionId : (mySpaceId ?? collectionId);
}

/** The collection a link can be dragged up to: the parent, in the personal space only. */
export function dropParentOf(
  spaceType: DisplaySpace['type'],
  parent: Container | null,
): { id: string; name: string } | null {
  return spaceType === 'personal' && parent && parent.type !== 'shared-root'
    ? { id: parent.id, name: parent.name }
    : null;
}

/** A link of the search index by type and id. */
export function findEntry(
  menu: Pick<ProcessedMenu, 'searchIndex'>,
  type: LinkLike['type'],
  id: string,
): SearchEntry | null {
  return (
    menu.searchIndex.find(
      (candidate) => candidate.item.type === type && candidate.item.id === id,
    ) ?? null
  );
}

/** The person's favorite of a team or organization link, if any. */
export function favoriteOf(
  menu: Pick<ProcessedMenu, 'searchIndex'>,
  entry: SearchEntry,
): LinkLike | null {
  const { item } = entry;
  if (item.type !== 'link' || entry.topParentType === 'personal') return null;
  const favorite = menu.searchIndex.find(
    (candidate) => candidate.item.type === 'link-favorite' && candidate.item.linkId === item.id,
  );
  return favorite?.item ?? null;
}

/** The other links of the same app (none for a link without an app). */
export function appLinksOf(
  menu: Pick<ProcessedMenu, 'searchIndex'>,
  entry: SearchEntry,
): LinkLike[] {
  const { appName } = entry.item;
  if (!appName) return [];
  return menu.searchIndex
    .filter((candidate) => candidate.item.appName === appName && candidate !== entry)
    .map((candidate) => candidate.item);
}
