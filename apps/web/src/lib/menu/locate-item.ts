import type { DisplayCollection, DisplayItem, DisplaySpace } from './menu-types';
import { isCollection } from './menu-types';

/** A collection an item lives in: a space's top-level collection or a nested one. */
export type Container = DisplayCollection | Extract<DisplayItem, { items: unknown }>;

/** Where an item of the menu lives. */
export interface ItemLocation {
  item: DisplayItem;
  space: DisplaySpace;
  /** The collections from the space's top-level one down to the item's direct parent. */
  ancestors: Container[];
  /** The collection that directly holds the item. */
  parent: Container;
}

/** The person's own root collection ("My Space"): the personal space's first non-shared one. */
export function findMySpace(spaces: readonly DisplaySpace[]): DisplayCollection | null {
  const personal = spaces.find((space) => space.type === 'personal');
  return personal?.collections.find((c) => c.type === 'collection') ?? null;
}

/** Finds an item by type and id (ids are unique per type) with its space and ancestors. */
export function locateItem(
  spaces: readonly DisplaySpace[],
  type: DisplayItem['type'],
  id: string,
): ItemLocation | null {
  for (const space of spaces) {
    const stack: { items: DisplayItem[]; ancestors: Container[] }[] = space.collections.map(
      (collection) => ({ items: collection.items, ancestors: [collection] }),
    );
    while (stack.length > 0) {
      const { items, ancestors } = stack.shift()!;
      for (const item of items) {
        const parent = ancestors[ancestors.length - 1]!;
        if (item.id === id && item.type === type) return { item, space, ancestors, parent };
        if (isCollection(item)) stack.push({ items: item.items, ancestors: [...ancestors, item] });
      }
    }
  }
  return null;
}

/**
 * Finds a collection (top-level or nested) by id, with its space and the collection that
 * holds it (null for a space's top-level collection).
 */
export function locateCollection(
  spaces: readonly DisplaySpace[],
  id: string,
): { collection: Container; space: DisplaySpace; parent: Container | null } | null {
  for (const space of spaces) {
    const top = space.collections.find((collection) => collection.id === id);
    if (top) return { collection: top, space, parent: null };
  }
  for (const type of ['collection', 'collection-share'] as const) {
    const found = locateItem(spaces, type, id);
    if (found && isCollection(found.item)) {
      return { collection: found.item, space: found.space, parent: found.parent };
    }
  }
  return null;
}
