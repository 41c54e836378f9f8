import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import { REAUTHENTICATION_MINUTES } from '@signpost/contract';
import type { Executor } from '../../db/client.ts';
import { menuScopesWhen, peopleVersionWhen } from '../../db/menu-scopes.ts';
import { endSessionsBut } from '../../db/sessions.ts';
import { organizations, sessions, sessionSso, users } from '../../db/schema/index.ts';

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
  menuScopes: string | null;
  peopleVersion: number | null;
  recentlyAuthenticated: boolean;
}

/** Not revoked, not past its absolute expiry, used within the idle time. */
const live = (idleMinutes: number) =>
  and(
    isNull(sessions.revokedAt),
    gt(sessions.expiresAt, sql`now()`),
    gt(sessions.lastSeenAt, sql`now() - make_interval(mins => ${idleMinutes})`),
  );

/**
 * The statement of `findLive`, built once per executor and prepared: it runs on every
 * signed-in request, and building the query anew each time cost more than running it.
 */
function findLiveStatement(db: Executor) {
  return db
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
      menuScopes: menuScopesWhen(sql`${sql.placeholder('withMenu')}::boolean`),
      peopleVersion: peopleVersionWhen(sql`${sql.placeholder('withPeople')}::boolean`),
      // Decided by the database's clock, like every other time of a session.
      recentlyAuthenticated: sql<boolean>`${sessions.reauthenticatedAt} > now() - ${sql.raw(`interval '${REAUTHENTICATION_MINUTES} minutes'`)}`,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .innerJoin(organizations, eq(organizations.id, users.organizationId))
    .where(
      and(
        eq(sessions.tokenHash, sql.placeholder('tokenHash')),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, sql`now()`),
        gt(
          sessions.lastSeenAt,
          sql`now() - make_interval(mins => ${sql.placeholder('idleMinutes')}::int)`,
        ),
        eq(users.status, 'active'),
      ),
    )
    .limit(1)
    .prepare('signpost_find_live_session');
}

export function createSessionsRepository() {
  const findLive = new WeakMap<Executor, ReturnType<typeof findLiveStatement>>();
  return {
    /** The live session of a token hash, with its person and organization, in one statement. */
    async findLive(
      db: Executor,
      tokenHash: string,
      idleMinutes: number,
      withMenu = false,
      withPeople = false,
    ): Promise<SessionRecord | null> {
      let statement = findLive.get(db);
      if (!statement) {
        statement = findLiveStatement(db);
        findLive.set(db, statement);
      }
      const rows = await statement.execute({ tokenHash, idleMinutes, withMenu, withPeople });
      return rows[0] ?? null;
    },

    async insert(db: Executor, values: typeof sessions.$inferInsert): Promise<void> {
      await db.insert(sessions).values(values);
    },

    async touch(db: Executor, sessionId: string): Promise<void> {
      await db
        .update(sessions)
        .set({ lastSeenAt: sql`now()` })
        .where(eq(sessions.id, sessionId));
    },

    async revoke(db: Executor, sessionId: string): Promise<void> {
      await db
        .update(sessions)
        .set({ revokedAt: sql`now()` })
        .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
    },

    /** A person's live sessions, most recently active first, with how each was opened. */
    async listLive(db: Executor, userId: string, idleMinutes: number) {
      return db
        .select({
          id: sessions.id,
          createdAt: sessions.createdAt,
          lastSeenAt: sessions.lastSeenAt,
          expiresAt: sessions.expiresAt,
          userAgent: sessions.userAgent,
          ssoProviderId: sessionSso.providerId,
        })
        .from(sessions)
        .leftJoin(sessionSso, eq(sessionSso.sessionId, sessions.id))
        .where(and(eq(sessions.userId, userId), live(idleMinutes)))
        .orderBy(desc(sessions.lastSeenAt), desc(sessions.createdAt))
        .limit(200);
    },

    /** Ends one live session of this person; false when there is none with this id. */
    async revokeOwn(
      db: Executor,
      userId: string,
      sessionId: string,
      idleMinutes: number,
    ): Promise<boolean> {
      const rows = await db
        .update(sessions)
        .set({ revokedAt: sql`now()` })
        .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId), live(idleMinutes)))
        .returning({ id: sessions.id });
      return rows.length > 0;
    },

    /** Ends every session of this person except `keep` (all of them when keep is null). */
    revokeOthers(db: Executor, userId: string, keep: string | null): Promise<number> {
      return endSessionsBut(db, userId, keep);
    },

    /** Stamps a live session as re-authenticated now; false when it is not live. */
    async markReauthenticated(db: Executor, sessionId: string, userId: string): Promise<boolean> {
      const rows = await db
        .update(sessions)
        .set({ reauthenticatedAt: sql`now()` })
        .where(
          and(
            eq(sessions.id, sessionId),
            eq(sessions.userId, userId),
            isNull(sessions.revokedAt),
            gt(sessions.expiresAt, sql`now()`),
          ),
        )
        .returning({ id: sessions.id });
      return rows.length > 0;
    },

    async insertSso(db: Executor, values: typeof sessionSso.$inferInsert): Promise<void> {
      await db.insert(sessionSso).values(values);
    },

    async findSso(db: Executor, sessionId: string) {
      const rows = await db
        .select()
        .from(sessionSso)
        .where(eq(sessionSso.sessionId, sessionId))
        .limit(1);
      return rows[0] ?? null;
    },

    /** The person of an e-mail, with what a password sign-in needs to know of them. */
    async findUserByEmail(db: Executor, email: string) {
      const rows = await db
        .select({
          id: users.id,
          name: users.name,
          email: users.email,
          organizationId: users.organizationId,
          passwordHash: users.passwordHash,
          status: users.status,
          passwordSignIn: organizations.passwordSignIn,
        })
        .from(users)
        .innerJoin(organizations, eq(organizations.id, users.organizationId))
        .where(eq(sql`lower(${users.email})`, email.toLowerCase()))
        .limit(1);
      return rows[0] ?? null;
    },

    /** Notes a successful sign-in on the person. */
    async markSignedIn(db: Executor, userId: string): Promise<void> {
      await db
        .update(users)
        .set({ lastSignInAt: sql`now()` })
        .where(eq(users.id, userId));
    },

    async findPasswordHash(db: Executor, userId: string): Promise<string | null> {
      const rows = await db
        .select({ passwordHash: users.passwordHash })
        .from(users)
        .where(eq(users.id, userId))
        .limit(1);
      return rows[0]?.passwordHash ?? null;
    },

    async setPasswordHash(db: Executor, userId: string, passwordHash: string): Promise<void> {
      await db
        .update(users)
        .set({ passwordHash, updatedAt: sql`now()` })
        .where(eq(users.id, userId));
    },
  };
}
export type SessionsRepository = ReturnType<typeof createSessionsRepository>;
