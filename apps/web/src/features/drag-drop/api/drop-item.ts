import { orderAfterDrop } from '../../../lib/menu/arrange';
import type { DisplayItem } from '../../../lib/menu/menu-types';
import { deleteItem, moveItem, orderItems, refuse } from '../../../lib/menu/menu-writes';
import { useMenuMutation, type MenuMutationConfig } from '../../../lib/menu/use-menu-mutation';

/** Where a dragged item can be dropped. */
export type DropTarget =
  | { kind: 'collection'; id: string; name: string }
  /** Another item's place in the same collection: a new order (decision 0075). */
  | {
      kind: 'place';
      item: DisplayItem;
      collection: { id: string; name: string; items: DisplayItem[] };
    }
  | { kind: 'to-parent'; id: string; name: string }
  | { kind: 'trash' };

/**
 * Only links and favorites can be dragged, and dropped on collections (spec §4), and only
 * those the person may move (their `can`, decision 0008).
 */
export function isDraggable(item: DisplayItem): item is Extract<DisplayItem, { url: string }> {
  return (item.type === 'link' || item.type === 'link-favorite') && item.can.move;
}

/**
 * What a drop does: on a collection or the to-parent zone the item moves there; on the
 * trash it is deleted; on another item's place it takes that place. Anything but a link or a
 * favorite is left alone (null), and so is a drop on its own place.
 */
export function dropItem(item: DisplayItem, target: DropTarget): Promise<void> | null {
  if (!isDraggable(item)) return null;
  if (target.kind === 'trash') return deleteItem(item);
  if (target.kind === 'place') {
    const order = orderAfterDrop(target.collection, item, target.item);
    return order ? orderItems(target.collection.id, order, target.collection.name) : null;
  }
  return moveItem(item, { collectionId: target.id });
}

export interface DropItemVariables {
  item: DisplayItem;
  target: DropTarget;
}

/** dropItem as a mutation that reloads the menu after a success. */
export function useDropItem(mutationConfig?: MenuMutationConfig<DropItemVariables>) {
  return useMenuMutation(
    ({ item, target }: DropItemVariables) =>
      dropItem(item, target) ?? refuse('Only links and favorites can be dropped'),
    mutationConfig,
  );
}
