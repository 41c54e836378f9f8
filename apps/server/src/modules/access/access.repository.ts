import { sql } from 'drizzle-orm';
import { selectRows, type Executor } from '../../db/client.ts';
import type { CollectionOwnerType } from '../../db/schema/index.ts';

export interface CollectionAccessRow {
  id: string;
  ownerType: CollectionOwnerType;
  ownerUserId: string | null;
  ownerTeamId: string | null;
  parentId: string | null;
  isRoot: boolean;
  name: string;
  description: string;
  color: string | null;
  /** The share that covers this collection (itself or an ancestor), if any. */
  shareId: string | null;
  shareCollectionId: string | null;
  shareCreatedBy: string | null;
  isShareMember: boolean;
  teamRole: 'member' | 'editor' | null;
}

export interface LinkAccessRow {
  linkId: string;
  collectionId: string;
  createdBy: string | null;
  name: string;
  description: string;
  url: string;
  appName: string | null;
}

/** A team or organization space, with the person's role in the team. */
export interface SpaceAccessRow {
  type: 'team' | 'organization';
  id: string;
  name: string;
  teamRole: 'member' | 'editor' | null;
}

export function createAccessRepository() {
  return {
    /**
     * A collection of the organization with what the person has to do with it, in one
     * statement: its chain of ancestors finds a share that covers it.
     */
    async findCollection(
      db: Executor,
      organizationId: string,
      userId: string,
      collectionId: string,
    ): Promise<CollectionAccessRow | null> {
      const rows = await selectRows<CollectionAccessRow>(
        db,
        sql`
        WITH RECURSIVE chain AS (
          SELECT id, parent_id, 0 AS depth FROM collections
          WHERE id = ${collectionId} AND organization_id = ${organizationId}
          UNION ALL
          SELECT c.id, c.parent_id, chain.depth + 1 FROM collections c
          JOIN chain ON c.id = chain.parent_id
          WHERE chain.depth < 100
        ), covering AS (
          SELECT s.id, s.collection_id, s.created_by FROM collection_shares s
          JOIN chain ON chain.id = s.collection_id
          ORDER BY chain.depth LIMIT 1
        )
        SELECT c.id, c.owner_type AS "ownerType", c.owner_user_id AS "ownerUserId",
               c.owner_team_id AS "ownerTeamId", c.parent_id AS "parentId", c.is_root AS "isRoot",
               c.name, c.description, c.color,
               cv.id AS "shareId", cv.collection_id AS "shareCollectionId",
               cv.created_by AS "shareCreatedBy",
               EXISTS (SELECT 1 FROM share_members m
                       WHERE m.share_id = cv.id AND m.user_id = ${userId}) AS "isShareMember",
               (SELECT tm.role FROM team_memberships tm
                WHERE tm.team_id = c.owner_team_id AND tm.user_id = ${userId}) AS "teamRole"
        FROM collections c LEFT JOIN covering cv ON true
        WHERE c.id = ${collectionId} AND c.organization_id = ${organizationId}`,
      );
      return rows[0] ?? null;
    },

    async findLink(
      db: Executor,
      organizationId: string,
      linkId: string,
    ): Promise<LinkAccessRow | null> {
      const rows = await selectRows<LinkAccessRow>(
        db,
        sql`SELECT id AS "linkId", collection_id AS "collectionId", created_by AS "createdBy",
                   name, description, url, app_name AS "appName"
            FROM links WHERE id = ${linkId} AND organization_id = ${organizationId}`,
      );
      return rows[0] ?? null;
    },

    /** The team of the organization, or the organization itself, that `spaceId` names. */
    async findSpace(
      db: Executor,
      organizationId: string,
      userId: string,
      spaceId: string,
    ): Promise<SpaceAccessRow | null> {
      const rows = await selectRows<SpaceAccessRow>(
        db,
        sql`
        SELECT 'team' AS type, t.id, t.name,
               (SELECT tm.role FROM team_memberships tm
                WHERE tm.team_id = t.id AND tm.user_id = ${userId}) AS "teamRole"
        FROM teams t WHERE t.id = ${spaceId} AND t.organization_id = ${organizationId}
        UNION ALL
        SELECT 'organization', o.id, o.name, NULL FROM organizations o
        WHERE o.id = ${spaceId} AND o.id = ${organizationId}`,
      );
      return rows[0] ?? null;
    },

    /** The teams of the organization the person is an editor of. */
    async editorTeams(db: Executor, organizationId: string, userId: string): Promise<string[]> {
      const rows = await selectRows<{ teamId: string }>(
        db,
        sql`SELECT team_id AS "teamId" FROM team_memberships
            WHERE user_id = ${userId} AND organization_id = ${organizationId}
              AND role = 'editor'`,
      );
      return rows.map((row) => row.teamId);
    },

    /** How many ancestors a collection has: 0 for a root. */
    async depthOf(db: Executor, collectionId: string): Promise<number> {
      const rows = await selectRows<{ depth: number | null }>(
        db,
        sql`
        WITH RECURSIVE chain AS (
          SELECT id, parent_id, 0 AS depth FROM collections WHERE id = ${collectionId}
          UNION ALL
          SELECT c.id, c.parent_id, chain.depth + 1 FROM collections c
          JOIN chain ON c.id = chain.parent_id WHERE chain.depth < 100
        )
        SELECT max(depth) AS depth FROM chain`,
      );
      return Number(rows[0]?.depth ?? 0);
    },
    /** True when `ancestorId` is `collectionId` or one of its ancestors. */
    async isSelfOrAncestor(
      db: Executor,
      ancestorId: string,
      collectionId: string,
    ): Promise<boolean> {
      const rows = await selectRows<{ found: boolean }>(
        db,
        sql`
        WITH RECURSIVE chain AS (
          SELECT id, parent_id, 0 AS depth FROM collections WHERE id = ${collectionId}
          UNION ALL
          SELECT c.id, c.parent_id, chain.depth + 1 FROM collections c
          JOIN chain ON c.id = chain.parent_id WHERE chain.depth < 100
        )
        SELECT EXISTS (SELECT 1 FROM chain WHERE id = ${ancestorId}) AS found`,
      );
      return rows[0]?.found ?? false;
    },
  };
}
export type AccessRepository = ReturnType<typeof createAccessRepository>;
