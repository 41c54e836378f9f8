import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { organizations, users } from '../../db/schema/index.ts';
import { DEMO_EMAIL } from '../../db/seed/demo.ts';
import { ORGANIZATION_NAME } from '../../db/seed/demo-data.ts';

/** The demo organization and the people the demo provider may sign in. */
export function createDemoIdpRepository() {
  return {
    /** The demo organization's id, when the demo data and its demo person are here. */
    async findDemoOrganization(db: Executor): Promise<string | null> {
      const rows = await db
        .select({ id: organizations.id })
        .from(organizations)
        .innerJoin(users, eq(users.organizationId, organizations.id))
        .where(and(eq(organizations.name, ORGANIZATION_NAME), eq(users.email, DEMO_EMAIL)))
        .limit(1);
      return rows[0]?.id ?? null;
    },

    /** An active person of the demo organization. */
    async findDemoPerson(db: Executor, organizationId: string, userId: string) {
      const rows = await db
        .select({ id: users.id, email: users.email, name: users.name })
        .from(users)
        .where(
          and(
            eq(users.id, userId),
            eq(users.organizationId, organizationId),
            eq(users.status, 'active'),
          ),
        )
        .limit(1);
      return rows[0] ?? null;
    },
  };
}

export type DemoIdpRepository = ReturnType<typeof createDemoIdpRepository>;
