import { useEffect, useMemo } from 'react';
import { NO_LINK_HEALTH, type LinkHealth } from '../../../lib/link-health/context';
import { useAttention } from '../api/attention';

export interface LinkHealthWatchProps {
  /** The menu's ETag: the list is read again when it changes. */
  menuVersion: string | null;
  /** False before the menu shows, and while it shows a copy kept offline. */
  enabled: boolean;
  /** Called with each new reading. */
  onRead: (health: LinkHealth) => void;
}

/**
 * Reads the links that need the person (decision 0069) and hands them to the provider. Loaded
 * after the portal is painted: the marks are a help, not the first screen. An unchanged read
 * keeps its objects (one query key, structural sharing), so nothing renders again.
 */
export function LinkHealthWatch({ menuVersion, enabled, onRead }: LinkHealthWatchProps) {
  const items = useAttention(menuVersion, enabled);
  const value = useMemo<LinkHealth>(() => {
    if (items.length === 0) return NO_LINK_HEALTH;
    return {
      byLinkId: new Map(items.map((item) => [item.linkId, item])),
      fixable: items.filter((item) => item.canChange),
      shared: items.filter((item) => !item.canChange),
    };
  }, [items]);
  useEffect(() => onRead(value), [onRead, value]);
  return null;
}
