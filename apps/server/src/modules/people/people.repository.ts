import type { PersonRole, PersonStatus } from '@signpost/contract';
import { sql } from 'drizzle-orm';
import { selectRows, type Executor } from '../../db/client.ts';
import { insertPerson, type NewPerson } from '../../db/people.ts';
import { peopleListQuery, peopleRowsQuery, type PeopleFilter } from './people-list.query.ts';

export interface PersonRecord {
  id: string;
  name: string;
  email: string;
  role: PersonRole;
  status: PersonStatus;
}

export interface PersonListRow extends PersonRecord {
  lastSignInAt: Date | string | null;
  createdAt: Date | string;
  hasPassword: boolean;
  hasSso: boolean;
  secondFactor: boolean;
  teamCount: number;
  teams: string[];
  /** `lower(name)` as the database lowers it: where the person stands in the list's order. */
  sortName: string;
}

export interface SharedCollection {
  id: string;
  name: string;
  shareId: string;
  memberCount: number;
}

const PERSON = sql`id, name, email, role, status`;

/** SQL of the people console: people, their sessions, tokens and shared collections. */
export function createPeopleRepository() {
  return {
    /** The rows of one page (one more than the page, to tell whether another follows). */
    async page(db: Executor, filter: PeopleFilter, teamNames: number) {
      return selectRows<PersonListRow>(db, peopleListQuery(filter, teamNames));
    },

    async rows(db: Executor, ids: string[], teamNames: number) {
      return selectRows<PersonListRow>(db, peopleRowsQuery(ids, teamNames));
    },

    /** People of the organization by id, locked until the transaction ends, in id order. */
    async lockPeople(db: Executor, organizationId: string, ids: string[]): Promise<PersonRecord[]> {
      return selectRows<PersonRecord>(
        db,
        sql`SELECT ${PERSON} FROM users
            WHERE organization_id = ${organizationId} AND id = ANY(${sql.param(ids)}::text[])
            ORDER BY id FOR UPDATE`,
      );
    },

    async find(db: Executor, organizationId: string, id: string): Promise<PersonRecord | null> {
      const rows = await selectRows<PersonRecord>(
        db,
        sql`SELECT ${PERSON} FROM users WHERE organization_id = ${organizationId} AND id = ${id}`,
      );
      return rows[0] ?? null;
    },

    async emailTaken(
      db: Executor,
      email: string,
      exceptId: string | null = null,
    ): Promise<boolean> {
      const rows = await selectRows(
        db,
        sql`SELECT 1 FROM users WHERE lower(email) = lower(${email})
              AND (${exceptId}::text IS NULL OR id <> ${exceptId})`,
      );
      return rows.length > 0;
    },

    /**
     * Serializes every change that could leave the organization without an active
     * administrator, then counts them: two such changes at once run one after the other.
     */
    async lockAndCountAdmins(db: Executor, organizationId: string): Promise<number> {
      await selectRows(
        db,
        sql`SELECT pg_advisory_xact_lock(hashtext(${`admins:${organizationId}`}))`,
      );
      const rows = await selectRows<{ n: number }>(
        db,
        sql`SELECT count(*)::int AS n FROM users
            WHERE organization_id = ${organizationId} AND role = 'admin' AND status = 'active'`,
      );
      return rows[0]?.n ?? 0;
    },

    /** A new person and their My Space. */
    insert: (db: Executor, values: NewPerson): Promise<string> => insertPerson(db, values),

    async update(
      db: Executor,
      id: string,
      values: Partial<{ name: string; email: string; role: PersonRole; status: PersonStatus }>,
    ): Promise<void> {
      const sets = Object.entries(values)
        .filter(([, value]) => value !== undefined)
        .map(([key, value]) => sql`${sql.identifier(key)} = ${value}`);
      if (sets.length === 0) return;
      await db.execute(
        sql`UPDATE users SET ${sql.join(sets, sql`, `)}, updated_at = now() WHERE id = ${id}`,
      );
    },

    /**
     * Notes whether SCIM disabled the person (it enables again only whom it disabled); any
     * other change of status clears the note (decision 0084).
     */
    async setScimDisabled(db: Executor, id: string, disabled: boolean): Promise<void> {
      await db.execute(
        sql`UPDATE users SET scim_disabled_at = ${disabled ? sql`now()` : sql`NULL`} WHERE id = ${id}`,
      );
    },

    /**
     * Ends every session of these people and, unless told otherwise, revokes every access
     * token of theirs; how many of each.
     */
    async endSessions(
      db: Executor,
      ids: string[],
      { accessTokens = true }: { accessTokens?: boolean } = {},
    ): Promise<{ sessions: number; accessTokens: number }> {
      const sessions = await selectRows(
        db,
        sql`UPDATE sessions SET revoked_at = now()
            WHERE user_id = ANY(${sql.param(ids)}::text[]) AND revoked_at IS NULL RETURNING id`,
      );
      const tokens = accessTokens
        ? await selectRows(
            db,
            sql`UPDATE access_tokens SET revoked_at = now()
                WHERE user_id = ANY(${sql.param(ids)}::text[]) AND revoked_at IS NULL
                RETURNING id`,
          )
        : [];
      return { sessions: sessions.length, accessTokens: tokens.length };
    },

    /** Removes a person's second factor and recovery codes; false when they had none. */
    async resetSecondFactor(db: Executor, id: string): Promise<boolean> {
      await db.execute(sql`DELETE FROM recovery_codes WHERE user_id = ${id}`);
      const rows = await selectRows(
        db,
        sql`DELETE FROM second_factors WHERE user_id = ${id} RETURNING enabled_at`,
      );
      return rows.length > 0;
    },

    /** The shared collections a person owns, with how many members each has (them aside). */
    async sharedCollections(
      db: Executor,
      userIds: string[],
    ): Promise<(SharedCollection & { ownerId: string })[]> {
      return selectRows(
        db,
        sql`SELECT c.id, c.name, s.id AS "shareId", c.owner_user_id AS "ownerId",
                   (SELECT count(*)::int FROM share_members m
                    WHERE m.share_id = s.id AND m.user_id <> c.owner_user_id) AS "memberCount"
            FROM collection_shares s JOIN collections c ON c.id = s.collection_id
            WHERE c.owner_user_id = ANY(${sql.param(userIds)}::text[])
            ORDER BY lower(c.name), c.id`,
      );
    },

    /**
     * Gives a shared collection (and everything inside it) to another person: it moves to
     * the end of their My Space, they own and run the share, its members stay.
     */
    async transferShared(
      db: Executor,
      collection: SharedCollection,
      organizationId: string,
      toUserId: string,
    ) {
      await db.execute(sql`
        WITH RECURSIVE tree AS (
          SELECT id FROM collections WHERE id = ${collection.id}
          UNION ALL
          SELECT c.id FROM collections c JOIN tree ON c.parent_id = tree.id
        )
        UPDATE collections SET owner_user_id = ${toUserId}, updated_at = now()
        WHERE id IN (SELECT id FROM tree)`);
      await db.execute(sql`
        UPDATE collections SET
          parent_id = (SELECT id FROM collections WHERE owner_user_id = ${toUserId} AND is_root),
          position = COALESCE((SELECT max(position) + 1 FROM collections
                               WHERE parent_id = (SELECT id FROM collections
                                                  WHERE owner_user_id = ${toUserId} AND is_root)), 0)
        WHERE id = ${collection.id}`);
      await db.execute(
        sql`UPDATE collection_shares SET created_by = ${toUserId} WHERE id = ${collection.shareId}`,
      );
      await db.execute(
        sql`INSERT INTO share_members (share_id, user_id, organization_id)
            VALUES (${collection.shareId}, ${toUserId}, ${organizationId})
            ON CONFLICT DO NOTHING`,
      );
    },

    async deleteCollection(db: Executor, id: string): Promise<void> {
      await db.execute(sql`DELETE FROM collections WHERE id = ${id}`);
    },

    async deletePeople(db: Executor, ids: string[]): Promise<void> {
      await db.execute(sql`DELETE FROM users WHERE id = ANY(${sql.param(ids)}::text[])`);
    },
  };
}
export type PeopleRepository = ReturnType<typeof createPeopleRepository>;
