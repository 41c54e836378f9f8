import type { DisplayItem } from '../../../lib/menu/menu-types';
import { deleteItem, moveItem } from '../../../lib/menu/menu-writes';

/** Where a dragged item can be dropped. */
export type DropTarget =
  | { kind: 'collection'; id: string; name: string }
  | { kind: 'to-parent'; id: string; name: string }
  | { kind: 'trash' };

/** Only links and favorites can be dragged, and dropped on collections (spec §4). */
export function isDraggable(item: DisplayItem): item is Extract<DisplayItem, { url: string }> {
  return item.type === 'link' || item.type === 'link-favorite';
}

/**
 * What a drop does: on a collection or the to-parent zone the item moves there; on the
 * trash it is deleted. Anything but a link or a favorite is left alone (null).
 */
export function dropItem(item: DisplayItem, target: DropTarget): Promise<boolean> | null {
  if (!isDraggable(item)) return null;
  if (target.kind === 'trash') return deleteItem(item);
  return moveItem(item, target.id);
}
