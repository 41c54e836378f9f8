import type { Menu } from '@signpost/contract';
import type { Executor } from '../../db/client.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { buildMenu } from './menu-tree.ts';
import { createMenuRepository } from './menu.repository.ts';

export function createMenuService(db: Executor) {
  const repo = createMenuRepository(db);
  return {
    /**
     * A weak validator that changes whenever anything in the organization that a menu can
     * show changes (triggers bump the version), so an unchanged menu costs no query.
     */
    etagOf: (me: AuthContext) => `W/"m${me.menuVersion}-${me.userId}"`,

    async getMenu(me: AuthContext): Promise<Menu> {
      return buildMenu(me, await repo.load(me.organizationId, me.userId));
    },
  };
}
