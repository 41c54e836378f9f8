import { SAFE_LINK_PROTOCOLS } from './constants';

/** The URL when it may be rendered as a link (http, https, mailto); otherwise null. */
export function safeHref(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return null;
  }
  return (SAFE_LINK_PROTOCOLS as readonly string[]).includes(parsed.protocol) ? parsed.href : null;
}
