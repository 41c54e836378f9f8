import type { OrderItemsBody } from '@signpost/contract';
import type { Container, ItemLocation } from './locate-item';
import type { DisplayItem, DisplaySpace, MenuEntry } from './menu-types';
import { isCollection } from './menu-types';

/** An item as the order call names it: a shared collection is a collection. */
type OrderedItem = OrderItemsBody['items'][number];

const orderedOf = (item: MenuEntry): OrderedItem => ({
  type: item.type === 'collection-share' ? 'collection' : item.type,
  id: item.id,
});

/** A collection's items as they stand, without the Add item. */
export const entriesOf = (parent: Container): MenuEntry[] =>
  (parent.items as DisplayItem[]).filter((item): item is MenuEntry => item.type !== 'addlink');

/**
 * The order of `parent`'s items after moving one of them `by` places (−1 up, +1 down), as
 * the order call takes it (every item named); null when it cannot move that way.
 */
export function orderAfterStep(
  parent: Container,
  item: DisplayItem,
  by: -1 | 1,
): OrderItemsBody | null {
  const entries = entriesOf(parent);
  const at = entries.findIndex((entry) => entry.type === item.type && entry.id === item.id);
  const to = at + by;
  if (at < 0 || to < 0 || to >= entries.length) return null;
  const moved = [...entries];
  [moved[at], moved[to]] = [moved[to]!, moved[at]!];
  return { items: moved.map(orderedOf) };
}

/**
 * The order of `parent`'s items after `dragged` is dropped on `target`'s place: it takes
 * that place, and the items between shift by one (moving forward it lands after the target,
 * backward before it). Null when either is not an item of `parent`, or they are the same.
 */
export function orderAfterDrop(
  parent: Pick<Container, 'items'>,
  dragged: DisplayItem,
  target: DisplayItem,
): OrderItemsBody | null {
  const entries = entriesOf(parent as Container);
  const index = (item: DisplayItem) =>
    entries.findIndex((entry) => entry.type === item.type && entry.id === item.id);
  const from = index(dragged);
  const to = index(target);
  if (from < 0 || to < 0 || from === to) return null;
  const moved = [...entries];
  const [item] = moved.splice(from, 1);
  moved.splice(to, 0, item!);
  return { items: moved.map(orderedOf) };
}

/** Where an item may step: up, down, both or neither, by the parent's `can.reorder`. */
export function stepsOf(location: ItemLocation): { up: boolean; down: boolean } {
  const { parent, item } = location;
  if (!parent.can.reorder) return { up: false, down: false };
  return {
    up: orderAfterStep(parent, item, -1) !== null,
    down: orderAfterStep(parent, item, 1) !== null,
  };
}

/** A collection an item can be moved to, with the names from its space down to it. */
export interface MoveTarget {
  id: string;
  path: string[];
  depth: number;
}

/**
 * Every collection of the item's space, at any depth, that it may move to: one the person
 * may add links to (a link) or collections to (a collection — never itself or one inside
 * it); a favorite only among the person's own collections that are not shared. The item's
 * own parent is left out. Team and organization content never leaves its space (decision
 * 0008); the server decides the rest and says why when it refuses.
 */
export function moveTargets(location: ItemLocation): MoveTarget[] {
  const { item, space, parent } = location;
  const targets: MoveTarget[] = [];
  const accepts = (container: Container, insideShare: boolean) => {
    if (container.id === parent.id) return false;
    switch (item.type) {
      case 'link':
        return container.can.addLink;
      case 'link-favorite':
        return container.can.addCollection && container.type === 'collection' && !insideShare;
      case 'collection':
      case 'collection-share':
        return container.can.addCollection;
      default:
        return false;
    }
  };
  const walk = (container: Container, path: string[], depth: number, insideShare: boolean) => {
    // A collection never goes into itself or anything inside it.
    if (isCollection(item) && container.id === item.id) return;
    const shared = insideShare || container.type === 'collection-share';
    if (accepts(container, shared)) targets.push({ id: container.id, path, depth });
    for (const child of container.items) {
      if (isCollection(child)) walk(child, [...path, child.name], depth + 1, shared);
    }
  };
  for (const top of topLevelOf(space)) {
    const path = top.name === space.name ? [space.name] : [space.name, top.name];
    walk(top, path, 0, false);
  }
  return targets;
}

/** A space's top-level collections the person keeps things in (not the shares of others). */
const topLevelOf = (space: DisplaySpace): Container[] =>
  space.collections.filter((collection) => collection.type !== 'shared-root');
