import { undoDeletion } from '../../../lib/menu/menu-writes';
import { useMenuMutation, type MenuMutationConfig } from '../../../lib/menu/use-menu-mutation';

/** Restores what a deletion removed (decision 0052); reloads the menu after a success. */
export function useUndoDeletion(mutationConfig?: MenuMutationConfig<string>) {
  return useMenuMutation(undoDeletion, mutationConfig);
}
