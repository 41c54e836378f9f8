import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { organizations, sessions, users } from '../../db/schema/index.ts';

export interface SessionRecord {
  sessionId: string;
  expiresAt: Date;
  lastSeenAt: Date;
  userId: string;
  name: string;
  email: string;
  role: 'member' | 'admin';
  organizationId: string;
  organizationName: string;
  menuVersion: number;
}

export function createSessionsRepository(db: Executor) {
  return {
    /** The live session of a token hash, with its person and organization, in one statement. */
    async findLive(tokenHash: string, idleMinutes: number): Promise<SessionRecord | null> {
      const rows = await db
        .select({
          sessionId: sessions.id,
          expiresAt: sessions.expiresAt,
          lastSeenAt: sessions.lastSeenAt,
          userId: users.id,
          name: users.name,
          email: users.email,
          role: users.role,
          organizationId: organizations.id,
          organizationName: organizations.name,
          menuVersion: organizations.menuVersion,
        })
        .from(sessions)
        .innerJoin(users, eq(users.id, sessions.userId))
        .innerJoin(organizations, eq(organizations.id, users.organizationId))
        .where(
          and(
            eq(sessions.tokenHash, tokenHash),
            isNull(sessions.revokedAt),
            gt(sessions.expiresAt, sql`now()`),
            gt(sessions.lastSeenAt, sql`now() - make_interval(mins => ${idleMinutes})`),
            eq(users.status, 'active'),
          ),
        )
        .limit(1);
      return rows[0] ?? null;
    },

    async insert(values: typeof sessions.$inferInsert): Promise<void> {
      await db.insert(sessions).values(values);
    },

    async touch(sessionId: string): Promise<void> {
      await db
        .update(sessions)
        .set({ lastSeenAt: sql`now()` })
        .where(eq(sessions.id, sessionId));
    },

    async revoke(sessionId: string): Promise<void> {
      await db
        .update(sessions)
        .set({ revokedAt: sql`now()` })
        .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
    },

    async findUserByEmail(email: string) {
      const rows = await db
        .select({
          id: users.id,
          passwordHash: users.passwordHash,
          status: users.status,
        })
        .from(users)
        .where(eq(sql`lower(${users.email})`, email.toLowerCase()))
        .limit(1);
      return rows[0] ?? null;
    },
  };
}
export type SessionsRepository = ReturnType<typeof createSessionsRepository>;
