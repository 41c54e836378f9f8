import type { SuggestLinkBody } from '@signpost/contract';
import { useMutation } from '@tanstack/react-query';
import {
  deleteCollection,
  deleteShare,
  leaveShare,
  suggestLink,
} from '../../../lib/menu/menu-writes';
import { useMenuMutation, type MenuMutationConfig } from '../../../lib/menu/use-menu-mutation';

export interface LeaveOrDeleteVariables {
  leave: boolean;
  collectionId: string;
  /** Set when the collection is shared: the share is left or deleted. */
  shareId: string | null;
  profileId: string;
  /** The collection's name, for the undo notice (decision 0052). */
  name?: string;
}

/** Leaves or deletes a share, or deletes a personal collection (spec §6, decision 0002). */
export function leaveOrDelete({
  leave,
  collectionId,
  shareId,
  profileId,
  name,
}: LeaveOrDeleteVariables): Promise<void> {
  if (leave && shareId) return leaveShare(shareId, profileId, name);
  if (shareId) return deleteShare(shareId, name);
  return deleteCollection(collectionId, name);
}

/** leaveOrDelete as a mutation that reloads the menu after a success. */
export function useLeaveOrDelete(mutationConfig?: MenuMutationConfig<LeaveOrDeleteVariables>) {
  return useMenuMutation(leaveOrDelete, mutationConfig);
}

export interface SuggestLinkVariables {
  collectionId: string;
  link: SuggestLinkBody;
}

/**
 * Suggests a link to a team or organization collection. The menu stays as it is (someone
 * else decides), so nothing is reloaded.
 */
export function useSuggestLink() {
  return useMutation<void, Error, SuggestLinkVariables>({
    mutationFn: ({ collectionId, link }) => suggestLink(collectionId, link),
  });
}
