import type { AddMembersBody, AddShareTeamsBody, CreateShareBody } from '@signpost/contract';
import { consumerWrite } from '../../../lib/api-client';
import { useMenuMutation, type MenuMutationConfig } from '../../../lib/menu/use-menu-mutation';

export interface AddMembersVariables {
  collection: {
    id: string;
    /** Set when the collection is already shared. */
    shareId?: string | null;
  };
  memberIds: string[];
  /** Whole teams to share with too (decision 0086). */
  teamIds?: string[];
}

/**
 * Shares the collection with the people and teams when it is not shared yet (one call);
 * otherwise adds the people to its share, then the teams (spec §4 Sharing).
 */
export async function addMembers({
  collection,
  memberIds,
  teamIds = [],
}: AddMembersVariables): Promise<void> {
  if (collection.shareId) {
    const share = `/collection-shares/${encodeURIComponent(collection.shareId)}`;
    if (memberIds.length > 0) {
      const body: AddMembersBody = { memberIds };
      await consumerWrite('POST', `${share}/members`, body);
    }
    if (teamIds.length > 0) {
      const body: AddShareTeamsBody = { teamIds };
      await consumerWrite('POST', `${share}/teams`, body);
    }
    return;
  }
  const body: CreateShareBody = {
    collectionId: collection.id,
    memberIds,
    ...(teamIds.length > 0 ? { teamIds } : {}),
  };
  return consumerWrite('POST', '/collection-shares/', body);
}

/** addMembers as a mutation that reloads the menu after a success. */
export function useAddMembers(mutationConfig?: MenuMutationConfig<AddMembersVariables>) {
  return useMenuMutation(addMembers, mutationConfig);
}
