import { sql, type SQL } from 'drizzle-orm';
import { selectRows, type Executor } from '../../db/client.ts';
import { nextPositionSql } from '../../db/positions.ts';

type PersonJson = { id: string; name: string; email: string } | null;

export interface SuggestionRow {
  id: string;
  name: string;
  url: string;
  description: string;
  status: 'open' | 'accepted' | 'declined';
  reason: string;
  createdAt: Date | string;
  decidedAt: Date | string | null;
  linkId: string | null;
  collectionId: string;
  collectionName: string;
  ownerType: 'team' | 'organization' | 'user';
  teamId: string | null;
  spaceName: string;
  suggestedBy: PersonJson;
  decidedBy: PersonJson;
}

/** Which suggestions a list shows. */
export interface SuggestionFilter {
  organizationId: string;
  /** The teams whose suggestions are shown; 'all' for every team and the organization. */
  scope: 'all' | string[];
  status?: string;
  /** A team id, or the organization's id for its own space. */
  spaceId?: string;
  /** Only those suggested by this person. */
  suggestedBy?: string;
  limit: number;
  after?: string;
}

const person = (alias: string) =>
  sql.raw(`CASE WHEN ${alias}.id IS NULL THEN NULL
    ELSE json_build_object('id', ${alias}.id, 'name', ${alias}.name, 'email', ${alias}.email) END`);

const SELECT = sql`SELECT s.id, s.name, s.url, s.description, s.status, s.reason,
    s.created_at AS "createdAt", s.decided_at AS "decidedAt", s.link_id AS "linkId",
    c.id AS "collectionId", c.name AS "collectionName", c.owner_type AS "ownerType",
    t.id AS "teamId", coalesce(t.name, o.name) AS "spaceName",
    ${person('su')} AS "suggestedBy", ${person('du')} AS "decidedBy"
  FROM link_suggestions s
  JOIN collections c ON c.id = s.collection_id
  JOIN organizations o ON o.id = s.organization_id
  LEFT JOIN teams t ON t.id = c.owner_team_id
  LEFT JOIN users su ON su.id = s.suggested_by
  LEFT JOIN users du ON du.id = s.decided_by`;

const idList = (ids: string[]) =>
  sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  );

export function createSuggestionsRepository() {
  return {
    /** A page of suggestions, newest first, after the suggestion `after` (keyset). */
    async list(db: Executor, filter: SuggestionFilter): Promise<SuggestionRow[]> {
      const conditions: SQL[] = [sql`s.organization_id = ${filter.organizationId}`];
      if (filter.scope !== 'all') {
        if (filter.scope.length === 0) return [];
        conditions.push(sql`c.owner_team_id IN (${idList(filter.scope)})`);
      }
      if (filter.status) conditions.push(sql`s.status = ${filter.status}`);
      if (filter.spaceId) {
        conditions.push(
          filter.spaceId === filter.organizationId
            ? sql`c.owner_type = 'organization'`
            : sql`c.owner_team_id = ${filter.spaceId}`,
        );
      }
      if (filter.suggestedBy) conditions.push(sql`s.suggested_by = ${filter.suggestedBy}`);
      if (filter.after) {
        conditions.push(sql`(s.created_at, s.id) < (SELECT created_at, id FROM link_suggestions
          WHERE id = ${filter.after} AND organization_id = ${filter.organizationId})`);
      }
      return selectRows<SuggestionRow>(
        db,
        sql`${SELECT} WHERE ${sql.join(conditions, sql` AND `)}
            ORDER BY s.created_at DESC, s.id DESC LIMIT ${filter.limit}`,
      );
    },

    /** One suggestion of the organization, held until the transaction ends when `lock`. */
    async find(db: Executor, organizationId: string, id: string, lock = false) {
      if (lock) {
        await selectRows(
          db,
          sql`SELECT 1 FROM link_suggestions
              WHERE id = ${id} AND organization_id = ${organizationId} FOR UPDATE`,
        );
      }
      const rows = await selectRows<SuggestionRow>(
        db,
        sql`${SELECT} WHERE s.id = ${id} AND s.organization_id = ${organizationId}`,
      );
      return rows[0];
    },

    /** The caller's role in a team, or undefined when they are not in it. */
    async teamRole(db: Executor, teamId: string, userId: string) {
      const rows = await selectRows<{ role: 'member' | 'editor' }>(
        db,
        sql`SELECT role FROM team_memberships WHERE team_id = ${teamId} AND user_id = ${userId}`,
      );
      return rows[0]?.role;
    },

    /** Adds the accepted link after the last item of its collection (whose lock is held). */
    async insertLink(
      db: Executor,
      values: {
        id: string;
        organizationId: string;
        collectionId: string;
        name: string;
        description: string;
        url: string;
        createdBy: string;
      },
    ) {
      await db.execute(
        sql`INSERT INTO links (id, organization_id, collection_id, name, description, url,
                               position, created_by)
            VALUES (${values.id}, ${values.organizationId}, ${values.collectionId},
                    ${values.name}, ${values.description}, ${values.url},
                    ${nextPositionSql(values.collectionId)}, ${values.createdBy})`,
      );
    },

    /** Records the decision on an open suggestion; false when it was no longer open. */
    async decide(
      db: Executor,
      id: string,
      decision: {
        status: 'accepted' | 'declined';
        decidedBy: string;
        reason: string;
        linkId: string | null;
      },
    ): Promise<boolean> {
      const rows = await selectRows(
        db,
        sql`UPDATE link_suggestions
            SET status = ${decision.status}, decided_by = ${decision.decidedBy},
                decided_at = now(), reason = ${decision.reason}, link_id = ${decision.linkId}
            WHERE id = ${id} AND status = 'open' RETURNING id`,
      );
      return rows.length > 0;
    },
  };
}
export type SuggestionsRepository = ReturnType<typeof createSuggestionsRepository>;
