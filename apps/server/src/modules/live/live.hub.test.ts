// The hub's timing and resource rules, on fake streams and a fake clock: keep-alive
// comments, one frame per burst, a client that reads nothing, resynchronization, shutdown.
import type { FastifyBaseLogger } from 'fastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_TIMINGS, FRAMES, LiveHub, type Sink } from './live.hub.ts';
import type { Database } from '../../db/client.ts';
import type { LiveRepository } from './live.repository.ts';

class FakeSink implements Sink {
  frames: string[] = [];
  ended = false;
  destroyed = false;
  writableLength = 0;
  write(chunk: string) {
    this.frames.push(chunk);
    return true;
  }
  end() {
    this.ended = true;
  }
  destroy() {
    this.destroyed = true;
  }
  /** Frames other than keep-alive comments. */
  get events() {
    return this.frames.filter((frame) => frame !== FRAMES.keepAlive);
  }
}

const log = { warn: vi.fn(), info: vi.fn() } as unknown as FastifyBaseLogger;

/** The hub passes the database to its repository, which here is a fake that never reads it. */
const db = {} as Database;

function fakeRepository(scopes: Record<string, string[]>): LiveRepository {
  return {
    scopesOf: vi.fn(async (_db: Database, ids: string[]) => {
      return new Map(ids.filter((id) => scopes[id]).map((id) => [id, scopes[id] ?? []]));
    }),
    peopleOfShares: vi.fn(async () => []),
    teamRunners: vi.fn(async () => new Set<string>()),
    liveCredentials: vi.fn(async () => new Set<string>()),
  };
}

let hub: LiveHub;
beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  hub.close();
  vi.useRealTimers();
});

function open(userId: string, scopes: string[], session = `session-${userId}`) {
  const sink = new FakeSink();
  hub.open(sink, { userId, credential: { kind: 'session', id: session }, scopes });
  return sink;
}

describe('the live hub', () => {
  it('writes a keep-alive comment to every stream every 25 seconds, and nothing else', () => {
    hub = new LiveHub(
      { db, live: fakeRepository({}) },
      { maxStreams: 10, maxStreamsPerSession: 8, maxStreamsPerPerson: 100 },
      log,
    );
    hub.start();
    const sink = open('ana', ['p:ana', 'o:org']);
    expect(sink.frames).toEqual([FRAMES.ready]);
    vi.advanceTimersByTime(DEFAULT_TIMINGS.keepAliveMs - 1);
    expect(sink.frames).toEqual([FRAMES.ready]);
    vi.advanceTimersByTime(1);
    expect(sink.frames).toEqual([FRAMES.ready, FRAMES.keepAlive]);
    vi.advanceTimersByTime(DEFAULT_TIMINGS.keepAliveMs);
    expect(sink.frames.filter((frame) => frame === FRAMES.keepAlive)).toHaveLength(2);
  });

  it('tells a stream at once, then once more at the end of a burst', () => {
    hub = new LiveHub(
      { db, live: fakeRepository({}) },
      { maxStreams: 10, maxStreamsPerSession: 8, maxStreamsPerPerson: 100 },
      log,
    );
    const sink = open('ana', ['t:team', 'o:org']);
    hub.handle('t:team');
    expect(sink.events).toEqual([FRAMES.ready, FRAMES.menu]);
    // Nine more announcements within the burst, several naming two of its scopes.
    for (let i = 0; i < 9; i += 1) {
      vi.advanceTimersByTime(5);
      hub.handle('o:org t:team');
    }
    expect(sink.events).toEqual([FRAMES.ready, FRAMES.menu]);
    vi.advanceTimersByTime(DEFAULT_TIMINGS.coalesceMs);
    expect(sink.events).toEqual([FRAMES.ready, FRAMES.menu, FRAMES.menu]);
    // Quiet after the burst: the next announcement is told at once again.
    vi.advanceTimersByTime(1000);
    hub.handle('o:org');
    expect(sink.events).toEqual([FRAMES.ready, FRAMES.menu, FRAMES.menu, FRAMES.menu]);
  });

  it('tells nothing to a stream whose scopes were not announced', () => {
    hub = new LiveHub(
      { db, live: fakeRepository({}) },
      { maxStreams: 10, maxStreamsPerSession: 8, maxStreamsPerPerson: 100 },
      log,
    );
    const sink = open('ana', ['p:ana', 't:team', 'o:org']);
    hub.handle('t:other o:elsewhere p:bruno te:team oa:org');
    vi.advanceTimersByTime(1000);
    expect(sink.events).toEqual([FRAMES.ready]);
  });

  it('cuts a client that reads nothing instead of buffering for it', () => {
    hub = new LiveHub(
      { db, live: fakeRepository({}) },
      { maxStreams: 10, maxStreamsPerSession: 8, maxStreamsPerPerson: 100 },
      log,
    );
    const sink = open('ana', ['o:org']);
    sink.writableLength = 65 * 1024;
    hub.handle('o:org');
    expect(sink.destroyed).toBe(true);
    expect(hub.size).toBe(0);
  });

  it('reads scopes again after a lost connection and tells every stream', async () => {
    const repository = fakeRepository({ ana: ['p:ana', 't:new'], bruno: ['p:bruno'] });
    hub = new LiveHub(
      { db, live: repository },
      { maxStreams: 10, maxStreamsPerSession: 8, maxStreamsPerPerson: 100 },
      log,
    );
    const ana = open('ana', ['p:ana']);
    const bruno = open('bruno', ['p:bruno']);
    hub.resync();
    await vi.waitFor(() => expect(ana.events).toEqual([FRAMES.ready, FRAMES.menu]));
    expect(bruno.events).toEqual([FRAMES.ready, FRAMES.menu]);
    expect(repository.scopesOf).toHaveBeenCalledTimes(1);
    // Ana's scopes were read anew: she hears her new team now.
    expect(hub.listeners('t:new')).toBe(1);
  });

  it('still tells the streams when their scopes cannot be read', async () => {
    const repository = fakeRepository({});
    repository.scopesOf = vi.fn(async () => {
      throw new Error('the database is away');
    });
    hub = new LiveHub(
      { db, live: repository },
      { maxStreams: 10, maxStreamsPerSession: 8, maxStreamsPerPerson: 100 },
      log,
    );
    const sink = open('ana', ['p:ana']);
    hub.handle('p:ana');
    await vi.waitFor(() => expect(sink.events).toEqual([FRAMES.ready, FRAMES.menu]));
    expect(hub.listeners('p:ana')).toBe(1);
  });

  it("hears a team's space beside the person's scopes while they run it, checked again with them", async () => {
    const repository = fakeRepository({ ana: ['p:ana', 'o:org'] });
    const runs = new Set(['ana team']);
    repository.teamRunners = vi.fn(async () => new Set(runs));
    hub = new LiveHub(
      { db, live: repository },
      { maxStreams: 10, maxStreamsPerSession: 8, maxStreamsPerPerson: 100 },
      log,
    );
    const sink = new FakeSink();
    hub.open(sink, {
      userId: 'ana',
      credential: { kind: 'session', id: 'session-ana' },
      scopes: ['p:ana', 'o:org'],
      team: 'team',
    });
    const portal = open('ana', ['p:ana', 'o:org'], 'session-ana-2');
    expect([hub.listeners('t:team'), hub.listeners('te:team')]).toEqual([1, 1]);
    hub.handle('te:team');
    expect(sink.events).toEqual([FRAMES.ready, FRAMES.menu]);
    expect(portal.events).toEqual([FRAMES.ready]);

    // Her scopes read again while she still runs it: the team stays.
    vi.advanceTimersByTime(1000);
    hub.handle('p:ana');
    await vi.waitFor(() => expect(sink.events).toHaveLength(3));
    expect(repository.teamRunners).toHaveBeenCalledWith(db, [{ userId: 'ana', teamId: 'team' }]);
    expect(hub.listeners('t:team')).toBe(1);

    // The answer cannot be read: the stream keeps what it heard.
    repository.teamRunners = vi.fn(async () => {
      throw new Error('the database is away');
    });
    vi.advanceTimersByTime(1000);
    hub.handle('p:ana');
    await vi.waitFor(() => expect(sink.events).toHaveLength(4));
    expect(hub.listeners('t:team')).toBe(1);

    // No longer running it: the team goes, her own scopes stay.
    repository.teamRunners = vi.fn(async () => new Set<string>());
    vi.advanceTimersByTime(1000);
    hub.handle('p:ana');
    await vi.waitFor(() => expect(sink.events).toHaveLength(5));
    expect([hub.listeners('t:team'), hub.listeners('te:team'), hub.listeners('o:org')]).toEqual([
      0, 0, 2,
    ]);
    vi.advanceTimersByTime(1000);
    hub.handle('t:team te:team');
    vi.advanceTimersByTime(1000);
    expect(sink.events).toHaveLength(5);
  });

  it('answers 404 when live updates are turned off, so that clients stop asking', () => {
    hub = new LiveHub(
      { db, live: fakeRepository({}) },
      { maxStreams: 0, maxStreamsPerSession: 8, maxStreamsPerPerson: 100 },
      log,
    );
    expect(hub.refusal({ kind: 'session', id: 'any' })?.statusCode).toBe(404);
  });

  it('ends every stream and opens none when it closes', () => {
    hub = new LiveHub(
      { db, live: fakeRepository({}) },
      { maxStreams: 10, maxStreamsPerSession: 8, maxStreamsPerPerson: 100 },
      log,
    );
    hub.start();
    const sinks = [open('ana', ['o:org']), open('bruno', ['o:org'])];
    hub.close();
    for (const sink of sinks) expect(sink.ended).toBe(true);
    expect(hub.size).toBe(0);
    expect(hub.refusal({ kind: 'session', id: 'new' })?.statusCode).toBe(503);
    // No timer is left to keep the process up.
    expect(vi.getTimerCount()).toBe(0);
  });
});
