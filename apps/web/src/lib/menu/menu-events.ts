// The menu's live updates (decision 0062): GET /api/consumer/menu/events read with fetch,
// since EventSource cannot send the Authorization header (and a token in the address would
// end up in logs). Loaded after the first screen (use-menu-events.ts imports it lazily).
import { createParser } from 'eventsource-parser';
import { CONSUMER_BASE_PATH, STATUS_UNAUTHORIZED } from '../constants';

export const MENU_EVENTS_PATH = `${CONSUMER_BASE_PATH}/menu/events`;

/** Reconnection waits: about a second at first, doubling up to half a minute. */
export const RECONNECT_FIRST_MS = 1000;
export const RECONNECT_MAX_MS = 30_000;

/**
 * The wait before reconnection attempt `attempt` (0 for the first): exponential from 1 s to
 * 30 s, each wait drawn between half of it and all of it, so that the tabs a restart cut off
 * do not all come back at the same moment.
 */
export function reconnectDelay(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(RECONNECT_MAX_MS, RECONNECT_FIRST_MS * 2 ** Math.max(0, attempt));
  return base / 2 + (random() * base) / 2;
}

export interface MenuEventHandlers {
  /** The stream is open (each time): changes made while it was not may have been missed. */
  onReady(): void;
  /** Something in the menu changed: read it again (with its ETag). */
  onMenu(): void;
  /** The session ended (or the token is refused): the stream stops for good. */
  onEnded(): void;
}

export interface MenuEventsOptions extends MenuEventHandlers {
  token: string;
  /**
   * The stream to read: the menu's (the default), or one that also hears more, such as the
   * console's of a team's space (`GET /api/admin/teams/{id}/space/events`).
   */
  path?: string;
  random?: () => number;
  /** A connection that was open closed (whatever comes next: a reconnection, or the end). */
  onClosed?: () => void;
}

/** How one connection ended. */
type Outcome = 'reconnect' | 'ended' | 'unavailable';

/** Reads one response body's events until it ends; says whether to reconnect. */
async function readEvents(
  body: ReadableStream<Uint8Array>,
  handlers: MenuEventHandlers,
  connected: () => void,
): Promise<Outcome> {
  // Set by the parser's callback, within `feed`.
  const state: { outcome: Outcome } = { outcome: 'reconnect' };
  const reader = body.getReader();
  const parser = createParser({
    onEvent: (event) => {
      if (event.event === 'ready') {
        connected();
        handlers.onReady();
      } else if (event.event === 'menu') {
        handlers.onMenu();
      } else if (event.event === 'session-ended') {
        state.outcome = 'ended';
      }
    },
  });
  const decoder = new TextDecoder();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parser.feed(decoder.decode(value, { stream: true }));
    if (state.outcome === 'ended') {
      await reader.cancel().catch(() => {});
      break;
    }
  }
  return state.outcome;
}

/** The wait a refusal asks for (Retry-After in seconds), if any. */
function retryAfterMs(response: Response): number {
  const seconds = Number(response.headers.get('Retry-After'));
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 0;
}

/**
 * Keeps the menu's event stream open: reconnects with back-off after any end or failure,
 * stops when the session ends (`onEnded`), when the server has no live updates (404) or
 * refuses this stream to the person (403), or when the returned function is called.
 */
export function connectMenuEvents(options: MenuEventsOptions): () => void {
  const random = options.random ?? Math.random;
  let stopped = false;
  let attempt = 0;
  let controller: AbortController | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const schedule = (atLeastMs = 0) => {
    const wait = Math.max(atLeastMs, reconnectDelay(attempt, random));
    attempt += 1;
    timer = setTimeout(() => {
      timer = null;
      void connect();
    }, wait);
  };

  const connect = async () => {
    if (stopped) return;
    controller = new AbortController();
    let outcome: Outcome = 'reconnect';
    let atLeastMs = 0;
    try {
      const response = await fetch(options.path ?? MENU_EVENTS_PATH, {
        headers: { Accept: 'text/event-stream', Authorization: `Bearer ${options.token}` },
        cache: 'no-store',
        signal: controller.signal,
      });
      const type = response.headers.get('Content-Type') ?? '';
      if (response.status === STATUS_UNAUTHORIZED) {
        outcome = 'ended';
      } else if (response.status === 404 || response.status === 403) {
        // No live updates here, or not for this person (a team space they no longer run).
        outcome = 'unavailable';
      } else if (response.ok && response.body && type.startsWith('text/event-stream')) {
        try {
          outcome = await readEvents(response.body, options, () => (attempt = 0));
        } finally {
          options.onClosed?.();
        }
      } else {
        atLeastMs = retryAfterMs(response);
        await response.body?.cancel().catch(() => {});
      }
    } catch {
      // A network failure or a cut connection: reconnect (unless stopped meanwhile).
    }
    controller = null;
    if (stopped) return;
    if (outcome === 'ended') {
      stopped = true;
      options.onEnded();
      return;
    }
    if (outcome === 'unavailable') {
      stopped = true;
      return;
    }
    schedule(atLeastMs);
  };

  void connect();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    controller?.abort();
  };
}
