import { sql } from 'drizzle-orm';
import { selectRows, type Executor } from './client.ts';

/**
 * Holds a person's row until the transaction ends. Changes that must see each other's
 * outcome take it first, so they run one after the other: sharing a collection and putting a
 * favorite into it (favorites stay private), or two shares that could nest.
 */
export async function lockPerson(db: Executor, userId: string): Promise<void> {
  await selectRows(db, sql`SELECT 1 FROM users WHERE id = ${userId} FOR UPDATE`);
}
