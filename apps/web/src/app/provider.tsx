import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { getSession, subscribeSession } from '../lib/session-store';

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: { queries: { refetchOnWindowFocus: true, retry: false } },
  });
}

/** App-wide providers. The data of a session never outlives it. */
export function AppProvider({ children, client }: { children: ReactNode; client?: QueryClient }) {
  const [queryClient] = useState(() => client ?? createQueryClient());
  useEffect(
    () =>
      subscribeSession(() => {
        if (getSession().token === null) {
          // Everything read with the ended session goes: menu (and its ETag), tokens,
          // sessions, settings.
          queryClient.clear();
        }
      }),
    [queryClient],
  );
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
