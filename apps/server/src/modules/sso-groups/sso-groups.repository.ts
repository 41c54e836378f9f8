import { sql } from 'drizzle-orm';
import { selectRows, type Executor } from '../../db/client.ts';
import { newId } from '../../lib/ids.ts';

export interface GroupMappingRow {
  providerId: string;
  group: string;
  teamId: string | null;
  teamName: string | null;
  role: 'member' | 'editor' | null;
  admin: boolean;
}

/** SQL of teams from a sign-in's groups (decision 0084). */
export function createSsoGroupsRepository() {
  return {
    /** The groups claims of the organization's providers. */
    async claims(db: Executor, organizationId: string) {
      return selectRows<{ providerId: string; claim: string }>(
        db,
        sql`SELECT provider_id AS "providerId", claim FROM sso_group_claims
            WHERE organization_id = ${organizationId}`,
      );
    },

    /** The mappings of the organization's providers (or of one), with their teams' names. */
    async mappings(
      db: Executor,
      organizationId: string,
      providerId: string | null = null,
    ): Promise<GroupMappingRow[]> {
      return selectRows<GroupMappingRow>(
        db,
        sql`SELECT m.provider_id AS "providerId", m.group_value AS "group", m.team_id AS "teamId",
                   t.name AS "teamName", m.team_role AS role, m.grants_admin AS admin
            FROM sso_group_mappings m LEFT JOIN teams t ON t.id = m.team_id
            WHERE m.organization_id = ${organizationId}
              AND (${providerId}::text IS NULL OR m.provider_id = ${providerId})
            ORDER BY m.group_value, t.name NULLS FIRST, m.id`,
      );
    },

    /** Of these team ids, those of the organization. */
    async knownTeams(db: Executor, organizationId: string, ids: string[]): Promise<string[]> {
      const rows = await selectRows<{ id: string }>(
        db,
        sql`SELECT id FROM teams
            WHERE organization_id = ${organizationId} AND id = ANY(${sql.param(ids)}::text[])`,
      );
      return rows.map((row) => row.id);
    },

    /** Replaces a provider's claim and mappings. */
    async replace(
      db: Executor,
      organizationId: string,
      providerId: string,
      claim: string | null,
      mappings: { group: string; teamId: string | null; role: string | null; admin: boolean }[],
    ): Promise<void> {
      await db.execute(
        sql`DELETE FROM sso_group_claims
            WHERE organization_id = ${organizationId} AND provider_id = ${providerId}`,
      );
      if (claim !== null) {
        await db.execute(
          sql`INSERT INTO sso_group_claims (organization_id, provider_id, claim)
              VALUES (${organizationId}, ${providerId}, ${claim})`,
        );
      }
      await db.execute(
        sql`DELETE FROM sso_group_mappings
            WHERE organization_id = ${organizationId} AND provider_id = ${providerId}`,
      );
      if (mappings.length === 0) return;
      const values = sql.join(
        mappings.map(
          (m) =>
            sql`(${newId()}, ${organizationId}, ${providerId}, ${m.group}, ${m.teamId}, ${m.role}, ${m.admin})`,
        ),
        sql`, `,
      );
      await db.execute(
        sql`INSERT INTO sso_group_mappings
              (id, organization_id, provider_id, group_value, team_id, team_role, grants_admin)
            VALUES ${values}`,
      );
    },

    /**
     * Makes the person's sign-in memberships those of `wanted`: a new one with the role the
     * groups give; one with another source gains the sign-in as a source and, if the groups
     * say editor, becomes an editor (a sign-in never lowers a role it did not give). When
     * `removeOthers`, the sign-in memberships not wanted lose the sign-in as a source, and
     * end when no other source holds them.
     */
    async applyMemberships(
      db: Executor,
      organizationId: string,
      userId: string,
      wanted: { teamId: string; role: 'member' | 'editor' }[],
      removeOthers: boolean,
    ): Promise<void> {
      const teams = JSON.stringify(wanted.map((w) => ({ team_id: w.teamId, role: w.role })));
      await selectRows(
        db,
        sql`WITH wanted AS (
              SELECT * FROM jsonb_to_recordset(${teams}::jsonb) AS w(team_id text, role text)),
            ended AS (
              DELETE FROM team_memberships m
              WHERE m.user_id = ${userId} AND ${removeOthers} AND m.from_sign_in
                AND NOT (m.from_console OR m.from_scim)
                AND m.team_id NOT IN (SELECT team_id FROM wanted)
              RETURNING m.team_id),
            kept AS (
              UPDATE team_memberships m SET from_sign_in = false
              WHERE m.user_id = ${userId} AND ${removeOthers} AND m.from_sign_in
                AND (m.from_console OR m.from_scim)
                AND m.team_id NOT IN (SELECT team_id FROM wanted)
              RETURNING m.team_id),
            joined AS (
              INSERT INTO team_memberships
                (team_id, user_id, organization_id, role, from_console, from_sign_in)
              SELECT w.team_id, ${userId}, ${organizationId}, w.role, false, true FROM wanted w
              ON CONFLICT (team_id, user_id) DO UPDATE
                SET from_sign_in = true,
                    role = CASE
                      WHEN NOT (team_memberships.from_console OR team_memberships.from_scim)
                        THEN EXCLUDED.role
                      WHEN EXCLUDED.role = 'editor' THEN 'editor'
                      ELSE team_memberships.role END
                WHERE NOT team_memberships.from_sign_in
                   OR team_memberships.role IS DISTINCT FROM (CASE
                      WHEN NOT (team_memberships.from_console OR team_memberships.from_scim)
                        THEN EXCLUDED.role
                      WHEN EXCLUDED.role = 'editor' THEN 'editor'
                      ELSE team_memberships.role END)
              RETURNING team_id)
            SELECT count(*)::int AS n FROM joined`,
      );
    },

    /** The person's memberships: team, its name, role, and whether a sign-in holds it. */
    async memberships(db: Executor, userId: string) {
      return selectRows<{
        teamId: string;
        teamName: string;
        role: 'member' | 'editor';
        fromSignIn: boolean;
      }>(
        db,
        sql`SELECT m.team_id AS "teamId", t.name AS "teamName", m.role,
                   m.from_sign_in AS "fromSignIn"
            FROM team_memberships m JOIN teams t ON t.id = m.team_id
            WHERE m.user_id = ${userId} ORDER BY t.name, t.id`,
      );
    },

    async adminFromSignIn(db: Executor, userId: string): Promise<boolean> {
      const rows = await selectRows<{ flag: boolean }>(
        db,
        sql`SELECT admin_from_sign_in AS flag FROM users WHERE id = ${userId}`,
      );
      return rows[0]?.flag ?? false;
    },

    async setAdminFromSignIn(db: Executor, userId: string, flag: boolean): Promise<void> {
      await db.execute(sql`UPDATE users SET admin_from_sign_in = ${flag} WHERE id = ${userId}`);
    },
  };
}
export type SsoGroupsRepository = ReturnType<typeof createSsoGroupsRepository>;
