import type { LoginMethodsResponse } from '@signpost/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { authApi } from '../../../lib/api-client';

export async function getLoginMethods(): Promise<LoginMethodsResponse> {
  const response = await authApi.request<LoginMethodsResponse>('/methods', { token: null });
  return response.data;
}

export const loginMethodsQueryOptions = queryOptions({
  queryKey: ['login-methods'],
  queryFn: getLoginMethods,
  staleTime: 5 * 60_000,
});

/** The sign-in methods the server offers. */
export function useLoginMethods() {
  return useQuery(loginMethodsQueryOptions);
}
