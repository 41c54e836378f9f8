import { sql } from 'drizzle-orm';
import { selectRows, type Database } from '../../db/client.ts';
import { scopeKeys, type Credential } from './live.types.ts';

export function createLiveRepository(sessionIdleMinutes: number) {
  return {
    /**
     * The scope keys of active people's menus, by person; a person who is no longer active
     * (disabled, deleted) is missing from the answer.
     */
    async scopesOf(db: Database, userIds: string[]): Promise<Map<string, string[]>> {
      const rows = await selectRows<{ userId: string; scopes: string | null }>(
        db,
        sql`SELECT u.id AS "userId",
                   signpost_menu_scopes(u.organization_id, u.id, u.role = 'admin') AS scopes
            FROM users u
            WHERE u.id = ANY(${sql.param(userIds)}::text[]) AND u.status = 'active'`,
      );
      return new Map(rows.map((row) => [row.userId, scopeKeys(row.scopes)]));
    },

    /**
     * The people whose menus show these shares: their members and the owners of the shared
     * collections (whether or not they see them yet: a person just added is in no stream's
     * list of scopes).
     */
    async peopleOfShares(db: Database, shareIds: string[]): Promise<string[]> {
      const rows = await selectRows<{ userId: string }>(
        db,
        sql`SELECT m.user_id AS "userId" FROM share_members m
            WHERE m.share_id = ANY(${sql.param(shareIds)}::text[])
            UNION
            SELECT c.owner_user_id FROM collection_shares s
            JOIN collections c ON c.id = s.collection_id
            WHERE s.id = ANY(${sql.param(shareIds)}::text[]) AND c.owner_user_id IS NOT NULL`,
      );
      return rows.map((row) => row.userId);
    },

    /**
     * Which of these people run these teams, as "person team" keys: an active person of the
     * team's organization who is one of its administrators (they run every team, decision
     * 0008) or an editor of the team. The rule of `GET /api/admin/teams/{id}/space`, for the
     * console's streams of a team's space.
     */
    async teamRunners(
      db: Database,
      pairs: { userId: string; teamId: string }[],
    ): Promise<Set<string>> {
      const rows = await selectRows<{ userId: string; teamId: string }>(
        db,
        sql`SELECT u.id AS "userId", t.id AS "teamId"
            FROM unnest(${sql.param(pairs.map((p) => p.userId))}::text[],
                        ${sql.param(pairs.map((p) => p.teamId))}::text[]) AS w(user_id, team_id)
            JOIN users u ON u.id = w.user_id AND u.status = 'active'
            JOIN teams t ON t.id = w.team_id AND t.organization_id = u.organization_id
            LEFT JOIN team_memberships tm ON tm.team_id = t.id AND tm.user_id = u.id
            WHERE u.role = 'admin' OR tm.role = 'editor'`,
      );
      return new Set(rows.map((row) => `${row.userId} ${row.teamId}`));
    },

    /**
     * Which of these credentials are still live, by the same rules as the sign-in check
     * (auth.service `authenticate`), without touching them: an open stream does not keep a
     * session from going idle.
     */
    async liveCredentials(db: Database, credentials: Credential[]): Promise<Set<string>> {
      const sessions = credentials.filter((c) => c.kind === 'session').map((c) => c.id);
      const tokens = credentials.filter((c) => c.kind === 'token').map((c) => c.id);
      const rows = await selectRows<{ id: string }>(
        db,
        sql`SELECT s.id FROM sessions s JOIN users u ON u.id = s.user_id
            WHERE s.id = ANY(${sql.param(sessions)}::text[])
              AND s.revoked_at IS NULL AND s.expires_at > now()
              AND s.last_seen_at > now() - make_interval(mins => ${sessionIdleMinutes}::int)
              AND u.status = 'active'
            UNION ALL
            SELECT t.id FROM access_tokens t JOIN users u ON u.id = t.user_id
            WHERE t.id = ANY(${sql.param(tokens)}::text[])
              AND t.revoked_at IS NULL AND (t.expires_at IS NULL OR t.expires_at > now())
              AND u.status = 'active'`,
      );
      return new Set(rows.map((row) => row.id));
    },
  };
}

export type LiveRepository = ReturnType<typeof createLiveRepository>;
