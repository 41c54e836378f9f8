import { addFavorite, deleteFavorite, deleteLink, refuse } from '../../../lib/menu/menu-writes';
import { useMenuMutation, type MenuMutationConfig } from '../../../lib/menu/use-menu-mutation';

export type LinkAction =
  'add-to-my-space' | 'remove-from-my-space' | 'delete-link' | 'delete-favorite';

export interface LinkActionVariables {
  action: LinkAction;
  /** The link's (or the favorite's) id. */
  itemId: string;
  /** The favorite that points at this team or organization link, if any. */
  favoriteId: string | null;
  mySpaceId: string | null;
  /** The link's name, for the undo notice (decision 0052). */
  name?: string;
}

/** Runs the action of a link's details (spec §6); rejects with the server's error. */
export function runLinkAction({
  action,
  itemId,
  favoriteId,
  mySpaceId,
  name,
}: LinkActionVariables): Promise<void> {
  switch (action) {
    case 'add-to-my-space':
      return mySpaceId
        ? addFavorite(mySpaceId, { type: 'link', id: itemId })
        : refuse('No My Space');
    case 'remove-from-my-space':
      return favoriteId ? deleteFavorite(favoriteId, name) : refuse('Not a favorite');
    case 'delete-favorite':
      return deleteFavorite(itemId, name);
    default:
      return deleteLink(itemId, name);
  }
}

/** runLinkAction as a mutation that reloads the menu after a success. */
export function useLinkAction(mutationConfig?: MenuMutationConfig<LinkActionVariables>) {
  return useMenuMutation(runLinkAction, mutationConfig);
}
