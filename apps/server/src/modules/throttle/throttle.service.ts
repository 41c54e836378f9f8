import type { Database } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import { createThrottleRepository, type ThrottleLimit } from './throttle.repository.ts';

export type { ThrottleLimit };

/**
 * Attempts that guess a secret (passwords, second-factor codes, single sign-on starts) are
 * counted per key in the database, so every instance of the server shares the count.
 */
export function createThrottleService(db: Database) {
  const repository = createThrottleRepository(db);
  return {
    /**
     * Admits one attempt and counts it as a failure at once (forgive it on success), or
     * answers how many seconds to wait while any key is blocked.
     */
    admitOrWait: (limits: ThrottleLimit[]): Promise<number> => repository.admit(limits),

    /** Admits one attempt like `admitOrWait`, or throws 429 with Retry-After while blocked. */
    async admit(limits: ThrottleLimit[], what = 'attempts'): Promise<void> {
      const seconds = await repository.admit(limits);
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
    forgive: (keys: string[]) => repository.forgive(keys),

    /** Forgets a key altogether. */
    clear: (key: string) => repository.clear(key),
  };
}
export type ThrottleService = ReturnType<typeof createThrottleService>;
