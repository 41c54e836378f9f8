import type { UpdateCollectionBody, UpdateLinkBody } from '@signpost/contract';
import { updateCollection, updateLink } from '../../../lib/menu/menu-writes';
import { useMenuMutation, type MenuMutationConfig } from '../../../lib/menu/use-menu-mutation';

export type EditItemVariables =
  | { type: 'link'; id: string; body: UpdateLinkBody; name: string }
  | { type: 'collection'; id: string; body: UpdateCollectionBody; name: string };

/**
 * Saves an edit of a link or a collection in place (decision 0008), offering its undo
 * (decision 0076); rejects with the server's error.
 */
export function editItem(variables: EditItemVariables): Promise<void> {
  return variables.type === 'link'
    ? updateLink(variables.id, variables.body, variables.name)
    : updateCollection(variables.id, variables.body, variables.name);
}

/** editItem as a mutation that reloads the menu after a success. */
export function useEditItem(mutationConfig?: MenuMutationConfig<EditItemVariables>) {
  return useMenuMutation(editItem, mutationConfig);
}
