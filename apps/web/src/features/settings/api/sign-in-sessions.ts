import type { SignInSessionsResponse } from '@signpost/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { authApi } from '../../../lib/api-client';
import { useSession } from '../../../lib/use-session';
import { settingsKeys } from './settings-keys';

export async function getSignInSessions(): Promise<SignInSessionsResponse> {
  return (await authApi.request<SignInSessionsResponse>('/sessions')).data;
}

export async function endSession(id: string) {
  await authApi.request<null>(`/sessions/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export async function endOtherSessions() {
  await authApi.request<null>('/sessions/others', { method: 'DELETE' });
}

/** "Where you're signed in": the person's live sessions, most recently active first. */
export function useSignInSessions() {
  const { token } = useSession();
  return useQuery({ queryKey: settingsKeys.sessions(token), queryFn: getSignInSessions });
}

function useSessionsWrite<T>(write: (input: T) => Promise<void>) {
  const client = useQueryClient();
  const { token } = useSession();
  return useMutation({
    mutationFn: write,
    onSuccess: () => client.invalidateQueries({ queryKey: settingsKeys.sessions(token) }),
  });
}

export function useEndSession() {
  return useSessionsWrite(endSession);
}

export function useEndOtherSessions() {
  return useSessionsWrite<void>(endOtherSessions);
}
