import { sql } from 'drizzle-orm';
import { selectRows, type Executor } from '../../db/client.ts';
import type { CollectionOwnerType } from '../../db/schema/index.ts';

export interface MenuLinkRow {
  id: string;
  name: string;
  description: string;
  url: string;
  icon: string | null;
  appName: string | null;
  createdBy: string | null;
  position: number;
}

export interface MenuCollectionRow {
  id: string;
  ownerType: CollectionOwnerType;
  ownerUserId: string | null;
  ownerTeamId: string | null;
  parentId: string | null;
  isRoot: boolean;
  name: string;
  description: string;
  color: string | null;
  position: number;
  links: MenuLinkRow[];
}

export interface MenuFavoriteRow extends Omit<MenuLinkRow, 'createdBy'> {
  linkId: string;
  collectionId: string;
}

export interface MenuPersonRow {
  id: string;
  name: string;
  email: string;
}

export interface MenuTeamRow {
  id: string;
  name: string;
  buddy: MenuPersonRow | null;
}

export interface MenuShareRow {
  id: string;
  collectionId: string;
  createdBy: string;
  members: MenuPersonRow[];
}

export interface MenuRows {
  collections: MenuCollectionRow[];
  favorites: MenuFavoriteRow[];
  teams: MenuTeamRow[];
  shares: MenuShareRow[];
}

const person = (alias: string) =>
  sql.raw(`json_build_object('id', ${alias}.id, 'name', ${alias}.name, 'email', ${alias}.email)`);

export function createMenuRepository(db: Executor) {
  return {
    /**
     * Everything one person's menu shows, in ONE statement whatever the size of the data:
     * the collections they can see (their own, their teams', the organization's, and the
     * trees shared with them), each with its links; their favorites whose links they can
     * still see; their teams with buddies; and the shares among those collections.
     */
    async load(organizationId: string, userId: string): Promise<MenuRows> {
      const rows = await selectRows<{ menu: MenuRows }>(
        db,
        sql`
        WITH RECURSIVE my_teams AS (
          SELECT t.id, t.name, t.buddy_id FROM team_memberships tm
          JOIN teams t ON t.id = tm.team_id
          WHERE tm.user_id = ${userId} AND t.organization_id = ${organizationId}
        ), shared_tree AS (
          SELECT c.id, 0 AS depth FROM share_members m
          JOIN collection_shares s ON s.id = m.share_id
          JOIN collections c ON c.id = s.collection_id
          WHERE m.user_id = ${userId} AND c.owner_user_id <> ${userId}
            AND s.organization_id = ${organizationId}
          UNION ALL
          SELECT c.id, st.depth + 1 FROM collections c
          JOIN shared_tree st ON c.parent_id = st.id
          WHERE st.depth < 100
        ), visible AS (
          SELECT c.* FROM collections c WHERE c.owner_user_id = ${userId}
          UNION ALL
          SELECT c.* FROM collections c WHERE c.owner_team_id IN (SELECT id FROM my_teams)
          UNION ALL
          SELECT c.* FROM collections c
          WHERE c.organization_id = ${organizationId} AND c.owner_type = 'organization'
          UNION ALL
          SELECT c.* FROM collections c WHERE c.id IN (SELECT id FROM shared_tree)
        )
        SELECT json_build_object(
          'collections', (
            SELECT coalesce(json_agg(json_build_object(
              'id', v.id, 'ownerType', v.owner_type, 'ownerUserId', v.owner_user_id,
              'ownerTeamId', v.owner_team_id, 'parentId', v.parent_id, 'isRoot', v.is_root,
              'name', v.name, 'description', v.description, 'color', v.color,
              'position', v.position,
              'links', (
                SELECT coalesce(json_agg(json_build_object(
                  'id', l.id, 'name', l.name, 'description', l.description, 'url', l.url,
                  'icon', l.icon, 'appName', l.app_name, 'createdBy', l.created_by,
                  'position', l.position) ORDER BY l.position, l.created_at, l.id), '[]')
                FROM links l WHERE l.collection_id = v.id)
            ) ORDER BY v.position, v.created_at, v.id), '[]')
            FROM visible v),
          'favorites', (
            SELECT coalesce(json_agg(json_build_object(
              'id', f.id, 'linkId', l.id, 'collectionId', f.collection_id,
              'position', f.position, 'name', l.name, 'description', l.description,
              'url', l.url, 'icon', l.icon, 'appName', l.app_name)), '[]')
            FROM favorites f
            JOIN links l ON l.id = f.link_id
            JOIN collections lc ON lc.id = l.collection_id
            WHERE f.user_id = ${userId}
              AND (lc.owner_team_id IN (SELECT id FROM my_teams)
                   OR (lc.owner_type = 'organization' AND lc.organization_id = ${organizationId}))),
          'teams', (
            SELECT coalesce(json_agg(json_build_object(
              'id', t.id, 'name', t.name,
              'buddy', CASE WHEN b.id IS NULL THEN NULL ELSE ${person('b')} END
            ) ORDER BY lower(t.name), t.id), '[]')
            FROM my_teams t LEFT JOIN users b ON b.id = t.buddy_id AND b.status = 'active'),
          'shares', (
            SELECT coalesce(json_agg(json_build_object(
              'id', s.id, 'collectionId', s.collection_id, 'createdBy', s.created_by,
              'members', (
                SELECT coalesce(json_agg(${person('u')} ORDER BY lower(u.name), u.id), '[]')
                FROM share_members sm JOIN users u ON u.id = sm.user_id
                WHERE sm.share_id = s.id AND u.status = 'active')
            )), '[]')
            FROM collection_shares s WHERE s.collection_id IN (SELECT id FROM visible))
        ) AS menu`,
      );
      const menu = rows[0]?.menu;
      if (!menu) throw new Error('menu query returned no row');
      return menu;
    },
  };
}
