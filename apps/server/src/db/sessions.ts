import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import type { Executor } from './client.ts';
import { sessions } from './schema/index.ts';

/**
 * Ends every live session of the person but `keep` (all of them when it is null); returns
 * how many ended. Shared by signing out elsewhere, changing the password and turning the
 * second factor on (decisions 0047, 0048), which live in different modules.
 */
export async function endSessionsBut(
  db: Executor,
  userId: string,
  keep: string | null,
): Promise<number> {
  const rows = await db
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(
      and(
        eq(sessions.userId, userId),
        isNull(sessions.revokedAt),
        keep ? ne(sessions.id, keep) : undefined,
      ),
    )
    .returning({ id: sessions.id });
  return rows.length;
}
