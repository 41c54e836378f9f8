import type { DisplayItem } from '../../../lib/menu/menu-types';
import { moveCollection, moveFavorite, moveLink, refuse } from '../../../lib/menu/menu-writes';
import { useMenuMutation, type MenuMutationConfig } from '../../../lib/menu/use-menu-mutation';

export interface MoveToVariables {
  item: DisplayItem;
  collectionId: string;
}

/** Moves a link, a favorite or a collection to the end of another collection. */
export function moveTo({ item, collectionId }: MoveToVariables): Promise<void> {
  switch (item.type) {
    case 'link':
      return moveLink(item.id, { collectionId }, item.name);
    case 'link-favorite':
      return moveFavorite(item.id, { collectionId });
    case 'collection':
    case 'collection-share':
      return moveCollection(item.id, collectionId, item.name);
    default:
      return refuse('Nothing to move');
  }
}

/** moveTo as a mutation that reloads the menu after a success. */
export function useMoveTo(mutationConfig?: MenuMutationConfig<MoveToVariables>) {
  return useMenuMutation(moveTo, mutationConfig);
}
