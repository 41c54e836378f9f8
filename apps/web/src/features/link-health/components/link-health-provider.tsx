import { lazy, Suspense, useState, type ReactNode } from 'react';
import { LinkHealthContext, NO_LINK_HEALTH } from '../../../lib/link-health/context';

const LinkHealthWatch = lazy(() =>
  import('./link-health-watch').then((m) => ({ default: m.LinkHealthWatch })),
);

/**
 * Gives the links that need the person (decision 0069) to the tiles, the header's button and
 * the dialog below. Its children are the portal's elements, made by the portal: a new read
 * renders the marks and the button again, not the portal. The reading itself (its query and
 * its words) loads once `watching` is set, after the paint: none of it is first-screen code.
 */
export function LinkHealthProvider({
  menuVersion,
  enabled,
  watching = true,
  children,
}: {
  /** The menu's ETag: the list is read again when it changes. */
  menuVersion: string | null;
  /** False before the menu shows, and while it shows a copy kept offline. */
  enabled: boolean;
  /** Start reading (the portal sets it once the browser is idle after the paint). */
  watching?: boolean;
  children: ReactNode;
}) {
  const [health, setHealth] = useState(NO_LINK_HEALTH);
  return (
    <LinkHealthContext.Provider value={health}>
      {children}
      {watching ? (
        <Suspense fallback={null}>
          <LinkHealthWatch menuVersion={menuVersion} enabled={enabled} onRead={setHealth} />
        </Suspense>
      ) : null}
    </LinkHealthContext.Provider>
  );
}
