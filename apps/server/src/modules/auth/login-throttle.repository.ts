import { and, gt, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { loginThrottle } from '../../db/schema/index.ts';

export function createLoginThrottleRepository(db: Executor) {
  return {
    /** Seconds until the longest block among these keys ends; 0 when none is blocked. */
    async blockedFor(keys: string[]): Promise<number> {
      const rows = await db
        .select({
          seconds: sql<string>`ceil(extract(epoch from max(${loginThrottle.blockedUntil}) - now()))`,
        })
        .from(loginThrottle)
        .where(and(inArray(loginThrottle.key, keys), gt(loginThrottle.blockedUntil, sql`now()`)));
      return Number(rows[0]?.seconds ?? 0);
    },

    /**
     * Counts one failure for a key within a fixed window; once the count reaches `max`, the
     * key is blocked for `blockSeconds` (never past the end of its window).
     */
    async recordFailure(key: string, max: number, windowSeconds: number, blockSeconds: number) {
      await db.execute(sql`
        INSERT INTO login_throttle AS t (key, window_started_at, failures)
        VALUES (${key}, now(), 1)
        ON CONFLICT (key) DO UPDATE SET
          failures = CASE WHEN t.window_started_at <= now() - make_interval(secs => ${windowSeconds})
                          THEN 1 ELSE t.failures + 1 END,
          window_started_at = CASE WHEN t.window_started_at <= now() - make_interval(secs => ${windowSeconds})
                                   THEN now() ELSE t.window_started_at END,
          blocked_until = CASE WHEN t.window_started_at <= now() - make_interval(secs => ${windowSeconds})
                               THEN NULL ELSE t.blocked_until END`);
      await db.execute(sql`
        UPDATE login_throttle SET blocked_until = least(
          window_started_at + make_interval(secs => ${windowSeconds}),
          now() + make_interval(secs => ${blockSeconds}))
        WHERE key = ${key} AND failures >= ${max}`);
    },

    async clear(key: string): Promise<void> {
      await db.delete(loginThrottle).where(inArray(loginThrottle.key, [key]));
    },
  };
}
