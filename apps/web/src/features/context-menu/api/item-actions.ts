import { moveTargets, orderAfterStep, stepsOf } from '../../../lib/menu/arrange';
import type { ItemLocation } from '../../../lib/menu/locate-item';
import {
  addFavorite,
  deleteCollection,
  deleteFavorite,
  deleteLink,
  deleteShare,
  leaveShare,
  moveLink,
  orderItems,
  refuse,
} from '../../../lib/menu/menu-writes';
import { useMenuMutation, type MenuMutationConfig } from '../../../lib/menu/use-menu-mutation';

export type ItemAction =
  | 'info'
  | 'details'
  | 'edit'
  | 'move-up'
  | 'move-down'
  | 'move-to'
  | 'delete-link'
  | 'move-to-my-space'
  | 'add-favorite'
  | 'remove-favorite'
  | 'delete-favorite'
  | 'delete-collection'
  | 'leave-share'
  | 'delete-share'
  | 'import-bookmarks'
  | 'export-bookmarks';

/**
 * The actions of an item's context menu (spec §6), read from what the server says the
 * person may do with it (`can`, decision 0008). "Move to My Space" is a move into the
 * person's own root, offered for what lives elsewhere in the personal space: team and
 * organization content never leaves its space. A team or organization link the person has
 * already made a favorite (`favoriteId`) offers to remove it instead of adding it twice.
 */
export function itemActions(
  location: ItemLocation,
  mySpaceId: string | null,
  favoriteId: string | null = null,
): ItemAction[] {
  const { item, space, parent } = location;
  const when = (flag: boolean, action: ItemAction) => (flag ? [action] : []);
  // Arranging (decision 0075): a step up or down where the parent may be reordered, and a
  // move to any collection of the space for what may move.
  const steps = stepsOf(location);
  const arrange = (canMove: boolean): ItemAction[] => [
    ...when(steps.up, 'move-up'),
    ...when(steps.down, 'move-down'),
    ...when(canMove && moveTargets(location).length > 0, 'move-to'),
  ];
  // Bookmarks in and out (decision 0087): a file into a collection one may add links to, and
  // any collection one sees out as a file.
  const bookmarks = (canAdd: boolean): ItemAction[] => [
    ...when(canAdd, 'import-bookmarks'),
    'export-bookmarks',
  ];
  switch (item.type) {
    case 'link':
      return [
        'info',
        ...when(item.can.edit, 'edit'),
        ...arrange(item.can.move),
        ...when(item.can.delete, 'delete-link'),
        ...when(
          item.can.move && space.type === 'personal' && parent.id !== mySpaceId,
          'move-to-my-space',
        ),
        ...when(item.can.favorite, favoriteId ? 'remove-favorite' : 'add-favorite'),
      ];
    case 'link-favorite':
      return ['info', ...arrange(item.can.move), ...when(item.can.delete, 'delete-favorite')];
    case 'collection':
      return [
        'details',
        ...when(item.can.edit, 'edit'),
        ...arrange(item.can.move),
        ...bookmarks(item.can.addLink),
        ...when(item.can.delete, 'delete-collection'),
      ];
    case 'collection-share':
      return [
        'details',
        ...when(item.can.edit, 'edit'),
        ...arrange(item.can.move),
        ...bookmarks(item.can.addLink),
        ...(item.can.leave ? ['leave-share' as const] : when(item.can.delete, 'delete-share')),
      ];
    default:
      return [];
  }
}

export interface ItemActionVariables {
  action: ItemAction;
  item: ItemLocation['item'];
  /** The collection that holds the item: a step up or down reorders it. */
  parent?: ItemLocation['parent'];
  profileId: string;
  mySpaceId: string | null;
  /** The favorite that points at this team or organization link, if any. */
  favoriteId?: string | null;
}

/** Runs a write action on an item; rejects with the server's error on failure. */
export function runItemAction({
  action,
  item,
  parent,
  profileId,
  mySpaceId,
  favoriteId,
}: ItemActionVariables): Promise<void> {
  // Deletions offer an undo, named after the item (decision 0052).
  const name = 'name' in item ? item.name : undefined;
  switch (action) {
    case 'move-up':
    case 'move-down': {
      const order = parent && orderAfterStep(parent, item, action === 'move-up' ? -1 : 1);
      return parent && order ? orderItems(parent.id, order, parent.name) : refuse('No step');
    }
    case 'delete-link':
      return deleteLink(item.id, name);
    case 'move-to-my-space':
      return mySpaceId
        ? moveLink(item.id, { collectionId: mySpaceId }, name)
        : refuse('No My Space');
    case 'add-favorite':
      return mySpaceId
        ? addFavorite(mySpaceId, { type: 'link', id: item.id })
        : refuse('No My Space');
    case 'remove-favorite':
      return favoriteId ? deleteFavorite(favoriteId, name) : refuse('Not a favorite');
    case 'delete-favorite':
      return deleteFavorite(item.id, name);
    case 'delete-collection':
      return deleteCollection(item.id, name);
    case 'leave-share':
      return item.type === 'collection-share'
        ? leaveShare(item.shareId, profileId, name)
        : refuse('Not a share');
    case 'delete-share':
      return item.type === 'collection-share'
        ? deleteShare(item.shareId, name)
        : refuse('Not a share');
    default:
      return refuse(`Not a write: ${action}`);
  }
}

/** runItemAction as a mutation that reloads the menu after a success. */
export function useItemAction(mutationConfig?: MenuMutationConfig<ItemActionVariables>) {
  return useMenuMutation(runItemAction, mutationConfig);
}
