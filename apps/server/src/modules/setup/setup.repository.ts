import { and, eq, gt, lte, sql } from 'drizzle-orm';
import { selectRows, type Executor } from '../../db/client.ts';
import { insertPerson } from '../../db/people.ts';
import { organizations, setupCodes } from '../../db/schema/index.ts';

export interface NewAdmin {
  organizationId: string;
  name: string;
  email: string;
  passwordHash: string;
}

/** The SQL of the first run: setup codes, the first organization and its administrator. */
export function createSetupRepository() {
  return {
    async organizationExists(db: Executor): Promise<boolean> {
      const rows = await selectRows(db, sql`SELECT 1 FROM organizations LIMIT 1`);
      return rows.length > 0;
    },

    /**
     * Serializes first runs until the transaction ends: the second of two setups racing
     * waits here, then sees the organization the first one made.
     */
    async lock(db: Executor): Promise<void> {
      await db.execute(sql`SELECT pg_advisory_xact_lock(hashtext('signpost:first-run'))`);
    },

    /** Codes past their expiry work no more; each start clears them away. */
    async deleteExpiredCodes(db: Executor): Promise<void> {
      await db.delete(setupCodes).where(lte(setupCodes.expiresAt, sql`now()`));
    },

    async insertCode(db: Executor, codeHash: string, expiresAt: Date): Promise<void> {
      await db.insert(setupCodes).values({ codeHash, expiresAt });
    },

    /** Whether a printed code with this hash exists and has not expired. */
    async codeIsLive(db: Executor, codeHash: string): Promise<boolean> {
      const rows = await db
        .select({ codeHash: setupCodes.codeHash })
        .from(setupCodes)
        .where(and(eq(setupCodes.codeHash, codeHash), gt(setupCodes.expiresAt, sql`now()`)))
        .limit(1);
      return rows.length > 0;
    },

    /** Every code goes once an organization exists: none of them may set up anything again. */
    async deleteCodes(db: Executor): Promise<void> {
      await db.delete(setupCodes);
    },

    async insertOrganization(db: Executor, id: string, name: string): Promise<void> {
      await db.insert(organizations).values({ id, name });
    },

    /** An active administrator with their own root collection, "My Space". */
    insertAdmin: (db: Executor, admin: NewAdmin): Promise<string> =>
      insertPerson(db, { ...admin, role: 'admin', status: 'active' }),
  };
}
export type SetupRepository = ReturnType<typeof createSetupRepository>;
