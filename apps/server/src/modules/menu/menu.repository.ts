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

/**
 * Links travel as arrays, not objects: PostgreSQL builds a JSON array of eight values in
 * well under half the time of an object with eight keys, and most of a large menu is links.
 */
type LinkTuple = [
  id: string,
  name: string,
  description: string,
  url: string,
  icon: string | null,
  appName: string | null,
  createdBy: string | null,
  position: number,
];

interface RawCollectionRow extends Omit<MenuCollectionRow, 'links'> {
  links: LinkTuple[];
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
  role: 'member' | 'editor';
  /** For the people who run the team only; null for the others. */
  openSuggestions: number | null;
  buddy: MenuPersonRow | null;
}

export interface MenuShareRow {
  id: string;
  collectionId: string;
  createdBy: string;
  members: MenuPersonRow[];
  teams: { id: string; name: string }[];
}

export interface MenuRows {
  collections: MenuCollectionRow[];
  favorites: MenuFavoriteRow[];
  teams: MenuTeamRow[];
  shares: MenuShareRow[];
  /** The organization's footer addresses and intro texts (its settings). */
  organization: MenuOrganizationRow | null;
  /** The organization space's open suggestions, for administrators only (else null). */
  organizationSuggestions: number | null;
}

export interface MenuOrganizationRow {
  feedbackUrl: string | null;
  consentUrl: string | null;
  intros: { personal: string; team: string; organization: string };
}

/** One row of the menu statement: a collection, one of the three lists, or the organization's. */
type MenuStatementRow =
  | { kind: 'collection'; data: RawCollectionRow }
  | { kind: 'favorites'; data: MenuFavoriteRow[] }
  | { kind: 'teams'; data: MenuTeamRow[] }
  | { kind: 'shares'; data: MenuShareRow[] }
  | {
      kind: 'organization';
      data: (MenuOrganizationRow & { openSuggestions: number | null }) | null;
    };

const toLink = ([id, name, description, url, icon, appName, createdBy, position]: LinkTuple) => ({
  id,
  name,
  description,
  url,
  icon,
  appName,
  createdBy,
  position,
});

/** A text[] literal of ids (one parameter, however many ids; ids never hold a quote). */
const arrayLiteral = (ids: string[]) => `{${ids.map((id) => `"${id}"`).join(',')}}`;

/** A team's space as an administrator who runs it reads it: the team, and its collections. */
export interface TeamSpaceRows {
  /** null when the organization has no such team. */
  team: (MenuTeamRow & { role: 'member' | 'editor' | null }) | null;
  collections: MenuCollectionRow[];
}

export function createMenuRepository() {
  return {
    /**
     * The reader's place in a team of their organization: `{ role }` (null outside it), or
     * null when the organization has no such team.
     */
    async teamRole(
      db: Executor,
      organizationId: string,
      teamId: string,
      userId: string,
    ): Promise<{ role: 'member' | 'editor' | null } | null> {
      const [team] = await selectRows<{ role: 'member' | 'editor' | null }>(
        db,
        sql`SELECT tm.role FROM teams t
            LEFT JOIN team_memberships tm ON tm.team_id = t.id AND tm.user_id = ${userId}
            WHERE t.id = ${teamId} AND t.organization_id = ${organizationId}`,
      );
      return team ?? null;
    },

    /**
     * One team's space, read by id whether the reader is in the team or not (decision 0008:
     * an administrator runs every team): the team with its buddy, the reader's role in it
     * (null outside it), its open suggestions, and every collection of the team with its
     * links, in the menu's row shape.
     */
    async loadTeamSpace(
      db: Executor,
      organizationId: string,
      teamId: string,
      userId: string,
    ): Promise<TeamSpaceRows> {
      const [team] = await selectRows<TeamSpaceRows['team'] & object>(
        db,
        sql`
        SELECT t.id, t.name, tm.role,
          (SELECT count(*)::int FROM link_suggestions ls
             JOIN collections sc ON sc.id = ls.collection_id
             WHERE sc.owner_team_id = t.id AND ls.status = 'open') AS "openSuggestions",
          CASE WHEN b.id IS NULL THEN NULL
               ELSE json_build_object('id', b.id, 'name', b.name, 'email', b.email) END AS buddy
        FROM teams t
        LEFT JOIN team_memberships tm ON tm.team_id = t.id AND tm.user_id = ${userId}
        LEFT JOIN users b ON b.id = t.buddy_id AND b.status = 'active'
        WHERE t.id = ${teamId} AND t.organization_id = ${organizationId}`,
      );
      if (!team) return { team: null, collections: [] };
      const rows = await selectRows<RawCollectionRow>(
        db,
        sql`
        SELECT c.id, c.owner_type AS "ownerType", c.owner_user_id AS "ownerUserId",
          c.owner_team_id AS "ownerTeamId", c.parent_id AS "parentId", c.is_root AS "isRoot",
          c.name, c.description, c.color, c.position,
          (SELECT coalesce(json_agg(json_build_array(
              l.id, l.name, l.description, l.url, l.icon, l.app_name, l.created_by,
              l.position) ORDER BY l.position, l.created_at, l.id), '[]')
           FROM links l WHERE l.collection_id = c.id) AS links
        FROM collections c
        WHERE c.owner_team_id = ${teamId} AND c.organization_id = ${organizationId}
        ORDER BY c.position, c.id`,
      );
      return {
        team,
        collections: rows.map((row) => ({ ...row, links: row.links.map(toLink) })),
      };
    },

    /**
     * Everything one person's menu shows, in ONE statement whatever the size of the data:
     * the collections they can see (their own, their teams', the organization's, and the
     * trees shared with them), one row each with its links; then their favorites whose links
     * they can still see, their teams with buddies, and the shares among those collections.
     * Rows rather than one JSON document: the large link lists are built once, never copied
     * into an enclosing aggregate. The statement itself is the function `signpost_menu`, in
     * db/functions/menu.sql, so that its plan is kept per connection.
     */
    async load(
      db: Executor,
      organizationId: string,
      userId: string,
      skip: { teams: string[]; organization: boolean } = { teams: [], organization: false },
    ): Promise<MenuRows> {
      const rows = await selectRows<MenuStatementRow>(
        db,
        sql`
        SELECT kind, data FROM signpost_menu(${organizationId}, ${userId}, ${arrayLiteral(skip.teams)}::text[], ${skip.organization})`,
      );
      const menu: MenuRows = {
        collections: [],
        favorites: [],
        teams: [],
        shares: [],
        organization: null,
        organizationSuggestions: null,
      };
      for (const row of rows) {
        switch (row.kind) {
          case 'collection':
            menu.collections.push({ ...row.data, links: row.data.links.map(toLink) });
            break;
          case 'favorites':
            menu.favorites = row.data;
            break;
          case 'teams':
            menu.teams = row.data;
            break;
          case 'shares':
            menu.shares = row.data;
            break;
          case 'organization':
            if (row.data) {
              const { openSuggestions, ...organization } = row.data;
              menu.organization = organization;
              menu.organizationSuggestions = openSuggestions;
            }
            break;
        }
      }
      // The statement does not order collection rows; the tree needs them by position.
      menu.collections.sort((a, b) => a.position - b.position || (a.id < b.id ? -1 : 1));
      return menu;
    },
  };
}
export type MenuRepository = ReturnType<typeof createMenuRepository>;
