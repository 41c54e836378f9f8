import type { Database } from '../../db/client.ts';
import type { DemoIdpRepository } from './demo-idp.repository.ts';

/** Who the demo identity provider may sign in: the demo organization's active people. */
export function createDemoIdpService({
  db,
  demoIdp,
}: {
  db: Database;
  demoIdp: DemoIdpRepository;
}) {
  return {
    /** The demo organization's id, when the demo data and its demo person are here. */
    findDemoOrganization: () => demoIdp.findDemoOrganization(db),
    /** An active person of the demo organization. */
    findDemoPerson: (organizationId: string, userId: string) =>
      demoIdp.findDemoPerson(db, organizationId, userId),
  };
}
export type DemoIdpService = ReturnType<typeof createDemoIdpService>;
