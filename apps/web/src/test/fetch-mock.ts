import { vi } from 'vitest';

export interface MockRoute {
  method?: string;
  path: string | RegExp;
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** The answer waits for this (a slow server, to test what shows meanwhile). */
  held?: Promise<void>;
}

export interface RecordedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  /** A JSON body, parsed. */
  body: unknown;
  /** The body as it was given to fetch (a Blob or bytes for an upload). */
  raw: BodyInit | null | undefined;
}

/**
 * Replaces fetch with a table of answers (first match wins; a route with `once` semantics
 * can be removed by the test). Unknown requests get 404 so that a missing route fails loudly.
 */
export function mockFetch(routes: MockRoute[]) {
  const requests: RecordedRequest[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = String(input);
    const method = init.method ?? 'GET';
    const headers = (init.headers ?? {}) as Record<string, string>;
    requests.push({
      method,
      url,
      headers,
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
      raw: init.body,
    });
    const path = url.split('?')[0] ?? url;
    const route = routes.find(
      (candidate) =>
        (candidate.method ?? 'GET') === method &&
        (typeof candidate.path === 'string' ? candidate.path === path : candidate.path.test(path)),
    );
    if (!route)
      return new Response(JSON.stringify({ message: `no mock for ${method} ${url}` }), {
        status: 404,
      });
    if (route.held) await route.held;
    const body =
      route.status === 204 || route.body === undefined ? null : JSON.stringify(route.body);
    return new Response(body, { status: route.status, headers: route.headers });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { requests, routes, fetchMock };
}
