import { sql } from 'drizzle-orm';
import { selectRows, type Database, type Executor } from '../../db/client.ts';
import {
  PeopleIndex,
  type DirectoryPerson,
  type DirectoryTeam,
  type IndexQuery,
} from './people-index.ts';

/** A directory nobody used for this long is dropped (and built again when needed). */
export const DIRECTORY_IDLE_MS = 10 * 60_000;
/**
 * A directory older than this is built again rather than brought up to date: change notes
 * are deleted after `CHANGES_KEPT_HOURS`, so a directory must never fall that far behind.
 */
export const DIRECTORY_REBUILD_MS = 6 * 60 * 60_000;
export const CHANGES_KEPT_HOURS = 24;
/** How long a call waits for a directory being built before answering from SQL instead. */
export const BUILD_WAIT_MS = 250;
/** After a failed build, how long calls answer from SQL before a new build is tried. */
const RETRY_BUILD_MS = 60_000;
/** People handled between two yields to the event loop while a directory is built. */
const BUILD_CHUNK = 10_000;

/** A person's row as read: what the other tables add (teams, single sign-on, second factor) comes apart. */
type PersonSqlRow = Omit<DirectoryPerson, 'hasSso' | 'secondFactor' | 'teamIds'>;

interface Directory {
  index: PeopleIndex;
  /** The snapshot horizon (xid8, as text) the directory is up to date with. */
  horizon: string;
  builtAt: number;
  usedAt: number;
  /** A refresh that has not started yet: a call that arrives now may wait for it. */
  pending: Promise<void> | null;
  running: Promise<void> | null;
}

type Entry =
  | { state: 'building'; ready: Promise<Directory> }
  | { state: 'ready'; directory: Directory }
  | { state: 'failed'; at: number };

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Which people `readPeople` reads: these, or the next ones in name order after a place. */
type Which = { ids: string[] } | { after: { name: string; id: string } | null; limit: number };

/**
 * People of an organization as the list shows them, read in the caller's transaction (one
 * snapshot for the whole directory).
 */
async function readPeople(
  tx: Executor,
  organizationId: string,
  which: Which,
): Promise<DirectoryPerson[]> {
  const only =
    'ids' in which
      ? sql`AND u.id = ANY(${sql.param(which.ids)}::text[])`
      : which.after
        ? sql`AND (u.sort_name, u.id) > (${which.after.name}::text, ${which.after.id}::text)`
        : sql``;
  const order = 'ids' in which ? sql`` : sql`ORDER BY u.sort_name, u.id LIMIT ${which.limit}`;
  const rows = await selectRows<PersonSqlRow>(
    tx,
    // Times as whole milliseconds (dropped, not rounded, as the driver reads a timestamp).
    sql`SELECT u.id, u.name, u.email, u.role, u.status,
               trunc(extract(epoch FROM u.last_sign_in_at) * 1000)::float8 AS "lastSignInAt",
               trunc(extract(epoch FROM u.created_at) * 1000)::float8 AS "createdAt",
               u.password_hash IS NOT NULL AS "hasPassword",
               u.sort_name AS "sortName", u.search_text AS "searchText"
        FROM users u WHERE u.organization_id = ${organizationId} ${only} ${order}`,
  );
  if (rows.length === 0) return [];
  const ids = sql.param(rows.map((r) => r.id));
  const memberships = await selectRows<{ userId: string; teamId: string }>(
    tx,
    sql`SELECT user_id AS "userId", team_id AS "teamId" FROM team_memberships
        WHERE user_id = ANY(${ids}::text[])`,
  );
  const sso = await selectRows<{ userId: string }>(
    tx,
    sql`SELECT DISTINCT user_id AS "userId" FROM identities WHERE user_id = ANY(${ids}::text[])`,
  );
  const factors = await selectRows<{ userId: string }>(
    tx,
    sql`SELECT user_id AS "userId" FROM second_factors
        WHERE user_id = ANY(${ids}::text[]) AND enabled_at IS NOT NULL`,
  );
  const teamsOf = new Map<string, string[]>();
  for (const m of memberships) {
    const list = teamsOf.get(m.userId);
    if (list) list.push(m.teamId);
    else teamsOf.set(m.userId, [m.teamId]);
  }
  const withSso = new Set(sso.map((r) => r.userId));
  const withFactor = new Set(factors.map((r) => r.userId));
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    email: row.email,
    role: row.role,
    status: row.status,
    lastSignInAt: row.lastSignInAt,
    createdAt: row.createdAt,
    hasPassword: row.hasPassword,
    hasSso: withSso.has(row.id),
    secondFactor: withFactor.has(row.id),
    teamIds: teamsOf.get(row.id) ?? [],
    sortName: row.sortName,
    searchText: row.searchText,
  }));
}

async function readTeams(tx: Executor, organizationId: string) {
  const rows = await selectRows<{ id: string; name: string; sortName: string }>(
    tx,
    sql`SELECT id, name, lower(name) AS "sortName" FROM teams
        WHERE organization_id = ${organizationId}`,
  );
  return new Map<string, DirectoryTeam>(
    rows.map((r) => [r.id, { name: r.name, sortName: r.sortName }]),
  );
}

/** The oldest transaction still running when this statement's snapshot was taken. */
async function readHorizon(tx: Executor): Promise<string> {
  const [row] = await selectRows<{ horizon: string }>(
    tx,
    sql`SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS horizon`,
  );
  return row!.horizon;
}

const SNAPSHOT = { isolationLevel: 'repeatable read', accessMode: 'read only' } as const;

/**
 * The console's people directories (decision 0046): per organization, its people in memory
 * (`PeopleIndex`), built when the console first lists them and kept up to date from the
 * database's change notes (migration 0008). Every call first asks the database whether
 * anything changed since the directory's horizon, in the same statement that lowers its
 * search, so a change committed before a call is in its answer, whichever server made it.
 */
export interface PeopleDirectoriesDeps {
  db: Database;
}

export function createPeopleDirectories({ db }: PeopleDirectoriesDeps) {
  const entries = new Map<string, Entry>();

  async function build(organizationId: string): Promise<Directory> {
    const index = new PeopleIndex();
    const horizon = await db.transaction(async (tx) => {
      const seen = await readHorizon(tx);
      index.setTeams(await readTeams(tx, organizationId));
      // In parts, each kept by column at once, so that only one part's rows are in memory.
      let after: { name: string; id: string } | null = null;
      for (;;) {
        const part = await readPeople(tx, organizationId, { after, limit: BUILD_CHUNK });
        index.stage(part);
        const last = part.at(-1);
        if (!last || part.length < BUILD_CHUNK) break;
        after = { name: last.sortName, id: last.id };
        await tick();
      }
      return seen;
    }, SNAPSHOT);
    for (const _ of index.listSteps(BUILD_CHUNK)) await tick();
    const now = Date.now();
    return { index, horizon, builtAt: now, usedAt: now, pending: null, running: null };
  }

  /** Brings a directory up to date with every change from its horizon on. */
  async function applyChanges(organizationId: string, directory: Directory): Promise<void> {
    const changes = await db.transaction(async (tx) => {
      const horizon = await readHorizon(tx);
      const changed = await selectRows<{ userId: string | null }>(
        tx,
        sql`SELECT DISTINCT user_id AS "userId" FROM people_changes
            WHERE organization_id = ${organizationId} AND xid >= ${directory.horizon}::xid8`,
      );
      const ids = changed.flatMap((c) => (c.userId === null ? [] : [c.userId]));
      const teamsChanged = changed.some((c) => c.userId === null);
      return {
        horizon,
        ids,
        teams: teamsChanged ? await readTeams(tx, organizationId) : null,
        people: ids.length > 0 ? await readPeople(tx, organizationId, { ids }) : [],
      };
    }, SNAPSHOT);
    if (changes.teams) directory.index.setTeams(changes.teams);
    const found = new Set<string>();
    for (const person of changes.people) {
      found.add(person.id);
      directory.index.put(person);
    }
    for (const id of changes.ids) if (!found.has(id)) directory.index.delete(id);
    directory.horizon = changes.horizon;
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

  function start(organizationId: string): Promise<Directory> {
    const ready = build(organizationId).then(
      (directory) => {
        entries.set(organizationId, { state: 'ready', directory });
        return directory;
      },
      (error: unknown) => {
        entries.set(organizationId, { state: 'failed', at: Date.now() });
        throw error;
      },
    );
    entries.set(organizationId, { state: 'building', ready });
    return ready;
  }

  /** The organization's directory if it is ready (or becomes so within a short wait), or null. */
  async function directoryOf(organizationId: string): Promise<Directory | null> {
    const entry = entries.get(organizationId);
    if (entry?.state === 'ready') {
      if (Date.now() - entry.directory.builtAt < DIRECTORY_REBUILD_MS) return entry.directory;
    } else if (entry?.state === 'failed' && Date.now() - entry.at < RETRY_BUILD_MS) {
      return null;
    }
    const ready = entry?.state === 'building' ? entry.ready : start(organizationId);
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), BUILD_WAIT_MS);
    });
    try {
      return await Promise.race([ready.catch(() => null), waited]);
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    /**
     * One page of the list from the organization's directory (up to date with every change
     * committed before the call), or null when there is none yet: the caller answers from
     * SQL meanwhile.
     */
    async page(
      organizationId: string,
      query: Omit<IndexQuery, 'q'> & { q: string },
      teamNames: number,
    ) {
      const directory = await directoryOf(organizationId);
      if (!directory) return null;
      directory.usedAt = Date.now();
      const [check] = await selectRows<{ q: string; changed: boolean }>(
        db,
        sql`SELECT lower(${query.q}::text) AS q,
                   EXISTS (SELECT 1 FROM people_changes
                           WHERE organization_id = ${organizationId}
                             AND xid >= ${directory.horizon}::xid8) AS changed`,
      );
      if (check!.changed) await refresh(organizationId, directory);
      const slots = directory.index.page({ ...query, q: check!.q });
      return slots.map((slot) => ({
        row: directory.index.row(slot, teamNames),
        cursor: directory.index.orderOf(slot),
      }));
    },

    /** Drops the directories nobody used for `DIRECTORY_IDLE_MS`, and old failures. */
    sweep(now = Date.now()): void {
      for (const [organizationId, entry] of entries) {
        const idle =
          (entry.state === 'ready' && now - entry.directory.usedAt > DIRECTORY_IDLE_MS) ||
          (entry.state === 'failed' && now - entry.at > RETRY_BUILD_MS);
        if (idle) entries.delete(organizationId);
      }
    },

    /** How many people the organization's directory holds, or null without one (tests). */
    sizeOf(organizationId: string): number | null {
      const entry = entries.get(organizationId);
      return entry?.state === 'ready' ? entry.directory.index.size : null;
    },

    clear(): void {
      entries.clear();
    },

    /** Deletes change notes older than `CHANGES_KEPT_HOURS`; returns how many. */
    purgeOldChanges: (): Promise<number> => purgeOldChanges(db),
  };
}

export type PeopleDirectories = ReturnType<typeof createPeopleDirectories>;

/** Deletes change notes older than `CHANGES_KEPT_HOURS`; returns how many. */
export async function purgeOldChanges(db: Executor): Promise<number> {
  const rows = await selectRows<{ n: number }>(
    db,
    sql`WITH gone AS (DELETE FROM people_changes
                      WHERE changed_at < now() - make_interval(hours => ${CHANGES_KEPT_HOURS})
                      RETURNING 1)
        SELECT count(*)::int AS n FROM gone`,
  );
  return rows[0]?.n ?? 0;
}
