import type { LinkCan, Menu, MenuItem, Space } from '@signpost/contract';
import { haystackOf } from '@signpost/link-search';
import { ADD_LINK_ID } from '../constants';
import type {
  DisplayCollection,
  DisplayItem,
  DisplaySpace,
  MenuEntry,
  ProcessedMenu,
  SearchEntry,
  ShownLink,
} from './menu-types';
import { isCollection, isLink } from './menu-types';

/**
 * The items as shown: each link with its flags, its own where the server sent them, else
 * those of the collection that holds it (`linkCan`, decision 0008).
 */
function withFlags(items: readonly MenuItem[], linkCan: LinkCan): MenuEntry[] {
  return items.map((item): MenuEntry => {
    if (item.type === 'link') return item.can ? (item as ShownLink) : { ...item, can: linkCan };
    if (item.type === 'link-favorite') return item;
    return { ...item, items: withFlags(item.items, item.linkCan) };
  });
}

/** A space of the menu as shown, before the Add item: its links carry their flags. */
export function spaceWithFlags(space: Space): DisplaySpace {
  return {
    ...space,
    collections: space.collections.map(
      (collection) =>
        ({
          ...collection,
          items: withFlags(collection.items, collection.linkCan),
        }) as DisplayCollection,
    ),
  };
}

/**
 * Shares the current person created are taken out of shared-root and put into the personal
 * collection list (the first non-shared collection of the personal space). When that
 * collection already holds the same collection (the owner's copy, possibly nested), the
 * share replaces it in place, so it shows once, with its members.
 */
export function moveOwnShares(space: DisplaySpace, profileId: string): DisplaySpace {
  const sharedRoot = space.collections.find((c) => c.type === 'shared-root');
  const own = space.collections.find((c) => c.type === 'collection');
  if (!sharedRoot || !own) return space;
  const mine = sharedRoot.items.filter(
    (item) => item.type === 'collection-share' && item.shareCreatorId === profileId,
  );
  if (mine.length === 0) return space;
  const others = sharedRoot.items.filter((item) => !mine.includes(item));
  const pending = new Map(mine.map((item) => [item.id, item]));
  const replace = <T extends DisplayItem>(items: T[]): (T | DisplayItem)[] =>
    items.map((item) => {
      const share = pending.get(item.id);
      if (share && isCollection(item)) {
        pending.delete(item.id);
        return share;
      }
      return isCollection(item) ? { ...item, items: replace(item.items) as MenuEntry[] } : item;
    });
  const ownItems = replace(own.items);
  const moved = { ...own, items: [...ownItems, ...pending.values()] };
  return {
    ...space,
    collections: space.collections.map((c) =>
      c === own ? moved : c === sharedRoot ? { ...sharedRoot, items: others } : c,
    ),
  };
}

/**
 * The Add item goes first in the space's first top-level collection the person may add
 * links to (its `can`): My Space in the personal space (spec §4), and the first collection
 * of a team or organization space for those who run it (decision 0008).
 */
export function addAddLinkItem(space: DisplaySpace): DisplaySpace {
  const target = space.collections.find((c) => c.type === 'collection' && c.can.addLink);
  if (!target) return space;
  const addItem: DisplayItem = { type: 'addlink', id: ADD_LINK_ID, collectionId: target.id };
  return {
    ...space,
    collections: space.collections.map((c) =>
      c === target ? { ...c, items: [addItem, ...c.items] } : c,
    ),
  };
}

/** Every link and favorite of the menu, with parentName, locationTree and topParentType. */
export function buildSearchIndex(spaces: readonly DisplaySpace[]): SearchEntry[] {
  const index: SearchEntry[] = [];
  const walk = (items: DisplayItem[], path: string[], space: DisplaySpace) => {
    const parentName = path[path.length - 1] ?? space.name;
    for (const item of items) {
      if (isLink(item)) {
        index.push({
          item,
          parentName,
          locationTree: path,
          topParentType: space.type,
          ...haystackOf(item, parentName),
        });
      } else if (isCollection(item)) {
        walk(item.items, [...path, item.name], space);
      }
    }
  };
  for (const space of spaces) {
    for (const collection of space.collections) {
      // My Space is both the personal space and its first collection: name it once.
      const start = collection.name === space.name ? [space.name] : [space.name, collection.name];
      walk(collection.items, start, space);
    }
  }
  return index;
}

/** Spec §4 menu processing, as one pure function of the server's menu. */
export function processMenu(menu: Menu): ProcessedMenu {
  const spaces = menu.spaces.map((space) => {
    const shown = spaceWithFlags(space);
    if (space.type !== 'personal') return addAddLinkItem(shown);
    return addAddLinkItem(moveOwnShares(shown, menu.profile.id));
  });
  return {
    profile: menu.profile,
    organization: menu.organization,
    can: menu.can,
    spaces,
    searchIndex: buildSearchIndex(spaces),
  };
}

/** The items a space card shows: the items of its collections, in order. */
export function spaceItems(space: DisplaySpace): DisplayItem[] {
  return space.collections.flatMap((collection: DisplayCollection) => collection.items);
}
