import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../../lib/errors.ts';
import type { Database } from '../../db/client.ts';
import type { InstanceRegistry } from '../../jobs/instances.ts';
import type { LiveRepository } from './live.repository.ts';
import type { Credential } from './live.types.ts';

/**
 * The frames a stream carries (decision 0062). No frame says what changed or whose change it
 * was: `menu` only asks the client to read its menu again, with its ETag.
 */
export const FRAMES = {
  /** The stream is open: refetch once, since something may have changed before it was. */
  ready: 'event: ready\ndata:\n\n',
  /** Something in the person's menu changed. */
  menu: 'event: menu\ndata:\n\n',
  /** The session or token ended (signed out, revoked, expired, the person disabled): stop. */
  ended: 'event: session-ended\ndata:\n\n',
  /** A comment, so that proxies and the server's own idle limit keep the connection. */
  keepAlive: ':\n\n',
} as const;

/** Where a stream's frames go: the HTTP response (after the reply was hijacked). */
export interface Sink {
  write(chunk: string): unknown;
  end(): unknown;
  destroy(): unknown;
  readonly writableLength: number;
}

export interface HubLimits {
  /** Open streams on this instance (what one process can hold); more are refused with 503. */
  maxStreams: number;
  /**
   * Open streams of one session or token (its tabs), across every instance (decision 0082);
   * more are refused with 429.
   */
  maxStreamsPerSession: number;
  /** Open streams of one person, all their sessions, across every instance; 429 beyond. */
  maxStreamsPerPerson: number;
}

export interface HubTimings {
  /** A stream is told at most once per this many milliseconds; a burst becomes one frame. */
  coalesceMs: number;
  keepAliveMs: number;
  /** How often every open stream's session is checked. */
  sessionCheckMs: number;
}

export const DEFAULT_TIMINGS: HubTimings = {
  coalesceMs: 100,
  keepAliveMs: 25_000,
  sessionCheckMs: 60_000,
};

/** A client that reads nothing gets no more than this buffered before it is cut. */
const MAX_BUFFERED_BYTES = 64 * 1024;
/** People whose scopes are read again in one statement. */
const REREAD_BATCH = 500;
/** Credentials checked in one statement. */
const CHECK_BATCH = 1000;

/**
 * One open stream: a tab of a signed-in person. Kept small: there may be 10,000 of them.
 * `team`: the team whose space it shows in the console (decision 0077), heard besides the
 * person's own scopes while they run it.
 */
class Stream {
  scopes: string[] = [];
  lastSent = 0;
  pending = false;
  closed = false;
  constructor(
    readonly sink: Sink,
    readonly userId: string,
    readonly credential: Credential,
    readonly team: string | null,
    /** Its row among the streams of every instance; null without the registry. */
    readonly counted: string | null,
  ) {}
}

/** The scopes of a team's space as its editors see it: its content, its open suggestions. */
export const teamSpaceScopes = (teamId: string) => [`t:${teamId}`, `te:${teamId}`];

const runnerKey = (userId: string, teamId: string) => `${userId} ${teamId}`;

const credentialKey = (credential: Credential) =>
  `${credential.kind === 'session' ? 's' : 't'}:${credential.id}`;

/** Kinds of scope whose change can change who sees what (memberships, roles, shares). */
const MEMBERSHIP_KINDS = new Set(['p', 's', 'e']);

/**
 * The streams of one server instance, by the scopes their people see (decision 0062). The
 * database announces the scopes a transaction changed; the hub tells exactly the streams
 * whose person sees one of them, at most once per burst, and reads a person's scopes again
 * when an announcement may have changed them.
 */
export class LiveHub {
  private readonly all = new Set<Stream>();
  private readonly byScope = new Map<string, Set<Stream>>();
  private readonly byUser = new Map<string, Set<Stream>>();
  private readonly byCredential = new Map<string, Set<Stream>>();
  private readonly pending = new Set<Stream>();
  private flushTimer: NodeJS.Timeout | null = null;
  private readonly rereads = new Set<string>();
  private rereading = false;
  private checking: Promise<void> | null = null;
  private checkSoonTimer: NodeJS.Timeout | null = null;
  private keepAliveTimer: NodeJS.Timeout | null = null;
  private sessionTimer: NodeJS.Timeout | null = null;
  private closing = false;

  private readonly db: Database;
  private readonly repository: LiveRepository;

  constructor(
    { db, live }: { db: Database; live: LiveRepository },
    private readonly limits: HubLimits,
    private readonly log: FastifyBaseLogger,
    private readonly timings: HubTimings = DEFAULT_TIMINGS,
    private readonly instances: InstanceRegistry | null = null,
  ) {
    this.db = db;
    this.repository = live;
  }

  /** Starts the keep-alive comments and the periodic session check. */
  start(): void {
    this.closing = false;
    this.keepAliveTimer ??= setInterval(() => this.keepAlive(), this.timings.keepAliveMs);
    this.keepAliveTimer.unref();
    this.sessionTimer ??= setInterval(() => void this.checkSessions(), this.timings.sessionCheckMs);
    this.sessionTimer.unref();
  }

  /** Open streams on this instance. */
  get size(): number {
    return this.all.size;
  }

  /** Open streams that hear a scope (tests). */
  listeners(scope: string): number {
    return this.byScope.get(scope)?.size ?? 0;
  }

  /** Why a new stream of this credential cannot open now, or null when it can. */
  refusal(credential: Credential): AppError | null {
    // Turned off (LIVE_MAX_STREAMS=0): the web app stops asking on a 404.
    if (this.limits.maxStreams === 0) {
      return new AppError(404, 'NOT_FOUND', 'Live updates are turned off on this server.');
    }
    if (this.closing) {
      return new AppError(503, 'RATE_LIMITED', 'This server is shutting down; try again.', {
        'Retry-After': '5',
      });
    }
    if (this.all.size >= this.limits.maxStreams) {
      return new AppError(
        503,
        'RATE_LIMITED',
        'This server has as many live update streams open as it allows; try again later.',
        { 'Retry-After': '30' },
      );
    }
    const mine = this.byCredential.get(credentialKey(credential))?.size ?? 0;
    if (mine >= this.limits.maxStreamsPerSession) {
      return new AppError(
        429,
        'RATE_LIMITED',
        `This session has ${this.limits.maxStreamsPerSession} live update streams open; ` +
          'close a tab of the portal to open another.',
      );
    }
    return null;
  }

  /**
   * Whether a new stream may open, and if so its place among the streams of every instance:
   * this instance's own limits first, then the caps per session and per person, counted
   * across all instances (decision 0082). Throws the refusal; answers the place's id (null
   * without the registry, where only this instance's streams count).
   */
  async admit(userId: string, credential: Credential): Promise<string | null> {
    const refusal = this.refusal(credential);
    if (refusal) throw refusal;
    if (!this.instances) return null;
    const answer = await this.instances.admitStream(userId, credentialKey(credential), {
      perPerson: this.limits.maxStreamsPerPerson,
      perSession: this.limits.maxStreamsPerSession,
    });
    if (answer.admitted) return answer.id;
    throw new AppError(
      429,
      'RATE_LIMITED',
      answer.over === 'session'
        ? `This session has ${answer.cap} live update streams open; close a tab of the portal to open another.`
        : `You have ${answer.cap} live update streams open, on all your devices; close a tab of the portal to open another.`,
    );
  }

  /**
   * Opens a stream on a sink whose headers are sent; the caller was admitted first. With
   * `team`, the stream also hears that team's space: the caller checked that the person runs
   * it (an administrator, or an editor of the team), and each time the person's scopes are
   * read again it is checked again, the team heard only while they still do.
   */
  open(
    sink: Sink,
    person: { userId: string; credential: Credential; scopes: string[]; team?: string },
    counted: string | null = null,
  ) {
    const team = person.team ?? null;
    const stream = new Stream(sink, person.userId, person.credential, team, counted);
    this.all.add(stream);
    addTo(this.byUser, person.userId, stream);
    addTo(this.byCredential, credentialKey(person.credential), stream);
    this.subscribe(stream, team ? [...person.scopes, ...teamSpaceScopes(team)] : person.scopes);
    this.write(stream, FRAMES.ready);
    return { close: () => this.remove(stream) };
  }

  /** One announcement of the database: the scope keys a transaction changed. */
  handle(payload: string): void {
    if (this.all.size === 0) return;
    const rereads = new Set<string>();
    const shares: string[] = [];
    for (const scope of payload.split(' ')) {
      const colon = scope.indexOf(':');
      if (colon <= 0) continue;
      const kind = scope.slice(0, colon);
      if (kind === 's') shares.push(scope.slice(colon + 1));
      const streams = this.byScope.get(scope);
      if (!streams) continue;
      const membership = MEMBERSHIP_KINDS.has(kind);
      for (const stream of streams) {
        if (membership) rereads.add(stream.userId);
        else this.notify(stream);
      }
    }
    this.reread(rereads);
    // Someone just added to a share does not hear its scope yet: the share's people are
    // looked up, and those with a stream here read their scopes again.
    if (shares.length > 0) {
      this.repository.peopleOfShares(this.db, shares).then(
        (people) =>
          this.reread(people.filter((userId) => this.byUser.has(userId) && !rereads.has(userId))),
        (error: unknown) => this.log.warn({ err: error }, 'live updates: reading shares failed'),
      );
    }
  }

  /**
   * Announcements may have been missed (the LISTEN connection was down): every stream reads
   * its scopes again and refetches.
   */
  resync(): void {
    this.reread(this.byUser.keys());
  }

  /** Ends the streams whose session or token is no longer live. */
  checkSessions(): Promise<void> {
    this.checking ??= this.runSessionCheck().finally(() => {
      this.checking = null;
    });
    return this.checking;
  }

  /** A write that may have ended sessions was answered here: check them shortly. */
  checkSessionsSoon(): void {
    if (this.checkSoonTimer || this.all.size === 0) return;
    this.checkSoonTimer = setTimeout(() => {
      this.checkSoonTimer = null;
      void this.checkSessions();
    }, 50);
    this.checkSoonTimer.unref();
  }

  /**
   * Shutdown: no new stream opens, and every open one ends now (its client reconnects, to
   * another instance or to this one once it is back), so that closing the server never
   * waits on them.
   */
  close(): void {
    this.closing = true;
    for (const timer of [this.keepAliveTimer, this.sessionTimer]) {
      if (timer) clearInterval(timer);
    }
    for (const timer of [this.flushTimer, this.checkSoonTimer]) {
      if (timer) clearTimeout(timer);
    }
    this.keepAliveTimer = this.sessionTimer = this.flushTimer = this.checkSoonTimer = null;
    for (const stream of [...this.all]) this.end(stream, null);
  }

  private subscribe(stream: Stream, scopes: string[]): void {
    const next = new Set(scopes);
    for (const scope of stream.scopes) {
      if (!next.has(scope)) removeFrom(this.byScope, scope, stream);
    }
    for (const scope of next) addTo(this.byScope, scope, stream);
    stream.scopes = [...next];
  }

  private remove(stream: Stream): void {
    if (stream.closed) return;
    stream.closed = true;
    this.all.delete(stream);
    this.pending.delete(stream);
    for (const scope of stream.scopes) removeFrom(this.byScope, scope, stream);
    removeFrom(this.byUser, stream.userId, stream);
    removeFrom(this.byCredential, credentialKey(stream.credential), stream);
    if (stream.counted) this.instances?.streamClosed(stream.counted);
  }

  /** Ends a stream, after a last frame when there is one. */
  private end(stream: Stream, frame: string | null): void {
    if (stream.closed) return;
    if (frame) this.write(stream, frame);
    this.remove(stream);
    stream.sink.end();
  }

  private write(stream: Stream, frame: string): void {
    if (stream.closed) return;
    // A client that does not read is cut rather than buffered for without end.
    if (stream.sink.writableLength > MAX_BUFFERED_BYTES) {
      this.remove(stream);
      stream.sink.destroy();
      return;
    }
    stream.sink.write(frame);
  }

  /** Tells a stream its menu changed: at once, or at the end of the current burst. */
  private notify(stream: Stream): void {
    if (stream.closed || stream.pending) return;
    const now = Date.now();
    if (now - stream.lastSent >= this.timings.coalesceMs) {
      stream.lastSent = now;
      this.write(stream, FRAMES.menu);
      return;
    }
    stream.pending = true;
    this.pending.add(stream);
    this.flushTimer ??= setTimeout(() => this.flush(), this.timings.coalesceMs);
  }

  private flush(): void {
    this.flushTimer = null;
    const now = Date.now();
    for (const stream of this.pending) {
      stream.pending = false;
      stream.lastSent = now;
      this.write(stream, FRAMES.menu);
    }
    this.pending.clear();
  }

  private keepAlive(): void {
    for (const stream of this.all) this.write(stream, FRAMES.keepAlive);
  }

  /** Reads the scopes of these people again, in batches, then tells their streams. */
  private reread(userIds: Iterable<string>): void {
    for (const userId of userIds) this.rereads.add(userId);
    this.kickRereads();
  }

  private kickRereads(): void {
    if (this.rereading || this.rereads.size === 0 || this.closing) return;
    this.rereading = true;
    void this.runRereads().finally(() => {
      this.rereading = false;
      this.kickRereads();
    });
  }

  private async runRereads(): Promise<void> {
    while (this.rereads.size > 0 && !this.closing) {
      const batch: string[] = [];
      for (const userId of this.rereads) {
        batch.push(userId);
        this.rereads.delete(userId);
        if (batch.length === REREAD_BATCH) break;
      }
      let scopes: Map<string, string[]> | null = null;
      try {
        scopes = await this.repository.scopesOf(this.db, batch);
      } catch (error) {
        this.log.warn({ err: error }, 'live updates: reading scopes failed');
      }
      const runners = scopes ? await this.runnersOf(batch) : null;
      for (const userId of batch) {
        const streams = this.byUser.get(userId);
        if (!streams) continue;
        const keys = scopes?.get(userId);
        for (const stream of [...streams]) {
          if (scopes && !keys) {
            // No longer active (disabled, deleted): their sessions are over.
            this.end(stream, FRAMES.ended);
            continue;
          }
          // Unread (the database failed), the stream keeps its scopes and refetches anyway.
          if (keys) this.subscribe(stream, [...keys, ...this.teamScopesOf(stream, runners)]);
          this.notify(stream);
        }
      }
    }
  }

  /**
   * Which of these people still run the team their console streams show ("person team"
   * keys); null when that could not be read.
   */
  private async runnersOf(userIds: string[]): Promise<Set<string> | null> {
    const watching: { userId: string; teamId: string }[] = [];
    for (const userId of userIds) {
      for (const stream of this.byUser.get(userId) ?? []) {
        if (stream.team) watching.push({ userId, teamId: stream.team });
      }
    }
    if (watching.length === 0) return new Set();
    try {
      return await this.repository.teamRunners(this.db, watching);
    } catch (error) {
      this.log.warn({ err: error }, 'live updates: reading who runs a team failed');
      return null;
    }
  }

  /**
   * The team space scopes a stream hears besides its person's own: its team's while they
   * run it; unread (the database failed), the ones it had.
   */
  private teamScopesOf(stream: Stream, runners: Set<string> | null): string[] {
    const team = stream.team;
    if (!team) return [];
    const scopes = teamSpaceScopes(team);
    if (!runners) return stream.scopes.filter((scope) => scopes.includes(scope));
    return runners.has(runnerKey(stream.userId, team)) ? scopes : [];
  }

  private async runSessionCheck(): Promise<void> {
    const credentials = new Map<string, Credential>();
    for (const stream of this.all) {
      credentials.set(credentialKey(stream.credential), stream.credential);
    }
    const list = [...credentials.entries()];
    for (let start = 0; start < list.length && !this.closing; start += CHECK_BATCH) {
      const chunk = list.slice(start, start + CHECK_BATCH);
      let live: Set<string>;
      try {
        live = await this.repository.liveCredentials(
          this.db,
          chunk.map(([, credential]) => credential),
        );
      } catch (error) {
        // The database is away: streams stay open until it answers again.
        this.log.warn({ err: error }, 'live updates: checking sessions failed');
        return;
      }
      for (const [key, credential] of chunk) {
        if (live.has(credential.id)) continue;
        for (const stream of [...(this.byCredential.get(key) ?? [])]) {
          this.end(stream, FRAMES.ended);
        }
      }
    }
  }
}

function addTo<K, V>(map: Map<K, Set<V>>, key: K, value: V): void {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  set.add(value);
}

function removeFrom<K, V>(map: Map<K, Set<V>>, key: K, value: V): void {
  const set = map.get(key);
  if (!set) return;
  set.delete(value);
  if (set.size === 0) map.delete(key);
}
