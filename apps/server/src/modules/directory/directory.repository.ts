import { sql } from 'drizzle-orm';
import { selectRows, type Executor } from '../../db/client.ts';
import type { DirectoryPerson, DirectoryTeam } from './directory-index.ts';
import { ordersByCodePoint, type NamePlace } from './name-order.ts';

/** Change notes are deleted after this long (decision 0046); a directory never falls that far behind. */
export const CHANGES_KEPT_HOURS = 24;

/** What a directory's build reads first, in its snapshot. */
export interface DirectoryStart {
  /** The oldest transaction still running when the snapshot was taken (xid8, as text). */
  horizon: string;
  /** The version of the organization's people in the snapshot (`pe:`, migration 0013). */
  version: number;
  /** The database orders `lower(name)` by code point, the directory's order (decision 0072). */
  codePointOrder: boolean;
  /** `probe` lowered by the database. */
  lowered: string;
}

/** A noted person as the snapshot has them: `person` null when they are no longer of the organization. */
export interface NotedPerson {
  noted: string;
  person: DirectoryPerson | null;
}

/** What changed from a horizon on, and the new horizon and version, all of one snapshot. */
export interface DirectoryChanges {
  horizon: string;
  version: number;
  /** The organization's teams, when a note says their names changed; null otherwise. */
  teams: Map<string, DirectoryTeam> | null;
  people: NotedPerson[];
}

/**
 * A person as the directory holds them, from `users u`: what the list shows (times as whole
 * milliseconds, dropped rather than rounded, as the driver reads a timestamp) and the
 * lowered name and e-mail, lowered by the database as its statements lower them.
 */
const PERSON = sql`u.id, u.name, u.email, u.role, u.status,
  trunc(extract(epoch FROM u.last_sign_in_at) * 1000)::float8 AS "lastSignInAt",
  trunc(extract(epoch FROM u.created_at) * 1000)::float8 AS "createdAt",
  u.password_hash IS NOT NULL AS "hasPassword",
  EXISTS (SELECT 1 FROM identities i WHERE i.user_id = u.id) AS "hasSso",
  EXISTS (SELECT 1 FROM second_factors f
          WHERE f.user_id = u.id AND f.enabled_at IS NOT NULL) AS "secondFactor",
  ARRAY(SELECT tm.team_id FROM team_memberships tm WHERE tm.user_id = u.id) AS "teamIds",
  u.sort_name AS "sortName", lower(u.email) AS "lowerEmail"`;

const VERSION = (organizationId: string) =>
  sql`(SELECT max(version) FROM menu_scopes WHERE scope = 'pe:' || ${organizationId})`;

const HORIZON = sql`pg_snapshot_xmin(pg_current_snapshot())::text`;

type TeamRow = { id: string; name: string; sortName: string };

const teamMap = (rows: TeamRow[]) =>
  new Map<string, DirectoryTeam>(rows.map((r) => [r.id, { name: r.name, sortName: r.sortName }]));

/** The reads of the people directory (decision 0072) and the upkeep of its change notes. */
export function createDirectoryRepository() {
  return {
    /**
     * The first statement of a build (in its repeatable-read snapshot): the horizon, the
     * version of the organization's people, whether the database orders `lower(name)` by
     * code point (`pg_database` and the collation of the columns the statements order by;
     * `datlocprovider` is read through JSON, since PostgreSQL before 15 has no such
     * column), and `probe` lowered.
     */
    async start(db: Executor, organizationId: string, probe: string): Promise<DirectoryStart> {
      const [row] = await selectRows<{
        horizon: string;
        version: string | number | null;
        provider: string | null;
        collate: string | null;
        defaultCollation: boolean;
        lowered: string;
      }>(
        db,
        sql`SELECT ${HORIZON} AS horizon, ${VERSION(organizationId)} AS version,
                   d.info ->> 'datlocprovider' AS provider,
                   d.info ->> 'datcollate' AS collate,
                   (SELECT bool_and(a.attcollation = 'pg_catalog.default'::regcollation)
                    FROM pg_attribute a
                    WHERE a.attrelid = 'users'::regclass
                      AND a.attname IN ('name', 'sort_name')) AS "defaultCollation",
                   lower(${probe}::text) AS lowered
            FROM (SELECT to_jsonb(p) AS info FROM pg_database p
                  WHERE p.datname = current_database()) d`,
      );
      if (!row) throw new Error('no row for the current database in pg_database');
      return {
        horizon: row.horizon,
        version: Number(row.version ?? 0),
        codePointOrder: ordersByCodePoint(row),
        lowered: row.lowered,
      };
    },

    async teams(db: Executor, organizationId: string): Promise<Map<string, DirectoryTeam>> {
      return teamMap(
        await selectRows<TeamRow>(
          db,
          sql`SELECT id, name, lower(name) AS "sortName" FROM teams
              WHERE organization_id = ${organizationId}`,
        ),
      );
    },

    /** The next people of the organization (every status) in name order, after a place or from the start. */
    async people(
      db: Executor,
      organizationId: string,
      after: NamePlace | null,
      limit: number,
    ): Promise<DirectoryPerson[]> {
      const from = after
        ? sql`AND (u.sort_name, u.id) > (${after.name}::text, ${after.id}::text)`
        : sql``;
      return selectRows<DirectoryPerson>(
        db,
        sql`SELECT ${PERSON} FROM users u
            WHERE u.organization_id = ${organizationId} ${from}
            ORDER BY u.sort_name, u.id LIMIT ${limit}`,
      );
    },

    /**
     * In one statement (so one snapshot): the horizon and people version now, each person
     * noted in `people_changes` from `horizon` on, as a person of the organization or as
     * gone, and the organization's teams when a note says their names changed.
     */
    async changesSince(
      db: Executor,
      organizationId: string,
      horizon: string,
    ): Promise<DirectoryChanges> {
      const [row] = await selectRows<{
        horizon: string;
        version: string | number | null;
        teams: TeamRow[] | null;
        people: (DirectoryPerson & { noted: string; id: string | null })[] | null;
      }>(
        db,
        sql`WITH noted AS (
              SELECT DISTINCT user_id FROM people_changes
              WHERE organization_id = ${organizationId} AND xid >= ${horizon}::xid8
            ),
            people AS (
              SELECT n.user_id AS noted, ${PERSON}
              FROM noted n LEFT JOIN users u
                ON u.id = n.user_id AND u.organization_id = ${organizationId}
              WHERE n.user_id IS NOT NULL
            )
            SELECT ${HORIZON} AS horizon, ${VERSION(organizationId)} AS version,
                   CASE WHEN EXISTS (SELECT 1 FROM noted WHERE user_id IS NULL) THEN
                     (SELECT coalesce(json_agg(json_build_object(
                               'id', t.id, 'name', t.name, 'sortName', lower(t.name))), '[]')
                      FROM teams t WHERE t.organization_id = ${organizationId})
                   END AS teams,
                   (SELECT json_agg(p) FROM people p) AS people`,
      );
      return {
        horizon: row!.horizon,
        version: Number(row!.version ?? 0),
        teams: row!.teams ? teamMap(row!.teams) : null,
        people: (row!.people ?? []).map(({ noted, ...person }) => ({
          noted,
          person: person.id === null ? null : { ...person, id: person.id },
        })),
      };
    },

    /**
     * The query lowered by the database, and whether any change of the organization was
     * noted from `horizon` on: the one statement of a call of the console's list.
     */
    async check(
      db: Executor,
      organizationId: string,
      horizon: string,
      query: string,
    ): Promise<{ lowered: string; changed: boolean }> {
      const [row] = await selectRows<{ lowered: string; changed: boolean }>(
        db,
        sql`SELECT lower(${query}::text) AS lowered,
                   EXISTS (SELECT 1 FROM people_changes
                           WHERE organization_id = ${organizationId}
                             AND xid >= ${horizon}::xid8) AS changed`,
      );
      return row!;
    },

    /** `text` lowered by the database, as the statements lower their query. */
    async lower(db: Executor, text: string): Promise<string> {
      const [row] = await selectRows<{ lowered: string }>(
        db,
        sql`SELECT lower(${text}::text) AS lowered`,
      );
      return row!.lowered;
    },

    /** Deletes change notes older than `CHANGES_KEPT_HOURS`; returns how many. */
    async purgeOldChanges(db: Executor): Promise<number> {
      const rows = await selectRows<{ n: number }>(
        db,
        sql`WITH gone AS (DELETE FROM people_changes
                          WHERE changed_at < now() - make_interval(hours => ${CHANGES_KEPT_HOURS})
                          RETURNING 1)
            SELECT count(*)::int AS n FROM gone`,
      );
      return rows[0]?.n ?? 0;
    },
  };
}
export type DirectoryRepository = ReturnType<typeof createDirectoryRepository>;
