import type {
  DisableSecondFactorBody,
  RecoveryCodesResponse,
  SecondFactorSetupResponse,
  SecondFactorStatus,
} from '@signpost/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { authApi } from '../../../lib/api-client';
import { useSession } from '../../../lib/use-session';
import { settingsKeys } from './settings-keys';

export async function getSecondFactor(): Promise<SecondFactorStatus> {
  return (await authApi.request<SecondFactorStatus>('/second-factor')).data;
}

export async function setUpSecondFactor() {
  return (
    await authApi.request<SecondFactorSetupResponse>('/second-factor/setup', { method: 'POST' })
  ).data;
}

export async function enableSecondFactor(code: string) {
  return (
    await authApi.request<RecoveryCodesResponse>('/second-factor/enable', {
      method: 'POST',
      body: { code },
    })
  ).data;
}

export async function disableSecondFactor(body: DisableSecondFactorBody) {
  await authApi.request<null>('/second-factor/disable', { method: 'POST', body });
}

/** Whether the second factor is available, on, and how many recovery codes are left. */
export function useSecondFactor() {
  const { token } = useSession();
  return useQuery({ queryKey: settingsKeys.secondFactor(token), queryFn: getSecondFactor });
}

export function useSetUpSecondFactor() {
  return useMutation({ mutationFn: setUpSecondFactor });
}

function useStatusWrite<T, R>(write: (input: T) => Promise<R>) {
  const client = useQueryClient();
  const { token } = useSession();
  return useMutation({
    mutationFn: write,
    onSuccess: () => client.invalidateQueries({ queryKey: settingsKeys.secondFactor(token) }),
  });
}

/** Turns the factor on; the session list is read again, as the other sessions have ended. */
export function useEnableSecondFactor() {
  const client = useQueryClient();
  const { token } = useSession();
  return useMutation({
    mutationFn: enableSecondFactor,
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: settingsKeys.secondFactor(token) }),
        client.invalidateQueries({ queryKey: settingsKeys.sessions(token) }),
      ]),
  });
}

export function useDisableSecondFactor() {
  return useStatusWrite(disableSecondFactor);
}
