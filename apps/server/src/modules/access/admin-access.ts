import type { Executor } from '../../db/client.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { forbidden } from '../../lib/errors.ts';
import type { AccessRepository } from './access.repository.ts';

const ADMINS_ONLY = 'Only an administrator of the organization can do that.';
const RUNS_TEAM = 'Only an administrator or an editor of a team can do that.';

/** What a person may run: the whole organization (admins) or some of its teams (editors). */
export interface Stewardship {
  admin: boolean;
  /** The teams the person is an editor of (every team, for an administrator, is implied). */
  editorOf: string[];
}

/**
 * The access layer of the administration calls (decision 0040). Like the portal's, it
 * authorizes every id on its own: anything of another organization is 404 as an unknown id;
 * what a person can see but not run is 403.
 */
export function createAdminAccess({ access: repo }: { access: AccessRepository }) {
  return {
    /** Throws 403 unless the caller administers their organization. */
    admin(me: AuthContext): void {
      if (me.role !== 'admin') throw forbidden(ADMINS_ONLY);
    },

    /** What the caller runs; 403 when they run nothing (neither admin nor an editor). */
    async steward(db: Executor, me: AuthContext): Promise<Stewardship> {
      if (me.role === 'admin') return { admin: true, editorOf: [] };
      const editorOf = await repo.editorTeams(db, me.organizationId, me.userId);
      if (editorOf.length === 0) throw forbidden(RUNS_TEAM);
      return { admin: false, editorOf };
    },
  };
}
export type AdminAccess = ReturnType<typeof createAdminAccess>;
