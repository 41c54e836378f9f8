import { sql } from 'drizzle-orm';
import { selectRows, type Executor } from './client.ts';

/**
 * Holds a person's row until the transaction ends. Every change to the shape of a person's
 * tree takes it first — creating or moving a collection, sharing one, placing a favorite —
 * so those changes run one after the other and each sees the others' outcome: no cycle, no
 * nesting past the limit, no nested share, no favorite in a shared tree.
 */
export async function lockPerson(db: Executor, userId: string): Promise<void> {
  await selectRows(db, sql`SELECT 1 FROM users WHERE id = ${userId} FOR UPDATE`);
}

/**
 * Holds one collection row while items are added to it or reordered, so that positions
 * stay distinct. False when the collection has gone meanwhile.
 */
export async function lockCollection(db: Executor, collectionId: string): Promise<boolean> {
  const rows = await selectRows(
    db,
    sql`SELECT id FROM collections WHERE id = ${collectionId} FOR UPDATE`,
  );
  return rows.length > 0;
}
