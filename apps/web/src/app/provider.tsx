import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { getSession, subscribeSession } from '../lib/session-store';

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      // Calls are made offline too, and fail at once: a write says that it waits for the
      // network, rather than hanging until it is back (decision 0065).
      queries: { refetchOnWindowFocus: true, retry: false, networkMode: 'always' },
      mutations: { networkMode: 'always' },
    },
  });
}

/** App-wide providers. The data of a session never outlives it. */
export function AppProvider({ children, client }: { children: ReactNode; client?: QueryClient }) {
  const [queryClient] = useState(() => client ?? createQueryClient());
  useEffect(() => {
    let token = getSession().token;
    return subscribeSession(() => {
      const next = getSession().token;
      if (token !== null && next !== token) {
        // Everything read with the ended session goes: menu (and its ETag), tokens,
        // sessions, settings; also when another account signed in (decision 0080).
        queryClient.clear();
      }
      token = next;
    });
  }, [queryClient]);
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
