import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { AppProvider, createQueryClient } from './provider';
import { mockFetch, type MockRoute } from '../test/fetch-mock';
import { makeMenu } from '../test/menu-fixture';
import { clearSession, setSessionToken } from '../lib/session-store';
import { useMenu } from '../lib/menu/get-menu';

afterEach(() => clearSession());

function start() {
  setSessionToken('token-a');
  const routes: MockRoute[] = [
    { path: '/api/consumer/menu', status: 200, body: makeMenu(), headers: { ETag: '"v1"' } },
  ];
  const mock = mockFetch(routes);
  const client = createQueryClient();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <AppProvider client={client}>{children}</AppProvider>
  );
  const view = renderHook(() => useMenu(), { wrapper });
  const sent = () => mock.requests.map((request) => request.headers['If-None-Match'] ?? null);
  return { ...view, routes, sent };
}

describe('useMenu', () => {
  it('asks with the ETag of the menu it holds, and keeps that menu on 304', async () => {
    const { result, routes, sent } = start();
    await waitFor(() => expect(result.current.data).toBeDefined());
    const first = result.current.data;
    expect(first?.etag).toBe('"v1"');
    routes[0] = { ...routes[0]!, status: 304, body: undefined };
    await act(() => result.current.refetch());
    expect(sent()).toEqual([null, '"v1"']);
    expect(result.current.data).toBe(first);
  });

  it('forgets the menu and its ETag when the session ends', async () => {
    const { result, sent } = start();
    await waitFor(() => expect(result.current.data).toBeDefined());
    act(() => clearSession());
    act(() => setSessionToken('token-a'));
    await waitFor(() => expect(sent()).toHaveLength(2));
    // Asked afresh: nothing of the ended session is offered for reuse.
    expect(sent()).toEqual([null, null]);
  });
});
