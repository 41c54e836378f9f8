import { createHash } from 'node:crypto';
import type { Menu } from '@signpost/contract';
import type { Executor } from '../../db/client.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { buildMenu } from './menu-tree.ts';
import { createMenuRepository } from './menu.repository.ts';

export function createMenuService(db: Executor) {
  const repo = createMenuRepository(db);
  return {
    /**
     * A weak validator: a digest of the versions of the scopes the person's menu is built
     * from (read with the session, no statement of its own), so it changes with exactly the
     * changes the person can see (decision 0057), and reveals nothing of the others.
     */
    etagOf: (me: AuthContext) => menuEtag(me.menuScopes),

    async getMenu(me: AuthContext): Promise<Menu> {
      return buildMenu(me, await repo.load(me.organizationId, me.userId));
    },
  };
}

/** The ETag of a menu built at these scope versions (`signpost_menu_scopes`). */
export function menuEtag(scopes: string | null): string {
  if (scopes === null)
    throw new Error('the menu ETag needs the scope versions (config.menuScopes)');
  return `W/"m${createHash('sha256').update(scopes).digest('base64url').slice(0, 27)}"`;
}
