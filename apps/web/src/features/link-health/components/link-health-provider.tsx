import { useMemo, type ReactNode } from 'react';
import {
  LinkHealthContext,
  NO_LINK_HEALTH,
  type LinkHealth,
} from '../../../lib/link-health/context';
import { useAttention } from '../api/attention';

/**
 * Reads the links that need the person (decision 0069) and gives them to the tiles, the
 * header's button and the dialog below. Its children are the portal's elements, made by the
 * portal: a new read renders the marks and the button again, not the portal; an unchanged
 * read keeps its objects (one query key, structural sharing) and renders nothing.
 */
export function LinkHealthProvider({
  menuVersion,
  enabled,
  children,
}: {
  /** The menu's ETag: the list is read again when it changes. */
  menuVersion: string | null;
  /** False before the menu shows, and while it shows a copy kept offline. */
  enabled: boolean;
  children: ReactNode;
}) {
  const items = useAttention(menuVersion, enabled);
  const value = useMemo<LinkHealth>(() => {
    if (items.length === 0) return NO_LINK_HEALTH;
    return {
      byLinkId: new Map(items.map((item) => [item.linkId, item])),
      fixable: items.filter((item) => item.canChange),
      shared: items.filter((item) => !item.canChange),
    };
  }, [items]);
  return <LinkHealthContext.Provider value={value}>{children}</LinkHealthContext.Provider>;
}
