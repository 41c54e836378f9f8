import type { DeleteItemsBody, MoveItemsBody } from '@signpost/contract';
import { deleteItems, moveItems } from '../../../lib/menu/menu-writes';
import { useMenuMutation } from '../../../lib/menu/use-menu-mutation';

export type BulkVariables =
  | { action: 'move'; body: MoveItemsBody; label: string }
  | { action: 'delete'; body: DeleteItemsBody; label: string };

/** Moves or deletes several items together (decision 0075), offering one undo. */
export function runBulk(variables: BulkVariables): Promise<void> {
  return variables.action === 'move'
    ? moveItems(variables.body, variables.label)
    : deleteItems(variables.body, variables.label);
}

/** runBulk as a mutation that reloads the menu after a success. */
export function useBulkAction() {
  return useMenuMutation(runBulk);
}
