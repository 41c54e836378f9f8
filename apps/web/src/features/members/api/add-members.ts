import type { AddMembersBody, CreateShareBody } from '@signpost/contract';
import { consumerWrite } from '../../../lib/api-client';
import { useMenuMutation, type MenuMutationConfig } from '../../../lib/menu/use-menu-mutation';

export interface AddMembersVariables {
  collection: {
    id: string;
    /** Set when the collection is already shared. */
    shareId?: string | null;
  };
  memberIds: AddMembersBody['memberIds'];
}

/**
 * Shares the collection with the people when it is not shared yet; otherwise adds them to
 * its share (spec §4 Sharing).
 */
export function addMembers({ collection, memberIds }: AddMembersVariables): Promise<void> {
  if (collection.shareId) {
    const body: AddMembersBody = { memberIds };
    return consumerWrite(
      'POST',
      `/collection-shares/${encodeURIComponent(collection.shareId)}/members`,
      body,
    );
  }
  const body: CreateShareBody = { collectionId: collection.id, memberIds };
  return consumerWrite('POST', '/collection-shares/', body);
}

/** addMembers as a mutation that reloads the menu after a success. */
export function useAddMembers(mutationConfig?: MenuMutationConfig<AddMembersVariables>) {
  return useMenuMutation(addMembers, mutationConfig);
}
