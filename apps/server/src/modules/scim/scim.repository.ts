import { sql, type SQL } from 'drizzle-orm';
import { selectRows, type Executor } from '../../db/client.ts';
import type { ScimGroupRow, ScimUserRow } from './scim-resources.ts';

export interface ScimTokenRecord {
  tokenId: string;
  organizationId: string;
  name: string;
  lastUsedAt: Date | null;
}

export interface ScimTokenRow {
  id: string;
  name: string;
  tokenHint: string;
  createdByName: string;
  createdAt: Date | string;
  lastUsedAt: Date | string | null;
}

const USER = sql`u.id, u.name, u.email, u.status, u.scim_user_name AS "scimUserName",
  u.external_id AS "externalId", u.scim_attributes AS "attributes",
  u.scim_disabled_at IS NOT NULL AS "scimDisabled",
  u.created_at AS "createdAt", u.updated_at AS "updatedAt"`;

/** A person's SCIM `userName`, as the unique index compares it. */
const USER_NAME = sql`lower(coalesce(u.scim_user_name, u.email))`;

/** The members SCIM made, in name order, as JSON. */
const MEMBERS = sql`coalesce((
  SELECT json_agg(json_build_object('id', mu.id, 'name', mu.name) ORDER BY mu.sort_name, mu.id)
  FROM team_memberships m JOIN users mu ON mu.id = m.user_id
  WHERE m.team_id = t.id AND m.from_scim AND mu.scim_deleted_at IS NULL), '[]'::json)`;

const groupColumns = (withMembers: boolean) =>
  sql`t.id, t.name, t.external_id AS "externalId", t.created_at AS "createdAt",
      t.updated_at AS "updatedAt", ${withMembers ? MEMBERS : sql`NULL::json`} AS members`;

/** SQL of SCIM: its tokens, and people and teams as the identity system sees them. */
export function createScimRepository() {
  return {
    /** The live token of a hash and its organization, or null. */
    async findLiveToken(db: Executor, tokenHash: string): Promise<ScimTokenRecord | null> {
      const rows = await selectRows<ScimTokenRecord>(
        db,
        sql`SELECT id AS "tokenId", organization_id AS "organizationId", name,
                   last_used_at AS "lastUsedAt"
            FROM scim_tokens WHERE token_hash = ${tokenHash} AND revoked_at IS NULL`,
      );
      const row = rows[0];
      return row ? { ...row, lastUsedAt: row.lastUsedAt ? new Date(row.lastUsedAt) : null } : null;
    },

    async touchToken(db: Executor, tokenId: string): Promise<void> {
      await db.execute(sql`UPDATE scim_tokens SET last_used_at = now() WHERE id = ${tokenId}`);
    },

    async insertToken(
      db: Executor,
      values: {
        id: string;
        organizationId: string;
        name: string;
        tokenHash: string;
        tokenHint: string;
        createdBy: string;
        createdByName: string;
      },
    ): Promise<ScimTokenRow> {
      const rows = await selectRows<ScimTokenRow>(
        db,
        sql`INSERT INTO scim_tokens (id, organization_id, name, token_hash, token_hint,
                                     created_by, created_by_name)
            VALUES (${values.id}, ${values.organizationId}, ${values.name}, ${values.tokenHash},
                    ${values.tokenHint}, ${values.createdBy}, ${values.createdByName})
            RETURNING id, name, token_hint AS "tokenHint", created_by_name AS "createdByName",
                      created_at AS "createdAt", last_used_at AS "lastUsedAt"`,
      );
      return rows[0]!;
    },

    /** The organization's live tokens, newest first. */
    async listTokens(db: Executor, organizationId: string): Promise<ScimTokenRow[]> {
      return selectRows<ScimTokenRow>(
        db,
        sql`SELECT id, name, token_hint AS "tokenHint", created_by_name AS "createdByName",
                   created_at AS "createdAt", last_used_at AS "lastUsedAt"
            FROM scim_tokens WHERE organization_id = ${organizationId} AND revoked_at IS NULL
            ORDER BY created_at DESC, id DESC`,
      );
    },

    /** Revokes a live token of the organization; its name, or null when there is none. */
    async revokeToken(db: Executor, organizationId: string, id: string) {
      const rows = await selectRows<{ name: string }>(
        db,
        sql`UPDATE scim_tokens SET revoked_at = now()
            WHERE id = ${id} AND organization_id = ${organizationId} AND revoked_at IS NULL
            RETURNING name`,
      );
      return rows[0] ?? null;
    },

    /** How many people match a condition on `u` (SCIM-deleted ones are not resources). */
    async countUsers(db: Executor, organizationId: string, where: SQL): Promise<number> {
      const rows = await selectRows<{ n: number }>(
        db,
        sql`SELECT count(*)::int AS n FROM users u
            WHERE u.organization_id = ${organizationId} AND u.scim_deleted_at IS NULL AND ${where}`,
      );
      return rows[0]?.n ?? 0;
    },

    /** A page of the people matching a condition, oldest first. */
    async listUsers(
      db: Executor,
      organizationId: string,
      where: SQL,
      offset: number,
      limit: number,
    ): Promise<ScimUserRow[]> {
      return selectRows<ScimUserRow>(
        db,
        sql`SELECT ${USER} FROM users u
            WHERE u.organization_id = ${organizationId} AND u.scim_deleted_at IS NULL AND ${where}
            ORDER BY u.created_at, u.id OFFSET ${offset} LIMIT ${limit}`,
      );
    },

    /** A person as a User (SCIM-deleted ones are not), locked until the transaction ends when asked. */
    async findUser(
      db: Executor,
      organizationId: string,
      id: string,
      lock = false,
    ): Promise<ScimUserRow | null> {
      const rows = await selectRows<ScimUserRow>(
        db,
        sql`SELECT ${USER} FROM users u
            WHERE u.organization_id = ${organizationId} AND u.id = ${id}
              AND u.scim_deleted_at IS NULL ${lock ? sql`FOR UPDATE` : sql``}`,
      );
      return rows[0] ?? null;
    },

    /**
     * Whoever answers to a `userName` in the organization, SCIM-deleted or not, locked; with
     * whether SCIM manages them (a person the console made does not, until SCIM links them).
     */
    async lockByUserName(db: Executor, organizationId: string, userName: string) {
      const rows = await selectRows<ScimUserRow & { deleted: boolean; managed: boolean }>(
        db,
        sql`SELECT ${USER}, u.scim_deleted_at IS NOT NULL AS deleted,
                   u.scim_attributes IS NOT NULL AS managed
            FROM users u
            WHERE u.organization_id = ${organizationId} AND ${USER_NAME} = lower(${userName})
            FOR UPDATE`,
      );
      return rows[0] ?? null;
    },

    /** A person of the organization with this e-mail address whom SCIM does not manage, locked. */
    async lockUnmanagedByEmail(db: Executor, organizationId: string, email: string) {
      const rows = await selectRows<ScimUserRow & { deleted: boolean; managed: boolean }>(
        db,
        sql`SELECT ${USER}, false AS deleted, false AS managed FROM users u
            WHERE u.organization_id = ${organizationId} AND lower(u.email) = lower(${email})
              AND u.scim_attributes IS NULL
            FOR UPDATE`,
      );
      return rows[0] ?? null;
    },

    /** Writes what SCIM holds of a person; ends a SCIM deletion. */
    async writeUser(
      db: Executor,
      id: string,
      values: {
        name: string;
        email: string;
        scimUserName: string | null;
        externalId: string | null;
        attributes: Record<string, unknown>;
      },
    ): Promise<void> {
      await db.execute(
        sql`UPDATE users SET name = ${values.name}, email = ${values.email},
                   scim_user_name = ${values.scimUserName}, external_id = ${values.externalId},
                   scim_attributes = ${JSON.stringify(values.attributes)}::jsonb,
                   scim_deleted_at = NULL, updated_at = now()
            WHERE id = ${id}`,
      );
    },

    async markUserDeleted(db: Executor, id: string): Promise<void> {
      await db.execute(
        sql`UPDATE users SET scim_deleted_at = now(), updated_at = now() WHERE id = ${id}`,
      );
    },

    /** Of these ids, those of people of the organization who are Users. */
    async knownUsers(db: Executor, organizationId: string, ids: string[]): Promise<string[]> {
      const rows = await selectRows<{ id: string }>(
        db,
        sql`SELECT id FROM users
            WHERE organization_id = ${organizationId} AND scim_deleted_at IS NULL
              AND id = ANY(${sql.param(ids)}::text[])`,
      );
      return rows.map((row) => row.id);
    },

    async countGroups(db: Executor, organizationId: string, where: SQL): Promise<number> {
      const rows = await selectRows<{ n: number }>(
        db,
        sql`SELECT count(*)::int AS n FROM teams t
            WHERE t.organization_id = ${organizationId} AND t.scim_deleted_at IS NULL AND ${where}`,
      );
      return rows[0]?.n ?? 0;
    },

    async listGroups(
      db: Executor,
      organizationId: string,
      where: SQL,
      offset: number,
      limit: number,
      withMembers: boolean,
    ): Promise<ScimGroupRow[]> {
      return selectRows<ScimGroupRow>(
        db,
        sql`SELECT ${groupColumns(withMembers)} FROM teams t
            WHERE t.organization_id = ${organizationId} AND t.scim_deleted_at IS NULL AND ${where}
            ORDER BY t.created_at, t.id OFFSET ${offset} LIMIT ${limit}`,
      );
    },

    async findGroup(
      db: Executor,
      organizationId: string,
      id: string,
      withMembers: boolean,
      lock = false,
    ): Promise<ScimGroupRow | null> {
      const rows = await selectRows<ScimGroupRow>(
        db,
        sql`SELECT ${groupColumns(withMembers)} FROM teams t
            WHERE t.organization_id = ${organizationId} AND t.id = ${id}
              AND t.scim_deleted_at IS NULL ${lock ? sql`FOR UPDATE OF t` : sql``}`,
      );
      return rows[0] ?? null;
    },

    /** A team that answers to a name, SCIM-deleted or not, locked; null when none does. */
    async lockTeamByName(db: Executor, organizationId: string, name: string) {
      const rows = await selectRows<{
        id: string;
        name: string;
        externalId: string | null;
        deleted: boolean;
      }>(
        db,
        sql`SELECT id, name, external_id AS "externalId", scim_deleted_at IS NOT NULL AS deleted
            FROM teams
            WHERE organization_id = ${organizationId} AND lower(name) = lower(${name})
            FOR UPDATE`,
      );
      return rows[0] ?? null;
    },

    async insertTeam(
      db: Executor,
      values: { id: string; organizationId: string; name: string; externalId: string | null },
    ): Promise<void> {
      await db.execute(
        sql`INSERT INTO teams (id, organization_id, name, external_id)
            VALUES (${values.id}, ${values.organizationId}, ${values.name}, ${values.externalId})`,
      );
    },

    /** Writes a group's name and id at the identity system; ends a SCIM deletion. */
    async writeTeam(
      db: Executor,
      id: string,
      values: { name: string; externalId: string | null },
    ): Promise<void> {
      await db.execute(
        sql`UPDATE teams SET name = ${values.name}, external_id = ${values.externalId},
                   scim_deleted_at = NULL, updated_at = now()
            WHERE id = ${id}`,
      );
    },

    /**
     * Makes SCIM's members of a team exactly `ids`: those who join are members (a membership
     * made otherwise keeps its role and gains SCIM as a source), those who leave lose SCIM as
     * a source and the membership ends when no other source holds it. Who joined and left.
     */
    async setScimMembers(
      db: Executor,
      team: { id: string; organizationId: string },
      ids: string[],
    ): Promise<{ added: string[]; removed: string[] }> {
      const rows = await selectRows<{ userId: string; change: 'added' | 'removed' }>(
        db,
        sql`WITH wanted AS (SELECT unnest(${sql.param(ids)}::text[]) AS user_id),
            ended AS (
              DELETE FROM team_memberships m
              WHERE m.team_id = ${team.id} AND m.from_scim AND NOT (m.from_console OR m.from_sign_in)
                AND m.user_id NOT IN (SELECT user_id FROM wanted)
              RETURNING m.user_id),
            kept AS (
              UPDATE team_memberships m SET from_scim = false
              WHERE m.team_id = ${team.id} AND m.from_scim AND (m.from_console OR m.from_sign_in)
                AND m.user_id NOT IN (SELECT user_id FROM wanted)
              RETURNING m.user_id),
            joining AS (
              INSERT INTO team_memberships (team_id, user_id, organization_id, from_console, from_scim)
              SELECT ${team.id}, w.user_id, ${team.organizationId}, false, true FROM wanted w
              ON CONFLICT (team_id, user_id) DO UPDATE SET from_scim = true
                WHERE NOT team_memberships.from_scim
              RETURNING user_id)
            SELECT user_id AS "userId", 'added' AS change FROM joining
            UNION ALL
            SELECT user_id, 'removed' FROM ended
            UNION ALL
            SELECT user_id, 'removed' FROM kept`,
      );
      return {
        added: rows.filter((r) => r.change === 'added').map((r) => r.userId),
        removed: rows.filter((r) => r.change === 'removed').map((r) => r.userId),
      };
    },

    /**
     * Whether deleting a team would take more than SCIM gave it: content a person saved, or
     * members who joined otherwise than by SCIM.
     */
    async teamKeepsOthers(db: Executor, teamId: string): Promise<boolean> {
      const rows = await selectRows<{ keeps: boolean }>(
        db,
        sql`SELECT EXISTS (SELECT 1 FROM collections WHERE owner_team_id = ${teamId})
                OR EXISTS (SELECT 1 FROM team_memberships
                           WHERE team_id = ${teamId} AND (from_console OR from_sign_in)) AS keeps`,
      );
      return rows[0]?.keeps ?? false;
    },

    async deleteTeam(db: Executor, teamId: string): Promise<void> {
      await db.execute(sql`DELETE FROM teams WHERE id = ${teamId}`);
    },

    /** A team that holds content stays, without SCIM's members, as a team of the console. */
    async retireTeam(db: Executor, teamId: string): Promise<void> {
      await db.execute(
        sql`DELETE FROM team_memberships
            WHERE team_id = ${teamId} AND from_scim AND NOT (from_console OR from_sign_in)`,
      );
      await db.execute(
        sql`UPDATE team_memberships SET from_scim = false WHERE team_id = ${teamId} AND from_scim`,
      );
      await db.execute(
        sql`UPDATE teams SET scim_deleted_at = now(), external_id = NULL WHERE id = ${teamId}`,
      );
    },
  };
}
export type ScimRepository = ReturnType<typeof createScimRepository>;
