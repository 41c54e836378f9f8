import type { ChangePasswordBody } from '@signpost/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { authApi } from '../../../lib/api-client';
import { useSession } from '../../../lib/use-session';
import { settingsKeys } from './settings-keys';

export async function changePassword(body: ChangePasswordBody) {
  await authApi.request<null>('/password', { method: 'POST', body });
}

/**
 * Changes the password; the sessions and the access tokens are read again, as other
 * sessions may have ended and tokens been revoked.
 */
export function useChangePassword() {
  const client = useQueryClient();
  const { token } = useSession();
  return useMutation({
    mutationFn: changePassword,
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: settingsKeys.sessions(token) }),
        client.invalidateQueries({ queryKey: settingsKeys.tokens(token) }),
      ]),
  });
}
