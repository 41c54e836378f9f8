import { sql, type SQL } from 'drizzle-orm';
import { selectRows, type Executor } from '../../db/client.ts';

export interface TeamRow {
  id: string;
  name: string;
  buddyId: string | null;
}

export interface TeamListRow {
  id: string;
  name: string;
  createdAt: Date | string;
  memberCount: number;
  editorCount: number;
  buddy: { id: string; name: string; email: string } | null;
}

export interface TeamMemberRow {
  id: string;
  name: string;
  email: string;
  status: 'active' | 'invited' | 'disabled';
  role: 'member' | 'editor';
  addedAt: Date | string;
  sources: ('console' | 'scim' | 'sign-in')[];
}

export interface PersonRow {
  id: string;
  name: string;
  email: string;
  status: string;
}

/** Makes `%`, `_` and `\` match themselves in a LIKE pattern with ESCAPE '\'. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
const contains = (text: string) => sql`('%' || lower(${escapeLike(text)}::text) || '%')`;
const idList = (ids: string[]) =>
  sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  );

const TEAM_COLUMNS = sql`t.id, t.name, t.created_at AS "createdAt",
  (SELECT count(*) FROM team_memberships m WHERE m.team_id = t.id)::int AS "memberCount",
  (SELECT count(*) FROM team_memberships m WHERE m.team_id = t.id AND m.role = 'editor')::int
    AS "editorCount",
  CASE WHEN b.id IS NULL THEN NULL
       ELSE json_build_object('id', b.id, 'name', b.name, 'email', b.email) END AS buddy`;

export function createTeamsRepository() {
  return {
    /** A page of the organization's teams by name, after the team `after` (keyset). */
    async list(db: Executor, organizationId: string, query: string, limit: number, after?: string) {
      const conditions: SQL[] = [sql`t.organization_id = ${organizationId}`];
      if (query) conditions.push(sql`lower(t.name) LIKE ${contains(query)} ESCAPE '\\'`);
      if (after) {
        conditions.push(sql`(lower(t.name), t.id) > (SELECT lower(name), id FROM teams
          WHERE id = ${after} AND organization_id = ${organizationId})`);
      }
      return selectRows<TeamListRow>(
        db,
        sql`SELECT ${TEAM_COLUMNS} FROM teams t LEFT JOIN users b ON b.id = t.buddy_id
            WHERE ${sql.join(conditions, sql` AND `)}
            ORDER BY lower(t.name), t.id LIMIT ${limit}`,
      );
    },

    /** One team of the organization with its counts, or undefined. */
    async summary(
      db: Executor,
      organizationId: string,
      id: string,
    ): Promise<TeamListRow | undefined> {
      const rows = await selectRows<TeamListRow>(
        db,
        sql`SELECT ${TEAM_COLUMNS} FROM teams t LEFT JOIN users b ON b.id = t.buddy_id
            WHERE t.id = ${id} AND t.organization_id = ${organizationId}`,
      );
      return rows[0];
    },

    /**
     * A team of the organization, its row held until the transaction ends when `lock`:
     * every change to a team or its members takes it first, so that two administrators'
     * changes to one team run one after the other (and a deleted team is seen as gone).
     */
    async find(
      db: Executor,
      organizationId: string,
      id: string,
      lock = false,
    ): Promise<TeamRow | undefined> {
      const rows = await selectRows<TeamRow>(
        db,
        sql`SELECT id, name, buddy_id AS "buddyId" FROM teams
            WHERE id = ${id} AND organization_id = ${organizationId}
            ${lock ? sql`FOR UPDATE` : sql``}`,
      );
      return rows[0];
    },

    /** How many collections (nested ones too) and links deleting the team deletes. */
    async contents(db: Executor, teamId: string): Promise<{ collections: number; links: number }> {
      const rows = await selectRows<{ collections: number; links: number }>(
        db,
        sql`SELECT (SELECT count(*) FROM collections WHERE owner_team_id = ${teamId})::int
                     AS collections,
                   (SELECT count(*) FROM links l JOIN collections c ON c.id = l.collection_id
                    WHERE c.owner_team_id = ${teamId})::int AS links`,
      );
      return rows[0] ?? { collections: 0, links: 0 };
    },

    async insert(db: Executor, values: { id: string; organizationId: string; name: string }) {
      await db.execute(
        sql`INSERT INTO teams (id, organization_id, name)
            VALUES (${values.id}, ${values.organizationId}, ${values.name})`,
      );
    },

    async update(db: Executor, id: string, fields: { name?: string; buddyId?: string | null }) {
      const sets: SQL[] = [];
      if (fields.name !== undefined) sets.push(sql`name = ${fields.name}`);
      if (fields.buddyId !== undefined) sets.push(sql`buddy_id = ${fields.buddyId}`);
      if (sets.length === 0) return;
      await db.execute(sql`UPDATE teams SET ${sql.join(sets, sql`, `)} WHERE id = ${id}`);
    },

    /** Deletes a team; its collections, their links and its memberships go with it. */
    async delete(db: Executor, id: string) {
      await db.execute(sql`DELETE FROM teams WHERE id = ${id}`);
    },

    /** A page of a team's members by name, after the person `after` (keyset). */
    async members(
      db: Executor,
      teamId: string,
      filter: { query: string; role?: string; limit: number; after?: string },
    ) {
      const conditions: SQL[] = [sql`m.team_id = ${teamId}`];
      if (filter.query) {
        const pattern = contains(filter.query);
        conditions.push(
          sql`(lower(u.name) LIKE ${pattern} ESCAPE '\\' OR lower(u.email) LIKE ${pattern} ESCAPE '\\')`,
        );
      }
      if (filter.role) conditions.push(sql`m.role = ${filter.role}`);
      if (filter.after) {
        conditions.push(
          sql`(lower(u.name), u.id) > (SELECT lower(name), id FROM users WHERE id = ${filter.after})`,
        );
      }
      return selectRows<TeamMemberRow>(
        db,
        sql`SELECT u.id, u.name, u.email, u.status, m.role, m.created_at AS "addedAt",
                   array_remove(ARRAY[CASE WHEN m.from_console THEN 'console' END,
                                      CASE WHEN m.from_scim THEN 'scim' END,
                                      CASE WHEN m.from_sign_in THEN 'sign-in' END], NULL) AS sources
            FROM team_memberships m JOIN users u ON u.id = m.user_id
            WHERE ${sql.join(conditions, sql` AND `)}
            ORDER BY lower(u.name), u.id LIMIT ${filter.limit}`,
      );
    },

    /** The people of the organization among `ids`, whatever their status. */
    async people(db: Executor, organizationId: string, ids: string[]): Promise<PersonRow[]> {
      return selectRows<PersonRow>(
        db,
        sql`SELECT id, name, email, status FROM users
            WHERE organization_id = ${organizationId} AND id IN (${idList(ids)})`,
      );
    },

    /** The roles of those of `ids` who are in the team. */
    async memberships(db: Executor, teamId: string, ids: string[]) {
      return selectRows<{ userId: string; role: 'member' | 'editor' }>(
        db,
        sql`SELECT user_id AS "userId", role FROM team_memberships
            WHERE team_id = ${teamId} AND user_id IN (${idList(ids)})`,
      );
    },

    /**
     * Adds people to a team by hand; those already in keep their role, and a membership SCIM
     * or a sign-in made is now also one made by hand, which no sync removes (decision 0084).
     * Returns who was added.
     */
    async addMembers(
      db: Executor,
      team: { id: string; organizationId: string },
      ids: string[],
      role: string,
    ) {
      const values = sql.join(
        ids.map((id) => sql`(${team.id}, ${id}, ${team.organizationId}, ${role})`),
        sql`, `,
      );
      const rows = await selectRows<{ userId: string; added: boolean }>(
        db,
        sql`INSERT INTO team_memberships (team_id, user_id, organization_id, role)
            VALUES ${values}
            ON CONFLICT (team_id, user_id) DO UPDATE SET from_console = true
              WHERE NOT team_memberships.from_console
            RETURNING user_id AS "userId", xmax = 0 AS added`,
      );
      return rows.filter((row) => row.added).map((row) => row.userId);
    },

    /** Takes people out of a team. Returns who was in it, with the role they had. */
    async removeMembers(db: Executor, teamId: string, ids: string[]) {
      return selectRows<{ userId: string; role: 'member' | 'editor' }>(
        db,
        sql`DELETE FROM team_memberships WHERE team_id = ${teamId} AND user_id IN (${idList(ids)})
            RETURNING user_id AS "userId", role`,
      );
    },

    async setRole(db: Executor, teamId: string, userId: string, role: string) {
      await db.execute(
        sql`UPDATE team_memberships SET role = ${role}
            WHERE team_id = ${teamId} AND user_id = ${userId}`,
      );
    },
  };
}
export type TeamsRepository = ReturnType<typeof createTeamsRepository>;
