import type {
  Collection,
  CollectionItem,
  CollectionShareItem,
  FavoriteItem,
  LinkItem,
  Menu,
  MenuItem,
  Space,
  SpaceType,
} from '@signpost/contract';

/** The synthetic Add item placed first in the personal space's own collection. */
export interface AddLinkItem {
  type: 'addlink';
  id: string;
  /** The collection a link added through this item goes to. */
  collectionId: string;
}

export type DisplayItem = MenuItem | AddLinkItem;
export type LinkLike = LinkItem | FavoriteItem;
export type CollectionLike = CollectionItem | CollectionShareItem;

/** Replaces a collection's items by the items shown, one variant of a union at a time. */
type Shown<T> = T extends unknown ? Omit<T, 'items'> & { items: DisplayItem[] } : never;

/** A top-level collection as shown: its items may include the Add item. */
export type DisplayCollection = Shown<Collection>;

export interface DisplaySpace extends Omit<Space, 'collections'> {
  collections: DisplayCollection[];
}

/** One link of the search index, with where it lives. */
export interface SearchEntry {
  item: LinkLike;
  /** The name of the collection that directly holds the link. */
  parentName: string;
  /** Names from the space down to the parent collection (joined with ' > ' for display). */
  locationTree: string[];
  /** The type of the space the link belongs to. */
  topParentType: SpaceType;
  /** name, appName, parentName and description, lower-cased once. */
  haystack: string;
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
