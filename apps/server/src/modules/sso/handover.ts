import {
  SESSION_HANDOVER_COOKIE,
  SESSION_HANDOVER_SECONDS,
  SESSION_HANDOVER_SECURE_COOKIE,
} from '@signpost/contract';
import { randomBytes } from 'node:crypto';

/** A new hand-over value: 256 random bits, base64url. */
export function newHandover(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * The cookie that hands a single sign-on's session to the web app (decision 0080): the same
 * random value as the fragment's `handover`, in a cookie of the whole origin that the page
 * reads (so not HttpOnly). Only a browser that came through the callback has it, so a
 * `#session?token=…` link made by anyone else is asked about before it signs anybody in.
 * SameSite=Strict: the page reads it, no request needs it. Over https its name has the
 * `__Host-` prefix (Secure, Path=/, no Domain), so no other site of the domain can set it.
 */
export function handoverCookie(value: string, secure: boolean): string {
  const name = secure ? SESSION_HANDOVER_SECURE_COOKIE : SESSION_HANDOVER_COOKIE;
  return (
    `${name}=${value}; Path=/; Max-Age=${SESSION_HANDOVER_SECONDS}; SameSite=Strict` +
    (secure ? '; Secure' : '')
  );
}
