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

  it('sends a JSON body as JSON, as before', async () => {
    const { requests } = mockFetch([{ method: 'POST', path: '/api/consumer/x', status: 204 }]);
    await consumerApi.request('/x', { method: 'POST', body: { name: 'a' } });
    expect(requests[0]!.headers['Content-Type']).toBe('application/json');
    expect(requests[0]!.raw).toBe('{"name":"a"}');
  });

  it('sends a Blob as its bytes, typed as given or as the Blob is', async () => {
    const { requests } = mockFetch([{ method: 'PUT', path: '/api/consumer/x', status: 204 }]);
    const image = new Blob([new Uint8Array([137, 80, 78, 71])], { type: 'image/png' });
    await consumerApi.request('/x', { method: 'PUT', body: image });
    await consumerApi.request('/x', { method: 'PUT', body: image, contentType: 'image/x-icon' });
    await consumerApi.request('/x', { method: 'PUT', body: new Blob([new Uint8Array([1])]) });
    expect(requests.map((r) => r.headers['Content-Type'])).toEqual([
      'image/png',
      'image/x-icon',
      'application/octet-stream',
    ]);
    expect(requests[0]!.raw).toBe(image);
    expect(requests[0]!.body).toBeUndefined();
  });

  it('sends an ArrayBuffer or a typed array as it is, with the type given', async () => {
    const { requests } = mockFetch([{ method: 'PUT', path: '/api/consumer/x', status: 204 }]);
    const bytes = new Uint8Array([255, 216, 255]);
    await consumerApi.request('/x', { method: 'PUT', body: bytes, contentType: 'image/jpeg' });
    await consumerApi.request('/x', {
      method: 'PUT',
      body: bytes.buffer,
      contentType: 'image/gif',
    });
    expect(requests[0]!.raw).toBe(bytes);
    expect(requests[0]!.headers['Content-Type']).toBe('image/jpeg');
    expect(requests[1]!.raw).toBe(bytes.buffer);
    expect(requests[1]!.headers['Content-Type']).toBe('image/gif');
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

  it('sends bytes with their type', async () => {
    setSessionToken('t');
    const { requests } = mockFetch([
      { method: 'PUT', path: '/api/consumer/links/abc/icon', status: 204 },
    ]);
    const image = new Blob([new Uint8Array([71, 73, 70])]);
    await expect(runWrite('PUT', '/links/abc/icon', image, 'image/gif')).resolves.toBe(true);
    expect(requests[0]!.raw).toBe(image);
    expect(requests[0]!.headers['Content-Type']).toBe('image/gif');
    expect(requests[0]!.headers.Authorization).toBe('Bearer t');
  });

  it('resolves false and logs out on a 401', async () => {
    setSessionToken('t');
    vi.spyOn(console, 'error').mockImplementation(() => {});
    mockFetch([{ method: 'DELETE', path: '/api/consumer/links/abc', status: 401, body: {} }]);
    await expect(runWrite('DELETE', '/links/abc')).resolves.toBe(false);
    expect(getSession().authenticated).toBe(false);
  });
});
