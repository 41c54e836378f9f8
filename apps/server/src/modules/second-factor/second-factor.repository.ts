import { and, count, eq, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { endSessionsBut } from '../../db/sessions.ts';
import { recoveryCodes, secondFactors, users } from '../../db/schema/index.ts';
import { newId } from '../../lib/ids.ts';

export function createSecondFactorRepository() {
  return {
    async find(db: Executor, userId: string) {
      const rows = await db
        .select({
          secret: secondFactors.secret,
          enabledAt: secondFactors.enabledAt,
          lastUsedStep: secondFactors.lastUsedStep,
        })
        .from(secondFactors)
        .where(eq(secondFactors.userId, userId))
        .limit(1);
      return rows[0] ?? null;
    },

    async findAccount(db: Executor, userId: string) {
      const rows = await db
        .select({ email: users.email, passwordHash: users.passwordHash })
        .from(users)
        .where(eq(users.id, userId))
        .limit(1);
      return rows[0] ?? null;
    },

    /** Stores a new, not yet enabled secret; an enabled one is never replaced here. */
    async savePending(db: Executor, userId: string, secret: string): Promise<boolean> {
      const rows = await db
        .insert(secondFactors)
        .values({ userId, secret })
        .onConflictDoUpdate({
          target: secondFactors.userId,
          set: { secret, lastUsedStep: 0, createdAt: sql`now()` },
          setWhere: isNull(secondFactors.enabledAt),
        })
        .returning({ userId: secondFactors.userId });
      return rows.length > 0;
    },

    async enable(db: Executor, userId: string, step: number): Promise<boolean> {
      const rows = await db
        .update(secondFactors)
        .set({ enabledAt: sql`now()`, lastUsedStep: step })
        .where(and(eq(secondFactors.userId, userId), isNull(secondFactors.enabledAt)))
        .returning({ userId: secondFactors.userId });
      return rows.length > 0;
    },

    /**
     * Accepts the code of `step` once: the row moves forward only from an older step, so
     * two requests with the same code cannot both succeed.
     */
    async useStep(db: Executor, userId: string, step: number): Promise<boolean> {
      const rows = await db
        .update(secondFactors)
        .set({ lastUsedStep: step })
        .where(
          and(
            eq(secondFactors.userId, userId),
            isNotNull(secondFactors.enabledAt),
            lt(secondFactors.lastUsedStep, step),
          ),
        )
        .returning({ userId: secondFactors.userId });
      return rows.length > 0;
    },

    async replaceRecoveryCodes(db: Executor, userId: string, hashes: string[]): Promise<void> {
      await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
      await db
        .insert(recoveryCodes)
        .values(hashes.map((codeHash) => ({ id: newId(), userId, codeHash })));
    },

    async useRecoveryCode(db: Executor, userId: string, codeHash: string): Promise<boolean> {
      const rows = await db
        .update(recoveryCodes)
        .set({ usedAt: sql`now()` })
        .where(
          and(
            eq(recoveryCodes.userId, userId),
            eq(recoveryCodes.codeHash, codeHash),
            isNull(recoveryCodes.usedAt),
          ),
        )
        .returning({ id: recoveryCodes.id });
      return rows.length > 0;
    },

    async recoveryCodesLeft(db: Executor, userId: string): Promise<number> {
      const rows = await db
        .select({ n: count() })
        .from(recoveryCodes)
        .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
      return Number(rows[0]?.n ?? 0);
    },

    /**
     * Ends every live session of the person but `keep`: sessions opened before the factor
     * was turned on never passed it (decision 0048). Returns how many ended.
     */
    endOtherSessions(db: Executor, userId: string, keep: string | null): Promise<number> {
      return endSessionsBut(db, userId, keep);
    },

    async remove(db: Executor, userId: string): Promise<void> {
      await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
      await db.delete(secondFactors).where(eq(secondFactors.userId, userId));
    },
  };
}
export type SecondFactorRepository = ReturnType<typeof createSecondFactorRepository>;
