import type { Menu, Space } from '@signpost/contract';
import { useQuery } from '@tanstack/react-query';
import { adminApi } from '../../../lib/api-client';
import { menuQueryKey } from '../../../lib/menu/get-menu';
import type { DisplaySpace } from '../../../lib/menu/menu-types';
import { processMenu } from '../../../lib/menu/process-menu';
import { useSession } from '../../../lib/use-session';

/**
 * A team's space for an administrator, whether in the team or not (decision 0008), as the
 * portal shows a space. Kept under the menu's key: every write on the menu reloads it too.
 */
export function useTeamSpace(teamId: string, menu: Pick<Menu, 'profile' | 'organization' | 'can'>) {
  const { token } = useSession();
  return useQuery({
    queryKey: [...menuQueryKey(token), 'team-space', teamId],
    queryFn: async ({ signal }): Promise<DisplaySpace> => {
      const space = (
        await adminApi.request<Space>(`/teams/${encodeURIComponent(teamId)}/space`, { signal })
      ).data;
      return processMenu({ ...menu, spaces: [space] }).spaces[0]!;
    },
    retry: false,
  });
}
