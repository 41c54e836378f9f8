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
} from '../../../lib/menu/menu-writes';

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

/** Runs a write action on an item; resolves true on success. */
export function runItemAction(
  action: ItemAction,
  item: ItemLocation['item'],
  profileId: string,
  mySpaceId: string | null,
): Promise<boolean> {
  switch (action) {
    case 'delete-link':
      return deleteLink(item.id);
    case 'move-to-my-space':
      return mySpaceId ? moveLink(item.id, mySpaceId) : Promise.resolve(false);
    case 'add-favorite':
      return mySpaceId ? addFavorite(item.id, mySpaceId) : Promise.resolve(false);
    case 'delete-favorite':
      return deleteFavorite(item.id);
    case 'delete-collection':
      return deleteCollection(item.id);
    case 'leave-share':
      return item.type === 'collection-share'
        ? leaveShare(item.shareId, profileId)
        : Promise.resolve(false);
    case 'delete-share':
      return item.type === 'collection-share' ? deleteShare(item.shareId) : Promise.resolve(false);
    default:
      return Promise.resolve(false);
  }
}
