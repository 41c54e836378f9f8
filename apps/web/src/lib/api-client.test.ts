import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../test/fetch-mock';
import { renderHookWithQuery } from '../test/render-with-query';
import { consumerApi, consumerWrite } from './api-client';
import { TOKEN_STORAGE_KEY } from './constants';
import { useMenuMutation } from './menu/use-menu-mutation';
import { clearSession, getSession, setSessionToken } from './session-store';
import { configureTrackingSink, setTrackingConsent, type TrackingEvent } from './tracking';

afterEach(() => {
  clearSession();
  configureTrackingSink(null);
  setTrackingConsent(false);
});

describe('api client', () => {
  it('sends the bearer token once a token exists', async () => {
    const { requests } = mockFetch([{ path: '/api/consumer/menu', status: 200, body: {} }]);
    await consumerApi.request('/menu');
    expect(requests[0]!.headers.Authorization).toBeUndefined();
    setSessionToken('secret-token');
    await consumerApi.request('/menu');
    expect(requests[1]!.headers.Authorization).toBe('Bearer secret-token');
  });

  it('logs out on a 401 and rejects with Unauthorized', async () => {
    setSessionToken('expired');
    expect(window.localStorage.getItem(TOKEN_STORAGE_KEY)).toBe('expired');
    const { requests } = mockFetch([
      { path: '/api/consumer/menu', status: 401, body: { message: 'Session expired' } },
    ]);
    await expect(consumerApi.request('/menu')).rejects.toThrow('Unauthorized');
    expect(getSession()).toEqual({ token: null, authenticated: false });
    expect(window.localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
    await consumerApi.request('/menu').catch(() => {});
    expect(requests[1]!.headers.Authorization).toBeUndefined();
  });

  it('passes other errors through with status and data', async () => {
    setSessionToken('t');
    mockFetch([{ path: '/api/consumer/menu', status: 503, body: { message: 'Database down' } }]);
    await expect(consumerApi.request('/menu')).rejects.toMatchObject({
      status: 503,
      data: { message: 'Database down' },
    });
    expect(getSession().authenticated).toBe(true);
  });
});

/** A write as the portal runs it: through a menu mutation, true on success, false on failure. */
function runWrite(...args: Parameters<typeof consumerWrite>) {
  const { result } = renderHookWithQuery(() => useMenuMutation(() => consumerWrite(...args)));
  return result.current.write(undefined);
}

describe('consumerWrite', () => {
  it('resolves true on 204', async () => {
    setSessionToken('t');
    const { requests } = mockFetch([
      { method: 'DELETE', path: '/api/consumer/links/abc', status: 204 },
    ]);
    await expect(runWrite('DELETE', '/links/abc')).resolves.toBe(true);
    expect(requests[0]!.method).toBe('DELETE');
  });

  it('resolves false, logs and reports an error event only with consent', async () => {
    setSessionToken('t');
    const events: TrackingEvent[] = [];
    configureTrackingSink((event) => events.push(event));
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    mockFetch([
      { method: 'POST', path: '/api/consumer/collections/', status: 409, body: { message: 'No' } },
    ]);

    await expect(runWrite('POST', '/collections/', { name: 'x' })).resolves.toBe(false);
    expect(consoleError).toHaveBeenCalled();
    expect(events).toEqual([]);

    setTrackingConsent(true);
    await expect(runWrite('POST', '/collections/', { name: 'x' })).resolves.toBe(false);
    expect(events).toEqual([
      expect.objectContaining({
        name: 'api',
        status: 'error',
        data: expect.objectContaining({ response: { message: 'No' } }),
      }),
    ]);
  });

  it('resolves false and logs out on a 401', async () => {
    setSessionToken('t');
    vi.spyOn(console, 'error').mockImplementation(() => {});
    mockFetch([{ method: 'DELETE', path: '/api/consumer/links/abc', status: 401, body: {} }]);
    await expect(runWrite('DELETE', '/links/abc')).resolves.toBe(false);
    expect(getSession().authenticated).toBe(false);
  });
});
