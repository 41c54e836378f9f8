import { useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { useEffect } from 'react';
import { clearSession, getSession } from '../session-store';
import { useSession } from '../use-session';
import { whenIdle } from '../when-idle';
import { menuQueryKey } from './get-menu';
import { setMenuStreamOpen } from './stream-state';

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

/** The longest the stream waits for the browser to be idle after the menu's paint. */
const IDLE_START_TIMEOUT_MS = 1000;

/**
 * Runs `run` after the frame being drawn is painted (the next animation frame runs just
 * before the paint, a task queued from it after), once the browser is idle: after the work
 * the paint queued, such as the menu's painted mark. Returns a cancel function.
 */
function whenIdleAfterPaint(run: () => void): () => void {
  let cancelIdle: (() => void) | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(() => {
      cancelIdle = whenIdle(run, IDLE_START_TIMEOUT_MS);
    }, 0);
  });
  return () => {
    cancelAnimationFrame(frame);
    if (timer) clearTimeout(timer);
    cancelIdle?.();
  };
}

/**
 * Keeps the signed-in person's menu fresh while the portal is open (decision 0062): the
 * server's event stream says when the menu changed, and the menu query is read again. The
 * stream opens once the menu is `shown`, when the browser is idle after the frame that
 * paints it, so its code is no part of the first screen (decision 0063); on opening it reads the menu once (a 304 when
 * nothing changed meanwhile). `path` names another stream than the menu's: the console's of a
 * team's space, whose query lives under the menu's key and is read again with it.
 */
export function useMenuEvents(shown = true, path?: string) {
  const { token } = useSession();
  const client = useQueryClient();

  useEffect(() => {
    if (!token || !shown) return;
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
            ...(path ? { path } : {}),
            onReady: () => {
              setMenuStreamOpen(true);
              refresh();
            },
            onMenu: refresh,
            // Closed: the menu is read once (which also brings the query's own asking back to
            // every MENU_REFRESH_MS) until the stream is open again.
            onClosed: () => {
              setMenuStreamOpen(false);
              if (!disposed && !cancelled) refresh();
            },
            onEnded: () => {
              ended = true;
              if (connection === current) connection = null;
              // The server says the session is gone: signed out here at once, and what the
              // portal kept of the person goes (decision 0080). A session replaced meanwhile
              // is not this stream's to end.
              if (getSession().token === token) clearSession();
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
      setMenuStreamOpen(false);
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
    const cancelStart = whenIdleAfterPaint(start);
    return () => {
      disposed = true;
      cancelStart();
      document.removeEventListener('visibilitychange', onVisibility);
      if (hiddenTimer) clearTimeout(hiddenTimer);
      pause();
    };
  }, [token, client, shown, path]);
}
