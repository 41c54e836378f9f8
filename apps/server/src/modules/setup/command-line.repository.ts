import { and, eq, isNull, sql } from 'drizzle-orm';
import { selectRows, type Executor } from '../../db/client.ts';
import {
  accessTokens,
  sessions,
  users,
  type OrganizationRole,
  type UserStatus,
} from '../../db/schema/index.ts';

export interface PersonRow {
  id: string;
  organizationId: string;
  name: string;
  email: string;
  role: OrganizationRole;
  status: UserStatus;
}

/** The SQL of the administration commands (`npm run admin`). */
export function createCommandLineRepository() {
  return {
    /** The person with this e-mail (any case), locked until the transaction ends. */
    async lockPersonByEmail(db: Executor, email: string): Promise<PersonRow | null> {
      const rows = await selectRows<PersonRow>(
        db,
        sql`SELECT id, organization_id AS "organizationId", name, email, role, status
            FROM users WHERE lower(email) = ${email.toLowerCase()} FOR UPDATE`,
      );
      return rows[0] ?? null;
    },

    async update(
      db: Executor,
      id: string,
      values: Partial<{ passwordHash: string; status: UserStatus }>,
    ): Promise<void> {
      await db
        .update(users)
        .set({ ...values, updatedAt: sql`now()` })
        .where(eq(users.id, id));
    },

    /**
     * Ends every session and revokes every access token of the person, for good (enabling
     * them again brings neither back); how many of each.
     */
    async endSessions(
      db: Executor,
      userId: string,
    ): Promise<{ sessions: number; accessTokens: number }> {
      const ended = await db
        .update(sessions)
        .set({ revokedAt: sql`now()` })
        .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)))
        .returning({ id: sessions.id });
      const revoked = await db
        .update(accessTokens)
        .set({ revokedAt: sql`now()` })
        .where(and(eq(accessTokens.userId, userId), isNull(accessTokens.revokedAt)))
        .returning({ id: accessTokens.id });
      return { sessions: ended.length, accessTokens: revoked.length };
    },
  };
}
export type CommandLineRepository = ReturnType<typeof createCommandLineRepository>;
