import type { FastifyInstance } from 'fastify';
import type { CustomFetch } from 'openid-client';
import { MOUNT } from './demo-idp.provider.ts';

/**
 * The server reaches its own demo provider without the network: requests go through
 * `inject`, with the Host of the public address, so it works whatever address it listens on.
 */
export function injectFetch(app: FastifyInstance, publicUrl: string): CustomFetch {
  const origin = new URL(publicUrl);
  return async (url, options) => {
    const target = new URL(url);
    if (target.origin !== origin.origin || !target.pathname.startsWith(MOUNT)) {
      throw new TypeError(`fetch failed: the demo provider does not reach ${target.origin}`);
    }
    const headers = Object.fromEntries(
      new Headers(options.headers as ConstructorParameters<typeof Headers>[0]),
    );
    const response = await app.inject({
      method: options.method as 'GET' | 'POST',
      url: `${target.pathname}${target.search}`,
      headers: {
        ...headers,
        host: origin.host,
        ...(origin.protocol === 'https:' ? { 'x-forwarded-proto': 'https' } : {}),
      },
      ...(options.body !== undefined && options.body !== null
        ? { payload: String(options.body) }
        : {}),
    });
    const out = new Headers();
    for (const [name, value] of Object.entries(response.headers)) {
      if (value === undefined) continue;
      for (const v of Array.isArray(value) ? value : [value]) out.append(name, String(v));
    }
    const empty = response.statusCode === 204 || response.statusCode === 304;
    return new Response(empty ? null : response.rawPayload, {
      status: response.statusCode,
      headers: out,
    });
  };
}
