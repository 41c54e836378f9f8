import { useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useSession } from '../use-session';
import { menuQueryKey } from './get-menu';

/**
 * A tab hidden this long lets its stream go (most open portals are tabs in the background);
 * shown again, it reconnects and reads its menu once.
 */
export const HIDDEN_PAUSE_MS = 5 * 60_000;

/**
 * Reads the menu again, with its ETag (getMenu sends If-None-Match: an unchanged menu is a
 * 304). Several requests while one read runs make one more read after it; a read already
 * under way when a change is announced may have started before the change, so it is
 * followed by one more.
 */
export function menuRefresher(client: QueryClient, queryKey: QueryKey) {
  let running = false;
  let again = false;
  const read = () => client.invalidateQueries({ queryKey }, { cancelRefetch: false });
  return function refresh() {
    if (running) {
      again = true;
      return;
    }
    running = true;
    void (async () => {
      try {
        do {
          again = false;
          const busy = client.isFetching({ queryKey }) > 0;
          await read();
          if (busy) await read();
        } while (again);
      } finally {
        running = false;
      }
    })();
  };
}

/**
 * Keeps the signed-in person's menu fresh while the portal is open (decision 0062): the
 * server's event stream says when the menu changed, and the menu query is read again. The
 * stream's code loads after the first screen.
 */
export function useMenuEvents() {
  const { token } = useSession();
  const client = useQueryClient();

  useEffect(() => {
    if (!token) return;
    const refresh = menuRefresher(client, menuQueryKey(token));
    let disposed = false;
    let ended = false;
    let connection: { stop(): void } | null = null;
    let hiddenTimer: ReturnType<typeof setTimeout> | null = null;

    const start = () => {
      if (connection || ended || disposed) return;
      let stopStream: (() => void) | null = null;
      let cancelled = false;
      const current = {
        stop: () => {
          cancelled = true;
          stopStream?.();
        },
      };
      connection = current;
      import('./menu-events').then(
        ({ connectMenuEvents }) => {
          if (cancelled) return;
          stopStream = connectMenuEvents({
            token,
            onReady: refresh,
            onMenu: refresh,
            onEnded: () => {
              ended = true;
              if (connection === current) connection = null;
              // The read answers 401 and the app signs out, as for any ended session.
              refresh();
            },
          });
        },
        () => {
          // The code could not load (a new version was deployed meanwhile): the menu is still
          // read on focus and every half minute; the next time the tab is shown tries again.
          if (connection === current) connection = null;
        },
      );
    };
    const pause = () => {
      connection?.stop();
      connection = null;
    };

    const onVisibility = () => {
      if (document.visibilityState === 'hidden') {
        hiddenTimer ??= setTimeout(() => {
          hiddenTimer = null;
          pause();
        }, HIDDEN_PAUSE_MS);
        return;
      }
      if (hiddenTimer) clearTimeout(hiddenTimer);
      hiddenTimer = null;
      start();
    };

    document.addEventListener('visibilitychange', onVisibility);
    start();
    return () => {
      disposed = true;
      document.removeEventListener('visibilitychange', onVisibility);
      if (hiddenTimer) clearTimeout(hiddenTimer);
      pause();
    };
  }, [token, client]);
}
