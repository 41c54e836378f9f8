import { safeHref } from '../../lib/safe-url';

/**
 * Opens a link as its tile does (`target="_blank" rel="noopener noreferrer"`): in a new tab,
 * without access to this page and without a referrer, and only for a safe address. Says
 * whether it opened it.
 */
export function openInNewTab(url: string): boolean {
  const href = safeHref(url);
  if (!href) return false;
  window.open(href, '_blank', 'noopener,noreferrer');
  return true;
}
