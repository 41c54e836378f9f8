// A small browser for the single sign-on tests: walks a sign-in from the app through the
// test provider (sso-provider.ts) and back, and reads what the app answered.
import { randomInt } from 'node:crypto';
import type { App } from '../../src/app.ts';

export interface SignInResult {
  /** Where the app finally sent the browser (path and fragment). */
  location: string;
  /** The callback address the provider sent the browser to (with code and state). */
  callbackUrl: string | null;
  /** The attempt cookie the app set at the start. */
  cookie: string | null;
}

export const ssoErrorOf = (location: string) => {
  const match = /^\/#sso-error\?(.*)$/.exec(location);
  if (!match) return null;
  const params = new URLSearchParams(match[1]);
  return { code: params.get('code'), message: params.get('message') };
};

/** The token of a `#session?token=…&handover=…` fragment, or null. */
export const sessionTokenOf = (location: string) =>
  /#session\?token=([^&]+)&handover=[\w-]+$/.exec(location)?.[1] ?? null;

/** The hand-over value of a `#session?…&handover=…` fragment, or null (decision 0080). */
export const handoverOf = (location: string) =>
  /#session\?token=[^&]+&handover=([\w-]+)$/.exec(location)?.[1] ?? null;

/**
 * Plays the browser: the app's start address, the provider (following its redirects with
 * its cookies), back to the app's callback. `stopAtCallback` returns before the callback.
 */
export async function browserSignIn(
  app: App,
  providerId: string,
  options: { returnTo?: string; stopAtCallback?: boolean } = {},
): Promise<SignInResult> {
  const query = options.returnTo ? `?returnTo=${encodeURIComponent(options.returnTo)}` : '';
  // Each sign-in from its own address, as different people's browsers would be.
  const start = await app.inject({
    method: 'GET',
    url: `/api/auth/sso/${providerId}/start${query}`,
    // The browser is on the public address, where the provider returns.
    headers: { host: new URL(app.config.publicUrl).host },
    remoteAddress: `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`,
  });
  const location = String(start.headers.location ?? '');
  const cookie =
    /signpost_sso=([^;]*)/.exec(String(start.headers['set-cookie'] ?? ''))?.[1] ?? null;
  if (!location.startsWith('http')) return { location, callbackUrl: null, cookie };

  const url = await followProvider(location, providerId);
  if (options.stopAtCallback) return { location: '', callbackUrl: url, cookie };
  const finish = await callback(app, url, cookie);
  return { location: finish, callbackUrl: url, cookie };
}

/**
 * Follows the provider's redirects from its authorization address (with its cookies) until
 * it sends the browser back to the app's callback; returns that callback address.
 */
export async function followProvider(location: string, providerId: string): Promise<string> {
  const jar = new Map<string, string>();
  let url = location;
  for (let hop = 0; hop < 10; hop += 1) {
    const response = await fetch(url, {
      redirect: 'manual',
      headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, ...value] = (pair ?? '').split('=');
      if (name) jar.set(name.trim(), value.join('='));
    }
    const next = response.headers.get('location');
    if (!next) throw new Error(`provider stopped at ${url} with ${response.status}`);
    url = new URL(next, url).href;
    if (url.includes(`/api/auth/sso/${providerId}/callback`)) break;
  }
  return url;
}

/** Calls the app's callback address as the browser would, with or without the cookie. */
export async function callback(app: App, callbackUrl: string, cookie: string | null) {
  const { pathname, search } = new URL(callbackUrl);
  const response = await app.inject({
    method: 'GET',
    url: `${pathname}${search}`,
    headers: cookie ? { cookie: `signpost_sso=${cookie}` } : {},
  });
  if (response.statusCode !== 302) {
    throw new Error(`callback answered ${response.statusCode}: ${response.body}`);
  }
  return String(response.headers.location ?? '');
}
