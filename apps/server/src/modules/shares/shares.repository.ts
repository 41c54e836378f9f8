import { and, eq, inArray, sql } from 'drizzle-orm';
import { selectRows, type Executor } from '../../db/client.ts';
import {
  collections,
  collectionShares,
  shareMembers,
  shareOptOuts,
  shareTeams,
  users,
} from '../../db/schema/index.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { conflict } from '../../lib/errors.ts';

export interface ShareRow {
  id: string;
  collectionId: string;
  createdBy: string;
}

export function createSharesRepository() {
  return {
    async find(db: Executor, organizationId: string, id: string): Promise<ShareRow | null> {
      const rows = await db
        .select({
          id: collectionShares.id,
          collectionId: collectionShares.collectionId,
          createdBy: collectionShares.createdBy,
        })
        .from(collectionShares)
        .where(
          and(eq(collectionShares.id, id), eq(collectionShares.organizationId, organizationId)),
        );
      return rows[0] ?? null;
    },

    /**
     * What sharing a collection depends on: whether a collection below it (not itself) is
     * shared, and whether it or any collection below it holds favorites.
     */
    async treeFacts(
      db: Executor,
      collectionId: string,
    ): Promise<{ containsShare: boolean; holdsFavorites: boolean }> {
      const rows = await selectRows<{ containsShare: boolean; holdsFavorites: boolean }>(
        db,
        sql`
        WITH RECURSIVE tree AS (
          SELECT id, 0 AS depth FROM collections WHERE id = ${collectionId}
          UNION ALL
          SELECT c.id, tree.depth + 1 FROM collections c
          JOIN tree ON c.parent_id = tree.id WHERE tree.depth < 100
        )
        SELECT
          EXISTS (SELECT 1 FROM collection_shares s JOIN tree ON tree.id = s.collection_id
                  WHERE tree.depth > 0) AS "containsShare",
          EXISTS (SELECT 1 FROM favorites f JOIN tree ON tree.id = f.collection_id)
            AS "holdsFavorites"`,
      );
      return rows[0] ?? { containsShare: false, holdsFavorites: false };
    },

    /** Of these ids, the ones that are active people of the organization. */
    async findActivePeople(db: Executor, organizationId: string, ids: string[]): Promise<string[]> {
      if (ids.length === 0) return [];
      const rows = await db
        .select({ id: users.id })
        .from(users)
        .where(
          and(
            inArray(users.id, ids),
            eq(users.organizationId, organizationId),
            eq(users.status, 'active'),
          ),
        );
      return rows.map((row) => row.id);
    },

    /** Of these ids, the ones the share names already (members by name, not through a team). */
    async findMembers(db: Executor, shareId: string, ids: string[]): Promise<string[]> {
      if (ids.length === 0) return [];
      const rows = await db
        .select({ id: shareMembers.userId })
        .from(shareMembers)
        .where(
          and(
            eq(shareMembers.shareId, shareId),
            inArray(shareMembers.userId, ids),
            eq(shareMembers.direct, true),
          ),
        );
      return rows.map((row) => row.id);
    },

    /**
     * One member: whether the share names them, and the first of its teams (by name) they
     * are in; null when they are not a member.
     */
    async findMember(
      db: Executor,
      shareId: string,
      userId: string,
    ): Promise<{ direct: boolean; team: string | null } | null> {
      const rows = await selectRows<{ direct: boolean; team: string | null }>(
        db,
        sql`SELECT m.direct,
                   (SELECT t.name FROM share_teams st
                    JOIN team_memberships tm ON tm.team_id = st.team_id AND tm.user_id = m.user_id
                    JOIN teams t ON t.id = st.team_id
                    WHERE st.share_id = m.share_id ORDER BY lower(t.name), t.id LIMIT 1) AS team
            FROM share_members m WHERE m.share_id = ${shareId} AND m.user_id = ${userId}`,
      );
      return rows[0] ?? null;
    },

    /** A member named by the share who is also in one of its teams stays through the team. */
    async keepThroughTeam(db: Executor, shareId: string, userId: string): Promise<void> {
      await db
        .update(shareMembers)
        .set({ direct: false })
        .where(and(eq(shareMembers.shareId, shareId), eq(shareMembers.userId, userId)));
    },

    /**
     * Of these ids, the teams of the organization the person may share with, with their
     * names: the teams they are in, or any team for an administrator.
     */
    async findShareableTeams(
      db: Executor,
      me: { organizationId: string; userId: string; role: 'member' | 'admin' },
      ids: string[],
    ): Promise<{ id: string; name: string }[]> {
      if (ids.length === 0) return [];
      return selectRows<{ id: string; name: string }>(
        db,
        sql`SELECT t.id, t.name FROM teams t
            WHERE t.id = ANY(${sql.param(ids)}::text[])
              AND t.organization_id = ${me.organizationId}
              AND (${me.role === 'admin'}
                   OR EXISTS (SELECT 1 FROM team_memberships tm
                              WHERE tm.team_id = t.id AND tm.user_id = ${me.userId}))`,
      );
    },

    /** Of these teams, the ones the share is for already. */
    async findTeams(db: Executor, shareId: string, ids: string[]): Promise<string[]> {
      if (ids.length === 0) return [];
      const rows = await db
        .select({ id: shareTeams.teamId })
        .from(shareTeams)
        .where(and(eq(shareTeams.shareId, shareId), inArray(shareTeams.teamId, ids)));
      return rows.map((row) => row.id);
    },

    /**
     * The share is for these teams too; the triggers of migration 0023 make their members
     * members. The primary key turns a concurrent second addition into a 409.
     */
    async insertTeams(
      db: Executor,
      shareId: string,
      organizationId: string,
      addedBy: string,
      teamIds: string[],
    ): Promise<void> {
      if (teamIds.length === 0) return;
      try {
        await db
          .insert(shareTeams)
          .values(teamIds.map((teamId) => ({ shareId, teamId, organizationId, addedBy })));
      } catch (error) {
        if (isUniqueViolation(error))
          throw conflict('One of these teams is already in this share.');
        throw error;
      }
    },

    /** The share is no longer for the team; false when it was not. */
    async deleteTeam(db: Executor, shareId: string, teamId: string): Promise<boolean> {
      const rows = await db
        .delete(shareTeams)
        .where(and(eq(shareTeams.shareId, shareId), eq(shareTeams.teamId, teamId)))
        .returning({ teamId: shareTeams.teamId });
      return rows.length > 0;
    },

    /** The person left a share they saw through a team: the team does not bring them back. */
    async optOut(db: Executor, shareId: string, organizationId: string, userId: string) {
      await db
        .insert(shareOptOuts)
        .values({ shareId, organizationId, userId })
        .onConflictDoNothing();
    },

    /** The unique key on the collection turns a concurrent second share into a 409. */
    async insertShare(db: Executor, row: typeof collectionShares.$inferInsert): Promise<void> {
      try {
        await db.insert(collectionShares).values(row);
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict('This collection is already shared.');
        throw error;
      }
    },

    /**
     * The share names these people: a member through a team becomes one by name, and one who
     * had left it comes back. One it names already is a 409.
     */
    async insertMembers(db: Executor, shareId: string, organizationId: string, userIds: string[]) {
      if (userIds.length === 0) return;
      await db
        .delete(shareOptOuts)
        .where(and(eq(shareOptOuts.shareId, shareId), inArray(shareOptOuts.userId, userIds)));
      const rows = await db
        .insert(shareMembers)
        .values(userIds.map((userId) => ({ shareId, userId, organizationId })))
        .onConflictDoUpdate({
          target: [shareMembers.shareId, shareMembers.userId],
          set: { direct: true },
          setWhere: eq(shareMembers.direct, false),
        })
        .returning({ userId: shareMembers.userId });
      // A person named by the share already (a concurrent second addition) is not written again.
      if (rows.length < userIds.length) {
        throw conflict('One of these people is already a member of this share.');
      }
    },

    /** Removes one membership; false when the person was not a member. */
    async deleteMember(db: Executor, shareId: string, userId: string): Promise<boolean> {
      const rows = await db
        .delete(shareMembers)
        .where(and(eq(shareMembers.shareId, shareId), eq(shareMembers.userId, userId)))
        .returning({ userId: shareMembers.userId });
      return rows.length > 0;
    },

    /**
     * Deletes a shared collection. The foreign keys cascade to everything inside it:
     * sub-collections, links, favorites placed there, suggestions, the share and its members.
     */
    async deleteCollection(db: Executor, collectionId: string): Promise<void> {
      await db.delete(collections).where(eq(collections.id, collectionId));
    },
  };
}
export type SharesRepository = ReturnType<typeof createSharesRepository>;
