import type { Person, ShareTeam } from '@signpost/contract';
import type { Container } from './locate-item';
import type { LinkLike, ProcessedMenu, SearchEntry } from './menu-types';

/**
 * What the panels read from the menu, as pure functions: which collection is a share, where
 * an add goes, a link's favorite and its app's links. What the person may do is not decided
 * here: the server sends it with every collection and item as `can` (decision 0008).
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

/** The teams a shared collection is shared with (decision 0086); none for one not shared. */
export function shareTeamsOf(collection: Container): ShareTeam[] {
  return collection.type === 'collection-share' ? collection.teams : [];
}

/** Who created the share, for a share in the shared-root (null otherwise). */
export function shareCreatorOf(collection: Container): string | null {
  return collection.type === 'collection-share' ? collection.shareCreatorId : null;
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

/**
 * The collection an item can be dragged up to: the parent, when the person may add to it
 * (its `can`, decision 0008).
 */
export function dropParentOf(parent: Container | null): { id: string; name: string } | null {
  return parent && parent.can.addLink ? { id: parent.id, name: parent.name } : null;
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

/** The link itself: a favorite stands for the link it points at. */
const linkIdOf = (link: LinkLike) => (link.type === 'link-favorite' ? link.linkId : link.id);

/**
 * The other links of the same app (none for a link without an app), each once: a favorite
 * and the team or organization link it points at are one link, and so are two entries with
 * the same address; neither repeats the link shown (decision 0056).
 */
export function appLinksOf(
  menu: Pick<ProcessedMenu, 'searchIndex'>,
  entry: SearchEntry,
): LinkLike[] {
  const { appName } = entry.item;
  if (!appName) return [];
  const ids = new Set([linkIdOf(entry.item)]);
  const urls = new Set([entry.item.url]);
  const links: LinkLike[] = [];
  for (const { item } of menu.searchIndex) {
    if (item.appName !== appName || ids.has(linkIdOf(item)) || urls.has(item.url)) continue;
    ids.add(linkIdOf(item));
    urls.add(item.url);
    links.push(item);
  }
  return links;
}
