import type { CollectionShareItem } from '@signpost/contract';
import type { ItemLocation } from '../../../lib/menu/locate-item';
import { leavesShare } from '../../../lib/menu/share-rule';
import {
  addFavorite,
  deleteCollection,
  deleteFavorite,
  deleteLink,
  deleteShare,
  leaveShare,
  moveLink,
  refuse,
} from '../../../lib/menu/menu-writes';
import { useMenuMutation, type MenuMutationConfig } from '../../../lib/menu/use-menu-mutation';

export type ItemAction =
  | 'info'
  | 'details'
  | 'delete-link'
  | 'move-to-my-space'
  | 'add-favorite'
  | 'delete-favorite'
  | 'delete-collection'
  | 'leave-share'
  | 'delete-share';

/** Leave or delete, for a shared collection (the rule is shared with its details panel). */
export function shareAction(
  share: Pick<CollectionShareItem, 'members' | 'shareCreatorId'>,
  profileId: string,
) {
  return leavesShare(share, profileId) ? 'leave-share' : 'delete-share';
}

/** The actions of an item's context menu, by where it lives (spec §6). */
export function itemActions(
  location: ItemLocation,
  profileId: string,
  mySpaceId: string | null,
): ItemAction[] {
  const { item, space, parent } = location;
  const personal = space.type === 'personal';
  switch (item.type) {
    case 'link':
      if (!personal) return ['info', 'add-favorite'];
      return parent.id === mySpaceId
        ? ['info', 'delete-link']
        : ['info', 'delete-link', 'move-to-my-space'];
    case 'link-favorite':
      return ['info', 'delete-favorite'];
    case 'collection':
      return personal ? ['details', 'delete-collection'] : ['details'];
    case 'collection-share':
      return personal ? ['details', shareAction(item, profileId)] : ['details'];
    default:
      return [];
  }
}

export interface ItemActionVariables {
  action: ItemAction;
  item: ItemLocation['item'];
  profileId: string;
  mySpaceId: string | null;
}

/** Runs a write action on an item; rejects with the server's error on failure. */
export function runItemAction({
  action,
  item,
  profileId,
  mySpaceId,
}: ItemActionVariables): Promise<void> {
  switch (action) {
    case 'delete-link':
      return deleteLink(item.id);
    case 'move-to-my-space':
      return mySpaceId ? moveLink(item.id, { collectionId: mySpaceId }) : refuse('No My Space');
    case 'add-favorite':
      return mySpaceId
        ? addFavorite(mySpaceId, { type: 'link', id: item.id })
        : refuse('No My Space');
    case 'delete-favorite':
      return deleteFavorite(item.id);
    case 'delete-collection':
      return deleteCollection(item.id);
    case 'leave-share':
      return item.type === 'collection-share'
        ? leaveShare(item.shareId, profileId)
        : refuse('Not a share');
    case 'delete-share':
      return item.type === 'collection-share' ? deleteShare(item.shareId) : refuse('Not a share');
    default:
      return refuse(`Not a write: ${action}`);
  }
}

/** runItemAction as a mutation that reloads the menu after a success. */
export function useItemAction(mutationConfig?: MenuMutationConfig<ItemActionVariables>) {
  return useMenuMutation(runItemAction, mutationConfig);
}
