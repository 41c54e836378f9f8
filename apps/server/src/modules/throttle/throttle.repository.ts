import { inArray, sql } from 'drizzle-orm';
import { selectRows, type Database } from '../../db/client.ts';
import { loginThrottle } from '../../db/schema/index.ts';

/** One counter of attempts: at `max` within a fixed window, its key is blocked. */
export interface ThrottleLimit {
  key: string;
  max: number;
  windowSeconds: number;
  /** How long a block lasts (never past the end of the window). */
  blockSeconds: number;
}

class Blocked extends Error {
  constructor(readonly seconds: number) {
    super('blocked');
  }
}

export function createThrottleRepository() {
  return {
    /**
     * Admits one attempt, or answers how many seconds to wait. An admitted attempt is counted
     * as a failure at once, before the slow password check, and forgiven if it succeeds:
     * checking and counting under a row lock (keys locked in one order) means attempts sent
     * all at once cannot slip past the limit together.
     */
    async admit(db: Database, limits: ThrottleLimit[]): Promise<number> {
      const sorted = [...limits].sort((a, b) => (a.key < b.key ? -1 : 1));
      try {
        await db.transaction(async (tx) => {
          let wait = 0;
          for (const { key, windowSeconds } of sorted) {
            await tx.execute(sql`
              INSERT INTO login_throttle (key, window_started_at, failures)
              VALUES (${key}, now(), 0) ON CONFLICT (key) DO NOTHING`);
            const [row] = await selectRows<{ wait: number }>(
              tx,
              sql`
              SELECT CASE
                       WHEN window_started_at <= now() - make_interval(secs => ${windowSeconds}::int) THEN 0
                       ELSE coalesce(ceil(extract(epoch FROM blocked_until - now())), 0)
                     END::int AS wait
              FROM login_throttle WHERE key = ${key} FOR UPDATE`,
            );
            wait = Math.max(wait, Number(row?.wait ?? 0));
          }
          if (wait > 0) throw new Blocked(wait);
          for (const { key, max, windowSeconds, blockSeconds } of sorted) {
            // Every expression reads the row as it was: a window that has ended starts again.
            await tx.execute(sql`
              UPDATE login_throttle AS t SET
                window_started_at = CASE WHEN t.window_started_at <= now() - make_interval(secs => ${windowSeconds}::int)
                                         THEN now() ELSE t.window_started_at END,
                failures = CASE WHEN t.window_started_at <= now() - make_interval(secs => ${windowSeconds}::int)
                                THEN 1 ELSE t.failures + 1 END,
                blocked_until = CASE
                  WHEN t.window_started_at <= now() - make_interval(secs => ${windowSeconds}::int)
                    THEN CASE WHEN 1 >= ${max}::int
                              THEN now() + make_interval(secs => least(${windowSeconds}::int, ${blockSeconds}::int))
                         END
                  WHEN t.failures + 1 >= ${max}::int
                    THEN least(t.window_started_at + make_interval(secs => ${windowSeconds}::int),
                               now() + make_interval(secs => ${blockSeconds}::int))
                END
              WHERE t.key = ${key}`);
          }
        });
        return 0;
      } catch (error) {
        if (error instanceof Blocked) return error.seconds;
        throw error;
      }
    },

    /** Takes back the failure an admitted attempt was counted as, when it succeeded. */
    async forgive(db: Database, keys: string[]): Promise<void> {
      await db
        .update(loginThrottle)
        .set({ failures: sql`greatest(${loginThrottle.failures} - 1, 0)`, blockedUntil: null })
        .where(inArray(loginThrottle.key, keys));
    },

    async clear(db: Database, key: string): Promise<void> {
      await db.delete(loginThrottle).where(inArray(loginThrottle.key, [key]));
    },
  };
}
export type ThrottleRepository = ReturnType<typeof createThrottleRepository>;
