import type { CollectionShareItem } from '@signpost/contract';

/**
 * Whether a person leaves a shared collection rather than deleting it (spec §6: leave when
 * more than one member, else delete). Its owner cannot leave it (decision 0002), so for the
 * owner it is always delete. The context menu and the details panel both ask here.
 */
export function leavesShare(
  share: Pick<CollectionShareItem, 'members' | 'shareCreatorId'>,
  profileId: string,
): boolean {
  return share.members.length > 1 && share.shareCreatorId !== profileId;
}
