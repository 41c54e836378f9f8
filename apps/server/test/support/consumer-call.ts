import type { App } from '../../src/app.ts';

/** Sends a request as someone, or anonymously. */
export function call(
  app: App,
  method: 'POST' | 'PATCH' | 'PUT' | 'DELETE',
  url: string,
  who?: { headers: Record<string, string> },
  payload?: unknown,
) {
  return app.inject({
    method,
    url: `/api/consumer${url}`,
    headers: who?.headers ?? {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}
