import type {
  Collection,
  CollectionItem,
  CollectionShareItem,
  FavoriteItem,
  LinkCan,
  LinkItem,
  Menu,
  Space,
  SpaceType,
} from '@signpost/contract';
import type { LinkSearchEntry } from '@signpost/link-search';

/** The synthetic Add item placed first in the personal space's own collection. */
export interface AddLinkItem {
  type: 'addlink';
  id: string;
  /** The collection a link added through this item goes to. */
  collectionId: string;
}

/**
 * A link as the app shows it: with its flags always present. The server sends them once per
 * collection (`linkCan`) and on a link only where they differ; processMenu fills them in.
 */
export interface ShownLink extends Omit<LinkItem, 'can'> {
  can: LinkCan;
}

/** A nested collection as shown: its links carry their flags (so it needs no `linkCan`). */
export interface ShownCollection extends Omit<CollectionItem, 'items' | 'linkCan'> {
  items: MenuEntry[];
}

/** A shared collection as shown. */
export interface ShownShare extends Omit<CollectionShareItem, 'items' | 'linkCan'> {
  items: MenuEntry[];
}

/** An item of a collection as shown (the Add item aside). */
export type MenuEntry = ShownLink | FavoriteItem | ShownCollection | ShownShare;

export type DisplayItem = MenuEntry | AddLinkItem;
export type LinkLike = ShownLink | FavoriteItem;
export type CollectionLike = ShownCollection | ShownShare;

/** Replaces a collection's items by the items shown, one variant of a union at a time. */
type Shown<T> = T extends unknown ? Omit<T, 'items' | 'linkCan'> & { items: DisplayItem[] } : never;

/** A top-level collection as shown: its items may include the Add item. */
export type DisplayCollection = Shown<Collection>;

export interface DisplaySpace extends Omit<Space, 'collections'> {
  collections: DisplayCollection[];
}

/** One link of the search index, with where it lives; the link search reads its haystack. */
export interface SearchEntry extends LinkSearchEntry {
  item: LinkLike;
  /** The name of the collection that directly holds the link. */
  parentName: string;
  /** Names from the space down to the parent collection (joined with ' > ' for display). */
  locationTree: string[];
  /** The type of the space the link belongs to. */
  topParentType: SpaceType;
}

export interface ProcessedMenu {
  profile: Menu['profile'];
  organization: Menu['organization'];
  /** What the person may administer (decision 0008). */
  can: Menu['can'];
  spaces: DisplaySpace[];
  searchIndex: SearchEntry[];
}

export function isLink(item: DisplayItem): item is LinkLike {
  return item.type === 'link' || item.type === 'link-favorite';
}

export function isCollection(item: DisplayItem): item is CollectionLike {
  return item.type === 'collection' || item.type === 'collection-share';
}
