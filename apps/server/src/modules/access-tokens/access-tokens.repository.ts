import { and, count, desc, eq, gt, isNull, lte, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { menuScopesWhen, peopleVersionWhen } from '../../db/menu-scopes.ts';
import { accessTokens, organizations, users } from '../../db/schema/index.ts';

/** Not revoked and not past its expiry. */
const live = () =>
  and(
    isNull(accessTokens.revokedAt),
    or(isNull(accessTokens.expiresAt), gt(accessTokens.expiresAt, sql`now()`)),
  );

/** How many live tokens the person has. */
async function countLive(db: Executor, userId: string): Promise<number> {
  const rows = await db
    .select({ n: count() })
    .from(accessTokens)
    .where(and(eq(accessTokens.userId, userId), live()));
  return Number(rows[0]?.n ?? 0);
}

export function createAccessTokensRepository() {
  return {
    /** The live token of a hash, with its (active) person and organization. */
    async findLive(db: Executor, tokenHash: string, withMenu = false, withPeople = false) {
      const rows = await db
        .select({
          tokenId: accessTokens.id,
          expiresAt: accessTokens.expiresAt,
          lastUsedAt: accessTokens.lastUsedAt,
          userId: users.id,
          name: users.name,
          email: users.email,
          role: users.role,
          organizationId: organizations.id,
          organizationName: organizations.name,
          menuScopes: menuScopesWhen(sql`${withMenu}::boolean`),
          peopleVersion: peopleVersionWhen(sql`${withPeople}::boolean`),
        })
        .from(accessTokens)
        .innerJoin(users, eq(users.id, accessTokens.userId))
        .innerJoin(organizations, eq(organizations.id, users.organizationId))
        .where(and(eq(accessTokens.tokenHash, tokenHash), live(), eq(users.status, 'active')))
        .limit(1);
      return rows[0] ?? null;
    },

    /**
     * Whether the token of a hash is one that only its expiry stops: not revoked, its person
     * active. Asked only after `findLive` found nothing, to word the refusal.
     */
    async isExpired(db: Executor, tokenHash: string): Promise<boolean> {
      const rows = await db
        .select({ id: accessTokens.id })
        .from(accessTokens)
        .innerJoin(users, eq(users.id, accessTokens.userId))
        .where(
          and(
            eq(accessTokens.tokenHash, tokenHash),
            isNull(accessTokens.revokedAt),
            lte(accessTokens.expiresAt, sql`now()`),
            eq(users.status, 'active'),
          ),
        )
        .limit(1);
      return rows.length > 0;
    },

    async touch(db: Executor, tokenId: string): Promise<void> {
      await db
        .update(accessTokens)
        .set({ lastUsedAt: sql`now()` })
        .where(eq(accessTokens.id, tokenId));
    },

    async insert(db: Executor, values: typeof accessTokens.$inferInsert) {
      const rows = await db.insert(accessTokens).values(values).returning();
      return rows[0]!;
    },

    /**
     * Counts the person's live tokens after taking a lock on their tokens until the
     * transaction ends: of two creations at once, the second counts the first's token.
     */
    async lockAndCountLive(db: Executor, userId: string): Promise<number> {
      await db.execute(
        sql`SELECT pg_advisory_xact_lock(hashtext(${`signpost:access-tokens:${userId}`}))`,
      );
      return countLive(db, userId);
    },

    async listLive(db: Executor, userId: string) {
      return db
        .select()
        .from(accessTokens)
        .where(and(eq(accessTokens.userId, userId), live()))
        .orderBy(desc(accessTokens.createdAt), desc(accessTokens.id));
    },

    /** Revokes a live token of this person; its name, or null when there is none. */
    async revoke(db: Executor, userId: string, tokenId: string): Promise<{ name: string } | null> {
      const rows = await db
        .update(accessTokens)
        .set({ revokedAt: sql`now()` })
        .where(and(eq(accessTokens.id, tokenId), eq(accessTokens.userId, userId), live()))
        .returning({ name: accessTokens.name });
      return rows[0] ?? null;
    },

    /** Revokes every live token of this person; how many. */
    async revokeAll(db: Executor, userId: string): Promise<number> {
      const rows = await db
        .update(accessTokens)
        .set({ revokedAt: sql`now()` })
        .where(and(eq(accessTokens.userId, userId), live()))
        .returning({ id: accessTokens.id });
      return rows.length;
    },
  };
}
export type AccessTokensRepository = ReturnType<typeof createAccessTokensRepository>;
