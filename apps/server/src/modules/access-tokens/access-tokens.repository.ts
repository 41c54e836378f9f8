import { and, count, desc, eq, gt, isNull, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { accessTokens, organizations, users } from '../../db/schema/index.ts';

/** Not revoked and not past its expiry. */
const live = () =>
  and(
    isNull(accessTokens.revokedAt),
    or(isNull(accessTokens.expiresAt), gt(accessTokens.expiresAt, sql`now()`)),
  );

export function createAccessTokensRepository(db: Executor) {
  return {
    /** The live token of a hash, with its (active) person and organization. */
    async findLive(tokenHash: string) {
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
          menuVersion: organizations.menuVersion,
        })
        .from(accessTokens)
        .innerJoin(users, eq(users.id, accessTokens.userId))
        .innerJoin(organizations, eq(organizations.id, users.organizationId))
        .where(and(eq(accessTokens.tokenHash, tokenHash), live(), eq(users.status, 'active')))
        .limit(1);
      return rows[0] ?? null;
    },

    async touch(tokenId: string): Promise<void> {
      await db
        .update(accessTokens)
        .set({ lastUsedAt: sql`now()` })
        .where(eq(accessTokens.id, tokenId));
    },

    async insert(values: typeof accessTokens.$inferInsert) {
      const rows = await db.insert(accessTokens).values(values).returning();
      return rows[0]!;
    },

    async countLive(userId: string): Promise<number> {
      const rows = await db
        .select({ n: count() })
        .from(accessTokens)
        .where(and(eq(accessTokens.userId, userId), live()));
      return Number(rows[0]?.n ?? 0);
    },

    async listLive(userId: string) {
      return db
        .select()
        .from(accessTokens)
        .where(and(eq(accessTokens.userId, userId), live()))
        .orderBy(desc(accessTokens.createdAt), desc(accessTokens.id));
    },

    /** Revokes one live token of this person; false when there is none with this id. */
    /** Revokes a live token of this person; its name, or null when there is none. */
    async revoke(userId: string, tokenId: string): Promise<{ name: string } | null> {
      const rows = await db
        .update(accessTokens)
        .set({ revokedAt: sql`now()` })
        .where(and(eq(accessTokens.id, tokenId), eq(accessTokens.userId, userId), live()))
        .returning({ name: accessTokens.name });
      return rows[0] ?? null;
    },
  };
}
