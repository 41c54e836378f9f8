import type { Database } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import type { ThrottleLimit, ThrottleRepository } from './throttle.repository.ts';

export type { ThrottleLimit };

/**
 * Attempts that guess a secret (passwords, second-factor codes, single sign-on starts) are
 * counted per key in the database, so every instance of the server shares the count.
 */
export function createThrottleService({
  db,
  throttle: repository,
}: {
  db: Database;
  throttle: ThrottleRepository;
}) {
  return {
    /**
     * Admits one attempt and counts it as a failure at once (forgive it on success), or
     * answers how many seconds to wait while any key is blocked.
     */
    admitOrWait: (limits: ThrottleLimit[]): Promise<number> => repository.admit(db, limits),

    /** Admits one attempt like `admitOrWait`, or throws 429 with Retry-After while blocked. */
    async admit(limits: ThrottleLimit[], what = 'attempts'): Promise<void> {
      const seconds = await repository.admit(db, limits);
      if (seconds > 0) {
        throw new AppError(
          429,
          'RATE_LIMITED',
          `Too many ${what}. Try again in ${seconds} seconds.`,
          { 'Retry-After': String(seconds) },
        );
      }
    },

    /** Takes back the failure an admitted attempt was counted as, when it succeeded. */
    forgive: (keys: string[]) => repository.forgive(db, keys),

    /** Forgets a key altogether. */
    clear: (key: string) => repository.clear(db, key),
  };
}
export type ThrottleService = ReturnType<typeof createThrottleService>;
