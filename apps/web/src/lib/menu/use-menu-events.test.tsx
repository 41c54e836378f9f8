import { act, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeMenu } from '../../test/menu-fixture';
import { renderHookWithQuery } from '../../test/render-with-query';
import { clearSession, getSession, setSessionToken } from '../session-store';
import { tokenKey } from '../storage';
import { useMenu } from './get-menu';
import {
  connectMenuEvents,
  MENU_EVENTS_PATH,
  reconnectDelay,
  RECONNECT_MAX_MS,
  type MenuEventHandlers,
} from './menu-events';
import { menuQueryOptions } from './get-menu';
import { menuStreamOpen } from './stream-state';
import { HIDDEN_PAUSE_MS, useMenuEvents } from './use-menu-events';
import { MENU_REFRESH_LIVE_MS, MENU_REFRESH_MS } from '../constants';

const encoder = new TextEncoder();

/** A response body the test writes to, chunk by chunk, as the server would. */
function eventStream() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => (controller = c) });
  return {
    response: new Response(body, {
      status: 200,
      headers: { 'Content-Type': 'text/event-stream; charset=utf-8' },
    }),
    send: (text: string) => controller.enqueue(encoder.encode(text)),
    end: () => controller.close(),
  };
}

type FetchCall = { url: string; init: RequestInit };

/** Replaces fetch: each call gets the next of `answers` (a function may build it late). */
function fakeFetch(answers: (() => Response | Promise<Response>)[]) {
  const calls: FetchCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    calls.push({ url: String(input), init });
    const next = answers.shift();
    if (!next) return new Promise<Response>(() => {});
    return next();
  });
  vi.stubGlobal('fetch', fetchMock);
  return calls;
}

function handlers() {
  return {
    onReady: vi.fn(),
    onMenu: vi.fn(),
    onEnded: vi.fn(),
  } satisfies MenuEventHandlers;
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  clearSession();
});

describe('reconnectDelay', () => {
  it('doubles from about a second to half a minute, each wait between half and all of it', () => {
    const bases = [1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000];
    bases.forEach((base, attempt) => {
      expect(reconnectDelay(attempt, () => 0)).toBe(base / 2);
      expect(reconnectDelay(attempt, () => 1)).toBe(base);
      expect(reconnectDelay(attempt, () => 0.5)).toBe((base * 3) / 4);
    });
    expect(reconnectDelay(100, () => 1)).toBe(RECONNECT_MAX_MS);
  });
});

describe('connectMenuEvents', () => {
  it('sends the token in the Authorization header, never in the address', async () => {
    const stream = eventStream();
    const calls = fakeFetch([() => stream.response]);
    const stop = connectMenuEvents({ token: 'secret-token', ...handlers() });
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]?.url).toBe(MENU_EVENTS_PATH);
    expect(calls[0]?.url).not.toContain('secret-token');
    expect(calls[0]?.init.headers).toEqual({
      Accept: 'text/event-stream',
      Authorization: 'Bearer secret-token',
    });
    stop();
  });

  it('reads events split anywhere across chunks, with any line ending, and skips comments', async () => {
    const stream = eventStream();
    fakeFetch([() => stream.response]);
    const events = handlers();
    const stop = connectMenuEvents({ token: 't', ...events });
    stream.send('event: re');
    stream.send('ady\ndata:\n');
    stream.send('\n:\n\n');
    await waitFor(() => expect(events.onReady).toHaveBeenCalledTimes(1));
    stream.send('event: menu\r\ndata:\r\n\r\nevent: something-new\ndata:\n\n');
    // A lone CR ends a line too (seen as such once the next character shows it is alone).
    stream.send('event: menu\rdata:\r\r:\n');
    await waitFor(() => expect(events.onMenu).toHaveBeenCalledTimes(2));
    expect(events.onEnded).not.toHaveBeenCalled();
    stop();
  });

  it('reconnects with growing waits while it fails, and starts over once connected', async () => {
    vi.useFakeTimers();
    const streams = [eventStream(), eventStream()];
    const fail = () => Promise.reject(new TypeError('network error'));
    const calls = fakeFetch([
      fail,
      fail,
      fail,
      () => streams[0]!.response,
      () => streams[1]!.response,
    ]);
    const events = handlers();
    const stop = connectMenuEvents({ token: 't', ...events, random: () => 1 });
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toHaveLength(1);
    // Waits of 1 s, 2 s, 4 s after the failures (the random part at its largest).
    for (const [wait, count] of [
      [1000, 2],
      [2000, 3],
      [4000, 4],
    ] as const) {
      await vi.advanceTimersByTimeAsync(wait - 1);
      expect(calls).toHaveLength(count - 1);
      await vi.advanceTimersByTimeAsync(1);
      expect(calls).toHaveLength(count);
    }
    streams[0]!.send('event: ready\ndata:\n\n');
    await vi.advanceTimersByTimeAsync(0);
    expect(events.onReady).toHaveBeenCalledTimes(1);
    // The server ends the stream (a restart): after `ready`, the wait is back to a second.
    streams[0]!.end();
    await vi.advanceTimersByTimeAsync(999);
    expect(calls).toHaveLength(4);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(5);
    stop();
  });

  it('never waits more than half a minute', async () => {
    vi.useFakeTimers();
    const calls = fakeFetch(
      Array.from({ length: 12 }, () => () => new Response(null, { status: 502 })),
    );
    const stop = connectMenuEvents({ token: 't', ...handlers(), random: () => 1 });
    // 1, 2, 4, 8 and 16 s after the first five failures…
    await vi.advanceTimersByTimeAsync(1000 + 2000 + 4000 + 8000 + 16_000);
    expect(calls).toHaveLength(6);
    // …then 30 s each time, however long it goes on.
    for (let n = 7; n <= 10; n += 1) {
      await vi.advanceTimersByTimeAsync(RECONNECT_MAX_MS - 1);
      expect(calls).toHaveLength(n - 1);
      await vi.advanceTimersByTimeAsync(1);
      expect(calls).toHaveLength(n);
    }
    stop();
  });

  it('waits as long as a refusal asks (Retry-After)', async () => {
    vi.useFakeTimers();
    const calls = fakeFetch([
      () => new Response('{}', { status: 503, headers: { 'Retry-After': '20' } }),
    ]);
    const stop = connectMenuEvents({ token: 't', ...handlers(), random: () => 1 });
    await vi.advanceTimersByTimeAsync(19_999);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(2);
    stop();
  });

  it('stops for good when the session ends, or when the token is refused', async () => {
    vi.useFakeTimers();
    const stream = eventStream();
    const calls = fakeFetch([() => stream.response]);
    const events = handlers();
    connectMenuEvents({ token: 't', ...events });
    stream.send('event: ready\ndata:\n\nevent: session-ended\ndata:\n\n');
    await vi.advanceTimersByTimeAsync(0);
    expect(events.onEnded).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(10 * RECONNECT_MAX_MS);
    expect(calls).toHaveLength(1);

    const refused = fakeFetch([() => new Response('{}', { status: 401 })]);
    const other = handlers();
    connectMenuEvents({ token: 't', ...other });
    await vi.advanceTimersByTimeAsync(10 * RECONNECT_MAX_MS);
    expect(other.onEnded).toHaveBeenCalledTimes(1);
    expect(refused).toHaveLength(1);
  });

  it('stops quietly on a server without live updates (404), and when told to', async () => {
    vi.useFakeTimers();
    const calls = fakeFetch([() => new Response('{}', { status: 404 })]);
    const events = handlers();
    connectMenuEvents({ token: 't', ...events });
    await vi.advanceTimersByTimeAsync(10 * RECONNECT_MAX_MS);
    expect(calls).toHaveLength(1);
    expect(events.onEnded).not.toHaveBeenCalled();

    const stream = eventStream();
    const again = fakeFetch([() => stream.response]);
    const stop = connectMenuEvents({ token: 't', ...handlers() });
    await vi.advanceTimersByTimeAsync(0);
    stop();
    expect((again[0]?.init.signal as AbortSignal).aborted).toBe(true);
    await vi.advanceTimersByTimeAsync(10 * RECONNECT_MAX_MS);
    expect(again).toHaveLength(1);
  });
});

describe('connectMenuEvents on another stream', () => {
  it('reads the stream it is given, and stops for good when the person may not read it (403)', async () => {
    vi.useFakeTimers();
    const path = '/api/admin/teams/t-platform/space/events';
    const calls = fakeFetch([
      () => new Response('{"message":"Only the team\'s editors"}', { status: 403 }),
    ]);
    const events = handlers();
    connectMenuEvents({ token: 'secret-token', path, ...events });
    await vi.advanceTimersByTimeAsync(10 * RECONNECT_MAX_MS);
    expect(calls.map((call) => call.url)).toEqual([path]);
    expect((calls[0]?.init.headers as Record<string, string>).Authorization).toBe(
      'Bearer secret-token',
    );
    // Not a session that ended: the app stays signed in.
    expect(events.onEnded).not.toHaveBeenCalled();
    expect(events.onReady).not.toHaveBeenCalled();
  });
});

describe('useMenuEvents', () => {
  /** The portal's menu query and the stream, on a fetch that answers both. */
  function mount(firstMenu: Promise<void> = Promise.resolve()) {
    setSessionToken('token-a');
    const stream = eventStream();
    const menuRequests: (string | null)[] = [];
    let menuStatus = 200;
    const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = String(input);
      if (url === MENU_EVENTS_PATH) return stream.response;
      const headers = (init.headers ?? {}) as Record<string, string>;
      menuRequests.push(headers['If-None-Match'] ?? null);
      await firstMenu;
      if (menuStatus === 401) return new Response('{"message":"Sign in"}', { status: 401 });
      return new Response(menuRequests.length === 1 ? JSON.stringify(makeMenu()) : null, {
        status: menuRequests.length === 1 ? 200 : 304,
        headers: { ETag: '"v1"' },
      });
    });
    vi.stubGlobal('fetch', fetchMock);
    const view = renderHookWithQuery(() => {
      // As the portal does: the stream from the menu's first paint on.
      const menu = useMenu();
      useMenuEvents(menu.data !== undefined);
      return menu;
    });
    return {
      ...view,
      stream,
      fetchMock,
      menuRequests,
      signOutOnServer: () => (menuStatus = 401),
    };
  }

  it('opens the stream only once the menu is shown, and then reads the menu once', async () => {
    let answer!: () => void;
    const { result, fetchMock, menuRequests, stream } = mount(
      new Promise<void>((resolve) => (answer = resolve)),
    );
    const streamCalls = () =>
      fetchMock.mock.calls.filter(([input]) => String(input) === MENU_EVENTS_PATH);
    await waitFor(() => expect(menuRequests).toEqual([null]));
    // Frames and tasks pass while the first menu is on its way: no stream yet.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(streamCalls()).toHaveLength(0);
    answer();
    await waitFor(() => expect(result.current.data?.etag).toBe('"v1"'));
    await waitFor(() => expect(streamCalls()).toHaveLength(1));
    stream.send('event: ready\ndata:\n\n');
    await waitFor(() => expect(menuRequests).toEqual([null, '"v1"']));
  });

  it('reads the menu again, with its ETag, when the stream says it changed', async () => {
    const { result, stream, menuRequests } = mount();
    await waitFor(() => expect(result.current.data?.etag).toBe('"v1"'));
    stream.send('event: ready\ndata:\n\n');
    await waitFor(() => expect(menuRequests).toEqual([null, '"v1"']));
    stream.send('event: menu\ndata:\n\n');
    await waitFor(() => expect(menuRequests).toEqual([null, '"v1"', '"v1"']));
  });

  it('asks on its own only rarely while the stream is open, and reads the menu when it closes', async () => {
    const { result, stream, menuRequests } = mount();
    const interval = menuQueryOptions('token-a').refetchInterval as () => number;
    await waitFor(() => expect(result.current.data?.etag).toBe('"v1"'));
    expect(menuStreamOpen()).toBe(false);
    expect(interval()).toBe(MENU_REFRESH_MS);
    stream.send('event: ready\ndata:\n\n');
    await waitFor(() => expect(menuStreamOpen()).toBe(true));
    expect(interval()).toBe(MENU_REFRESH_LIVE_MS);
    await waitFor(() => expect(menuRequests).toEqual([null, '"v1"']));
    // The server closes the stream (a restart, a cut): the menu is read once, and the query
    // asks every MENU_REFRESH_MS again until the stream is back.
    stream.end();
    await waitFor(() => expect(menuStreamOpen()).toBe(false));
    expect(interval()).toBe(MENU_REFRESH_MS);
    await waitFor(() => expect(menuRequests).toEqual([null, '"v1"', '"v1"']));
  });

  it('signs out when the stream says the session ended, and forgets the person at once', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { result, stream, menuRequests } = mount();
    await waitFor(() => expect(result.current.data).toBeDefined());
    const searches = `signpost:recent-searches:${tokenKey(getSession().token!)}`;
    window.localStorage.setItem(searches, '["payroll"]');
    stream.send('event: ready\ndata:\n\n');
    await waitFor(() => expect(menuRequests).toEqual([null, '"v1"']));
    // The server's word is enough: the menu still reads (the session of this test was never
    // ended at the menu), and the person is signed out all the same (decision 0080).
    stream.send('event: session-ended\ndata:\n\n');
    await waitFor(() => expect(getSession().authenticated).toBe(false));
    expect(window.localStorage.getItem(searches)).toBeNull();
  });

  it('lets the stream go while the tab is hidden for long, and reconnects when shown', async () => {
    const { result, fetchMock } = mount();
    await waitFor(() => expect(result.current.data).toBeDefined());
    const streamCalls = () =>
      fetchMock.mock.calls.filter(([input]) => String(input) === MENU_EVENTS_PATH);
    await waitFor(() => expect(streamCalls()).toHaveLength(1));
    const signal = streamCalls()[0]?.[1]?.signal as AbortSignal;

    vi.useFakeTimers();
    const visibility = vi.spyOn(document, 'visibilityState', 'get');
    visibility.mockReturnValue('hidden');
    act(() => void document.dispatchEvent(new Event('visibilitychange')));
    act(() => void vi.advanceTimersByTime(HIDDEN_PAUSE_MS - 1));
    expect(signal.aborted).toBe(false);
    act(() => void vi.advanceTimersByTime(1));
    expect(signal.aborted).toBe(true);
    vi.useRealTimers();

    visibility.mockReturnValue('visible');
    act(() => void document.dispatchEvent(new Event('visibilitychange')));
    await waitFor(() => expect(streamCalls()).toHaveLength(2));
  });
});
