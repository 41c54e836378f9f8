import type { Menu, Space } from '@signpost/contract';
import { useQuery } from '@tanstack/react-query';
import { adminApi } from '../../../lib/api-client';
import { ADMIN_BASE_PATH } from '../../../lib/constants';
import { menuQueryKey } from '../../../lib/menu/get-menu';
import type { DisplaySpace } from '../../../lib/menu/menu-types';
import { processMenu } from '../../../lib/menu/process-menu';
import { useSession } from '../../../lib/use-session';

/**
 * The live updates of a team's space in the console (decision 0062): the menu's stream, which
 * also hears the team while the person runs it.
 */
export const teamSpaceEventsPath = (teamId: string) =>
  `${ADMIN_BASE_PATH}/teams/${encodeURIComponent(teamId)}/space/events`;

/**
 * A team's space for an administrator, whether in the team or not (decision 0008), as the
 * portal shows a space. Kept under the menu's key: every write on the menu reloads it too,
 * and so does every change its live updates announce (`teamSpaceEventsPath`).
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
