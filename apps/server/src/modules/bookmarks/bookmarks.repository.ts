import { sql } from 'drizzle-orm';
import { selectRows, type Executor } from '../../db/client.ts';
import type { ExistingLink } from './bookmarks-import.plan.ts';

/** Whose collections a place is: a person's, a team's, or the organization's. */
export type SpaceOwner =
  | { type: 'user'; userId: string }
  | { type: 'team'; teamId: string }
  | { type: 'organization'; organizationId: string };

const ownedBy = (owner: SpaceOwner) =>
  owner.type === 'user'
    ? sql`c.owner_user_id = ${owner.userId}`
    : owner.type === 'team'
      ? sql`c.owner_team_id = ${owner.teamId}`
      : sql`c.owner_type = 'organization' AND c.organization_id = ${owner.organizationId}`;

export interface NewCollectionRow {
  id: string;
  parentId: string | null;
  name: string;
  description: string;
  position: number;
}
export interface NewLinkRow {
  id: string;
  collectionId: string;
  name: string;
  description: string;
  url: string;
  keyword: string | null;
  position: number;
}

/** A collection of a place being exported, with its parent and order. */
export interface ExportCollectionRow {
  id: string;
  parentId: string | null;
  name: string;
  description: string;
  color: string | null;
  position: number;
  isRoot: boolean;
  ownerTeamId: string | null;
}
export interface ExportLinkRow {
  id: string;
  collectionId: string;
  name: string;
  description: string;
  url: string;
  appName: string | null;
  keyword: string | null;
  position: number;
  createdAt: Date | string;
}

export function createBookmarksRepository() {
  return {
    /** The links of a space whose address is one of these, by address (the first of each). */
    async linksByUrl(
      db: Executor,
      owner: SpaceOwner,
      urls: string[],
    ): Promise<Map<string, ExistingLink>> {
      if (urls.length === 0) return new Map();
      const rows = await selectRows<{ url: string } & ExistingLink>(
        db,
        sql`SELECT DISTINCT ON (l.url) l.url, l.id, l.name, c.name AS "collectionName"
            FROM links l JOIN collections c ON c.id = l.collection_id
            WHERE ${ownedBy(owner)} AND l.url = ANY(${sql.param(urls)}::text[])
            ORDER BY l.url, l.created_at, l.id`,
      );
      return new Map(
        rows.map((row) => [
          row.url,
          { id: row.id, name: row.name, collectionName: row.collectionName },
        ]),
      );
    },

    /**
     * The collections of an import, in one statement, with the owner, organization and
     * creator of the place they go into; parents before children, as the rows are given.
     */
    async insertCollections(
      db: Executor,
      place: {
        organizationId: string;
        ownerType: 'user' | 'team' | 'organization';
        ownerUserId: string | null;
        ownerTeamId: string | null;
        createdBy: string;
      },
      rows: NewCollectionRow[],
    ): Promise<void> {
      if (rows.length === 0) return;
      await db.execute(sql`
        INSERT INTO collections (id, organization_id, owner_type, owner_user_id, owner_team_id,
                                 parent_id, name, description, position, created_by)
        SELECT r.id, ${place.organizationId}, ${place.ownerType}, ${place.ownerUserId}::text,
               ${place.ownerTeamId}::text, r."parentId", r.name, r.description, r.position,
               ${place.createdBy}
        FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
          AS r(id text, "parentId" text, name text, description text, position integer)`);
    },

    /** The links of an import, in one statement. */
    async insertLinks(
      db: Executor,
      place: { organizationId: string; createdBy: string },
      rows: NewLinkRow[],
    ): Promise<void> {
      if (rows.length === 0) return;
      await db.execute(sql`
        INSERT INTO links (id, organization_id, collection_id, name, description, url, keyword,
                           position, created_by)
        SELECT r.id, ${place.organizationId}, r."collectionId", r.name, r.description, r.url,
               r.keyword, r.position, ${place.createdBy}
        FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
          AS r(id text, "collectionId" text, name text, description text, url text,
               keyword text, position integer)`);
    },

    /**
     * A collection and everything below it, or every collection of a space, with their
     * links, for an export: collections first (parents and order), then links.
     */
    async exportRows(
      db: Executor,
      from: { collectionId: string } | { owner: SpaceOwner },
    ): Promise<{ collections: ExportCollectionRow[]; links: ExportLinkRow[] }> {
      const chosen =
        'collectionId' in from
          ? sql`WITH RECURSIVE tree AS (
                  SELECT c.id, 0 AS depth FROM collections c WHERE c.id = ${from.collectionId}
                  UNION ALL
                  SELECT c.id, tree.depth + 1 FROM collections c
                  JOIN tree ON c.parent_id = tree.id WHERE tree.depth < 100)
                SELECT id FROM tree`
          : sql`SELECT c.id FROM collections c WHERE ${ownedBy(from.owner)}`;
      const collections = await selectRows<ExportCollectionRow>(
        db,
        sql`SELECT c.id, c.parent_id AS "parentId", c.name, c.description, c.color, c.position,
                   c.is_root AS "isRoot", c.owner_team_id AS "ownerTeamId"
            FROM collections c WHERE c.id IN (${chosen})
            ORDER BY c.position, c.created_at, c.id`,
      );
      const links = await selectRows<ExportLinkRow>(
        db,
        sql`SELECT l.id, l.collection_id AS "collectionId", l.name, l.description, l.url,
                   l.app_name AS "appName", l.keyword, l.position, l.created_at AS "createdAt"
            FROM links l WHERE l.collection_id IN (${chosen})
            ORDER BY l.position, l.created_at, l.id`,
      );
      return { collections, links };
    },
  };
}
export type BookmarksRepository = ReturnType<typeof createBookmarksRepository>;
