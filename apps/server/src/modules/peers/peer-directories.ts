import type { Database } from '../../db/client.ts';
import { PeerIndex, type PeerFound } from './peer-index.ts';
import type { PeersRepository } from './peers.repository.ts';

/** A directory nobody searched for this long is dropped (and built again when needed). */
export const DIRECTORY_IDLE_MS = 10 * 60_000;
/**
 * A directory older than this is built again (and serves meanwhile): change notes are
 * deleted after a day (decision 0046), so a directory must never fall that far behind.
 */
export const DIRECTORY_REBUILD_MS = 6 * 60 * 60_000;
/** How long a search waits for a directory being built before answering from SQL instead. */
export const BUILD_WAIT_MS = 250;
/** After a failed build, how long searches answer from SQL before a new build is tried. */
export const RETRY_BUILD_MS = 60_000;
/**
 * On a database that does not order `lower(name)` by code point (or whose order the build
 * found to differ from the directory's), how long the organization's searches answer from
 * SQL before the database is asked again.
 */
export const SQL_ORDER_MS = 60 * 60_000;
/** People read per statement while a directory is built. */
const BUILD_CHUNK = 10_000;

/** Every printable ASCII character: the database must lower them as JavaScript does. */
const ASCII = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join('');
const isAscii = (text: string) => /^[\x20-\x7e]*$/.test(text);

interface Directory {
  index: PeerIndex;
  /** The snapshot horizon (xid8, as text) the directory is up to date with. */
  horizon: string;
  /** The version of the organization's people (`pe:`) it is up to date with. */
  version: number;
  /** The database lowers ASCII as JavaScript does: an ASCII query is lowered here. */
  asciiLowering: boolean;
  builtAt: number;
  usedAt: number;
  refreshing: Promise<void> | null;
}

type Entry =
  | { state: 'building'; ready: Promise<Directory | null> }
  | { state: 'ready'; directory: Directory; rebuilding: boolean }
  | { state: 'sql'; until: number };

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Who searches: the session's person, organization and people version (read with the session). */
export interface Searcher {
  organizationId: string;
  userId: string;
  /** The version of the organization's people (`pe:`, migration 0013); null when not read. */
  peopleVersion: number | null;
}

/**
 * The peer directories (decision 0060): per organization, its active people in memory
 * (`PeerIndex`), built on its first search and kept up to date from the change notes of
 * migration 0008 (decision 0046).
 *
 * A search costs no statement of its own while the version of the organization's people,
 * which the session lookup reads for this route, is the one the directory was brought up to
 * date with: every addition, deletion and change of a person's name, e-mail or status raises
 * that version when it commits (the `pe:` scope of migration 0013), in the same transaction,
 * and it only grows. A search that brings a higher version first reads, in one statement,
 * the people noted since the directory's horizon and the version of the same snapshot.
 */
export interface PeerDirectoriesDeps {
  db: Database;
  peers: PeersRepository;
}

export function createPeerDirectories({ db, peers: repository }: PeerDirectoriesDeps) {
  const entries = new Map<string, Entry>();

  /** A directory, or null when the database does not order as the directory would. */
  async function build(organizationId: string): Promise<Directory | null> {
    const index = new PeerIndex();
    const start = await db.transaction(
      async (tx) => {
        const first = await repository.directoryStart(tx, organizationId, ASCII);
        if (!first.codePointOrder) return null;
        let after: { sortName: string; id: string } | null = null;
        for (;;) {
          const part = await repository.activePeople(tx, organizationId, after, BUILD_CHUNK);
          // The database's order disagrees with the index's: the statement answers instead.
          if (!index.append(part)) return null;
          const last = part.at(-1);
          if (!last || part.length < BUILD_CHUNK) break;
          after = last;
          await tick();
        }
        return first;
      },
      { isolationLevel: 'repeatable read', accessMode: 'read only' },
    );
    if (!start) return null;
    for (const _ of index.listSteps()) await tick();
    const now = Date.now();
    return {
      index,
      horizon: start.horizon,
      version: start.version,
      asciiLowering: start.lowered === ASCII.toLowerCase(),
      builtAt: now,
      usedAt: now,
      refreshing: null,
    };
  }

  const readyOr = (directory: Directory | null): Entry =>
    directory
      ? { state: 'ready', directory, rebuilding: false }
      : { state: 'sql', until: Date.now() + SQL_ORDER_MS };

  function start(organizationId: string): Promise<Directory | null> {
    const ready = build(organizationId).then(
      (directory) => {
        entries.set(organizationId, readyOr(directory));
        return directory;
      },
      () => {
        entries.set(organizationId, { state: 'sql', until: Date.now() + RETRY_BUILD_MS });
        return null;
      },
    );
    entries.set(organizationId, { state: 'building', ready });
    return ready;
  }

  /** Builds a directory again while the old one serves; keeps the old one if that fails. */
  function rebuild(organizationId: string, entry: Entry & { state: 'ready' }) {
    entry.rebuilding = true;
    build(organizationId).then(
      (directory) => {
        if (entries.get(organizationId) === entry) entries.set(organizationId, readyOr(directory));
      },
      () => {
        entry.rebuilding = false;
        entry.directory.builtAt = Date.now();
      },
    );
  }

  /** The organization's directory if it is ready (or becomes so within a short wait), or null. */
  async function directoryOf(organizationId: string): Promise<Directory | null> {
    const entry = entries.get(organizationId);
    if (entry?.state === 'ready') {
      const { directory } = entry;
      if (!entry.rebuilding && Date.now() - directory.builtAt >= DIRECTORY_REBUILD_MS) {
        rebuild(organizationId, entry);
      }
      return directory;
    }
    if (entry?.state === 'sql' && Date.now() < entry.until) return null;
    const ready = entry?.state === 'building' ? entry.ready : start(organizationId);
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), BUILD_WAIT_MS);
    });
    try {
      return await Promise.race([ready, waited]);
    } finally {
      clearTimeout(timer);
    }
  }

  async function applyChanges(organizationId: string, directory: Directory): Promise<void> {
    const changes = await repository.changesSince(db, organizationId, directory.horizon);
    for (const person of changes.people) {
      if (person.id === null) directory.index.delete(person.noted);
      else directory.index.put({ ...person, id: person.id });
    }
    directory.horizon = changes.horizon;
    directory.version = Math.max(directory.version, changes.version);
  }

  /** Brings a directory up to `version`: one refresh at a time, shared by the searches waiting. */
  async function catchUp(organizationId: string, directory: Directory, version: number) {
    // A refresh read its version in its own snapshot: one that started before the searcher's
    // session lookup may have read an older one, and then another follows.
    while (directory.version < version) {
      directory.refreshing ??= applyChanges(organizationId, directory).finally(() => {
        directory.refreshing = null;
      });
      await directory.refreshing;
    }
  }

  return {
    /**
     * One page of the search from the organization's directory, up to date with every
     * change the searcher's session lookup could see, or null when there is none (yet): the
     * caller answers from SQL then. `query` is as typed; it holds no line break (the route
     * refuses control characters), and one with a line break is left to SQL as well.
     */
    async search(
      me: Searcher,
      query: string,
      offset: number,
      limit: number,
    ): Promise<PeerFound[] | null> {
      if (query.includes('\n')) return null;
      const directory = await directoryOf(me.organizationId);
      if (!directory) return null;
      directory.usedAt = Date.now();
      await catchUp(me.organizationId, directory, me.peopleVersion ?? Number.MAX_SAFE_INTEGER);
      const lowered =
        query === '' || (directory.asciiLowering && isAscii(query))
          ? query.toLowerCase()
          : await repository.lower(db, query);
      return directory.index.search(lowered, me.userId, offset, limit);
    },

    /** Drops the directories nobody searched for `DIRECTORY_IDLE_MS`, and old verdicts for SQL. */
    sweep(now = Date.now()): void {
      for (const [organizationId, entry] of entries) {
        const idle =
          (entry.state === 'ready' && now - entry.directory.usedAt > DIRECTORY_IDLE_MS) ||
          (entry.state === 'sql' && now >= entry.until);
        if (idle) entries.delete(organizationId);
      }
    },

    /** How many people the organization's directory holds, or null without one (tests). */
    sizeOf(organizationId: string): number | null {
      const entry = entries.get(organizationId);
      return entry?.state === 'ready' ? entry.directory.index.size : null;
    },

    /** Waits for the organization's directory to be built, if one is being built (tests). */
    async ready(organizationId: string): Promise<void> {
      const entry = entries.get(organizationId);
      if (entry?.state === 'building') await entry.ready;
    },

    clear(): void {
      entries.clear();
    },
  };
}

export type PeerDirectories = ReturnType<typeof createPeerDirectories>;
