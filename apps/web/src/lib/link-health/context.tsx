import type { AttentionLink } from '@signpost/contract';
import { createContext, useContext } from 'react';
import type { LinkLike } from '../menu/menu-types';

export type LinkMark = AttentionLink['state'];

/** The links that need the person (decision 0069), as the portal last read them. */
export interface LinkHealth {
  /** Every listed link by its id: the marks on tiles. */
  byLinkId: ReadonlyMap<string, AttentionLink>;
  /** The listed links the person may fix, in the server's order. */
  fixable: readonly AttentionLink[];
  /** The links of shares the person is a member of: marked, with nothing to do. */
  shared: readonly AttentionLink[];
}

export const NO_LINK_HEALTH: LinkHealth = { byLinkId: new Map(), fixable: [], shared: [] };

/**
 * Given by the portal's provider (features/link-health), read by the tiles, the header's
 * button and the dialog. Outside the portal: nothing to mark.
 */
export const LinkHealthContext = createContext<LinkHealth>(NO_LINK_HEALTH);

/** The links that need the person, as read last. */
export function useLinkHealth(): LinkHealth {
  return useContext(LinkHealthContext);
}

/**
 * The mark of a link's tile, or null. A link of one's own space, team or share shows what the
 * list says of it. A favorite shows its original's mark only where the person may fix the
 * original: a plain member's favorite of a team link stays quiet, as the team link does.
 */
export function useLinkMark(link: LinkLike): LinkMark | null {
  const { byLinkId } = useLinkHealth();
  if (link.type === 'link-favorite') {
    const original = byLinkId.get(link.linkId);
    return original?.canChange ? original.state : null;
  }
  return byLinkId.get(link.id)?.state ?? null;
}
