import type { PersonRow } from '@signpost/contract';
import type { Database } from '../../db/client.ts';
import { DirectoryIndex } from './directory-index.ts';
import { listPeople, searchPeers, type ListQuery, type PeerFound } from './directory-queries.ts';
import type { DirectoryRepository, DirectoryStart } from './directory.repository.ts';
import type { NamePlace } from './name-order.ts';

/** A directory nobody used for this long is dropped (and built again when needed). */
export const DIRECTORY_IDLE_MS = 10 * 60_000;
/**
 * A directory older than this is built again (and serves meanwhile): change notes are
 * deleted after a day (`CHANGES_KEPT_HOURS`), so a directory must never fall that far behind.
 */
export const DIRECTORY_REBUILD_MS = 6 * 60 * 60_000;
/** How long a call waits for a directory being built before answering from SQL instead. */
export const BUILD_WAIT_MS = 250;
/** After a failed build, how long calls answer from SQL before a new build is tried. */
export const RETRY_BUILD_MS = 60_000;
/**
 * On a database that does not order `lower(name)` by code point (or whose order the build
 * found to differ from the directory's), how long the organization's calls answer from SQL
 * before the database is asked again.
 */
export const SQL_ORDER_MS = 60 * 60_000;
/** People read per statement while a directory is built. */
const BUILD_CHUNK = 10_000;

/** Every printable ASCII character: the database must lower them as JavaScript does. */
const ASCII = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join('');
const isAscii = (text: string) => /^[\x20-\x7e]*$/.test(text);

interface Directory {
  index: DirectoryIndex;
  /** The snapshot horizon (xid8, as text) the directory is up to date with. */
  horizon: string;
  /** The version of the organization's people (`pe:`) it is up to date with. */
  version: number;
  /** The database lowers ASCII as JavaScript does: the peer search lowers an ASCII query here. */
  asciiLowering: boolean;
  builtAt: number;
  usedAt: number;
  /** A refresh that has not started yet: a call that arrives now may wait for it. */
  pending: Promise<void> | null;
  running: Promise<void> | null;
}

type Entry =
  | { state: 'building'; ready: Promise<Directory | null> }
  | { state: 'ready'; directory: Directory; rebuilding: boolean }
  | { state: 'sql'; until: number };

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

const SNAPSHOT = { isolationLevel: 'repeatable read', accessMode: 'read only' } as const;

/** Who searches peers: the session's person, organization and people version (read with the session). */
export interface Searcher {
  organizationId: string;
  userId: string;
  /** The version of the organization's people (`pe:`, migration 0013); null when not read. */
  peopleVersion: number | null;
}

/** One person of a page of the console's list, and the page's cursor if it ends there. */
export interface ListedPerson {
  row: PersonRow;
  cursor: NamePlace;
}

/**
 * The people directory (decision 0072): per organization, its people in memory
 * (`DirectoryIndex`), built on the first call of either search and kept up to date from
 * the change notes of migration 0008. The peer search and the console's people list read
 * the same directory, each with its own rule of freshness:
 *
 * - the peer search costs no statement while the version of the organization's people,
 *   which the session lookup reads for its route, is one the directory was brought up to
 *   date with (decision 0060);
 * - the console's list asks the database on every call whether anything changed since the
 *   directory's horizon, in the statement that lowers its search (decision 0046).
 *
 * Either way, a change committed before the call is in its answer, whichever server made
 * it. While a directory is being built, or when the database orders otherwise, the call
 * answers null and the caller asks its statement.
 */
export interface PeopleDirectoryDeps {
  db: Database;
  directory: DirectoryRepository;
}

export function createPeopleDirectory({ db, directory: repository }: PeopleDirectoryDeps) {
  const entries = new Map<string, Entry>();

  /** A directory, or null when the database does not order as the directory would. */
  async function build(organizationId: string): Promise<Directory | null> {
    const index = new DirectoryIndex();
    const start = await db.transaction(async (tx): Promise<DirectoryStart | null> => {
      const first = await repository.start(tx, organizationId, ASCII);
      if (!first.codePointOrder) return null;
      index.setTeams(await repository.teams(tx, organizationId));
      // In parts, each kept by column at once, so that only one part's rows are in memory.
      let after: NamePlace | null = null;
      for (;;) {
        const part = await repository.people(tx, organizationId, after, BUILD_CHUNK);
        // The database's order disagrees with the index's: the statements answer instead.
        if (!index.append(part)) return null;
        const last = part.at(-1);
        if (!last || part.length < BUILD_CHUNK) break;
        after = { name: last.sortName, id: last.id };
        await tick();
      }
      return first;
    }, SNAPSHOT);
    if (!start) return null;
    for (const _ of index.listSteps(BUILD_CHUNK)) await tick();
    const now = Date.now();
    return {
      index,
      horizon: start.horizon,
      version: start.version,
      asciiLowering: start.lowered === ASCII.toLowerCase(),
      builtAt: now,
      usedAt: now,
      pending: null,
      running: null,
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
      directory.usedAt = Date.now();
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

  /** Brings a directory up to date with every change noted from its horizon on. */
  async function applyChanges(organizationId: string, directory: Directory): Promise<void> {
    const changes = await repository.changesSince(db, organizationId, directory.horizon);
    if (changes.teams) directory.index.setTeams(changes.teams);
    for (const { noted, person } of changes.people) {
      if (person) directory.index.put(person);
      else directory.index.delete(noted);
    }
    directory.horizon = changes.horizon;
    directory.version = Math.max(directory.version, changes.version);
  }

  /**
   * A refresh that starts after this call: one not started yet is shared, one running may
   * have read its changes before this call's, so another follows it.
   */
  function refresh(organizationId: string, directory: Directory): Promise<void> {
    if (directory.pending) return directory.pending;
    const before = directory.running ?? Promise.resolve();
    const next: Promise<void> = before
      .catch(() => {})
      .then(async () => {
        directory.pending = null;
        directory.running = next;
        try {
          await applyChanges(organizationId, directory);
        } finally {
          if (directory.running === next) directory.running = null;
        }
      });
    directory.pending = next;
    return next;
  }

  /**
   * Brings a directory up to the people version a session read: a refresh under way is
   * shared, and since it read its version in its own snapshot, one that began before the
   * session's lookup and read an older version is followed by another. With no version
   * read, a refresh that starts after the call.
   */
  async function catchUp(organizationId: string, directory: Directory, version: number | null) {
    if (version === null) return refresh(organizationId, directory);
    while (directory.version < version) {
      await (directory.running ?? refresh(organizationId, directory));
    }
  }

  return {
    /**
     * One page of the peer search from the organization's directory, up to date with every
     * change the searcher's session lookup could see, or null when there is none (yet): the
     * caller answers from SQL then. `query` is as typed; it holds no line break (requests
     * refuse control characters), and one with a line break is left to SQL as well.
     */
    async searchPeers(
      me: Searcher,
      query: string,
      offset: number,
      limit: number,
    ): Promise<PeerFound[] | null> {
      if (query.includes('\n')) return null;
      const directory = await directoryOf(me.organizationId);
      if (!directory) return null;
      await catchUp(me.organizationId, directory, me.peopleVersion);
      const lowered =
        query === '' || (directory.asciiLowering && isAscii(query))
          ? query.toLowerCase()
          : await repository.lower(db, query);
      return searchPeers(directory.index, lowered, me.userId, offset, limit);
    },

    /**
     * One page of the console's list from the organization's directory (up to date with
     * every change committed before the call), or null when there is none yet: the caller
     * answers from SQL meanwhile. `query.q` is trimmed, not yet lowered.
     */
    async listPage(
      organizationId: string,
      query: ListQuery,
      teamNames: number,
    ): Promise<ListedPerson[] | null> {
      if (query.q.includes('\n')) return null;
      const directory = await directoryOf(organizationId);
      if (!directory) return null;
      const check = await repository.check(db, organizationId, directory.horizon, query.q);
      if (check.changed) await refresh(organizationId, directory);
      const { index } = directory;
      return listPeople(index, { ...query, q: check.lowered }).map((slot) => ({
        row: index.row(slot, teamNames),
        cursor: index.placeOf(slot),
      }));
    },

    /** Drops the directories nobody used for `DIRECTORY_IDLE_MS`, and old verdicts for SQL. */
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

    /** Deletes change notes older than every directory needs (`CHANGES_KEPT_HOURS`). */
    purgeOldChanges: (): Promise<number> => repository.purgeOldChanges(db),
  };
}

export type PeopleDirectory = ReturnType<typeof createPeopleDirectory>;
