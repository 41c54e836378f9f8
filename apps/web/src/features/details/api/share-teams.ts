import { consumerWrite } from '../../../lib/api-client';
import { useMenuMutation, type MenuMutationConfig } from '../../../lib/menu/use-menu-mutation';

/** Stops sharing a collection with a team (its owner). */
export function removeShareTeam({ shareId, teamId }: { shareId: string; teamId: string }) {
  return consumerWrite(
    'DELETE',
    `/collection-shares/${encodeURIComponent(shareId)}/teams/${encodeURIComponent(teamId)}`,
  );
}

export function useRemoveShareTeam(
  mutationConfig?: MenuMutationConfig<{ shareId: string; teamId: string }>,
) {
  return useMenuMutation(removeShareTeam, mutationConfig);
}
