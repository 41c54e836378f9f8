import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, renderHook } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';

function testClient() {
  return new QueryClient({ defaultOptions: { queries: { retry: false } } });
}

function withClient(client: QueryClient) {
  return ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
}

/**
 * Renders with a fresh query client (for components that read or write the menu); a
 * rerender keeps the client.
 */
export function renderWithQuery(ui: ReactElement, client = testClient()) {
  return { client, ...render(ui, { wrapper: withClient(client) }) };
}

/** Runs a hook with a fresh query client (for the write hooks). */
export function renderHookWithQuery<T>(hook: () => T, client = testClient()) {
  return { client, ...renderHook(hook, { wrapper: withClient(client) }) };
}
