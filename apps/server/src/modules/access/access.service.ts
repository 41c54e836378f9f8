import type { SpaceType } from '@signpost/contract';
import type { Executor } from '../../db/client.ts';
import { lockCollection } from '../../db/locks.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { forbidden, notFound } from '../../lib/errors.ts';
import {
  createAccessRepository,
  type CollectionAccessRow,
  type LinkAccessRow,
} from './access.repository.ts';

/** What a person has to do with a collection they can see. */
export type Relation =
  'owner' | 'share-member' | 'team-member' | 'team-editor' | 'org-member' | 'org-admin';

export interface CollectionAccess {
  collection: CollectionAccessRow;
  space: SpaceType;
  relation: Relation;
}

export interface LinkAccess {
  link: LinkAccessRow;
  in: CollectionAccess;
}

const READ_ONLY =
  'Team and organization collections are read-only in the portal; suggest a link instead.';
const OWNER_ONLY = 'Only the person who owns this collection can do that.';

function relationOf(me: AuthContext, row: CollectionAccessRow): Relation | null {
  switch (row.ownerType) {
    case 'user':
      if (row.ownerUserId === me.userId) return 'owner';
      return row.shareId && row.isShareMember ? 'share-member' : null;
    case 'team':
      if (row.teamRole === 'editor') return 'team-editor';
      return row.teamRole === 'member' ? 'team-member' : null;
    case 'organization':
      return me.role === 'admin' ? 'org-admin' : 'org-member';
  }
}

/**
 * Every id in a request is authorized here, on its own. Ids of another organization and
 * anything the person cannot see are 404; what they can see but not change is 403.
 */
export function createAccessService(db: Executor) {
  const repo = createAccessRepository(db);

  async function collection(me: AuthContext, id: string, what = 'Collection') {
    const row = await repo.findCollection(me.organizationId, me.userId, id);
    const relation = row ? relationOf(me, row) : null;
    if (!row || !relation) throw notFound(`${what} ${id} was not found`);
    const space: SpaceType = row.ownerType === 'user' ? 'personal' : row.ownerType;
    return { collection: row, space, relation } satisfies CollectionAccess;
  }

  return {
    collection,

    /** A collection the person may add links to: their own, or a share they belong to. */
    async contributable(me: AuthContext, id: string, what = 'Collection') {
      const access = await collection(me, id, what);
      if (access.relation !== 'owner' && access.relation !== 'share-member') {
        throw forbidden(READ_ONLY);
      }
      return access;
    },

    /** A collection the person owns (edit, delete, nest, share, reorder). */
    async owned(me: AuthContext, id: string, what = 'Collection') {
      const access = await collection(me, id, what);
      if (access.relation !== 'owner') {
        throw forbidden(access.space === 'personal' ? OWNER_ONLY : READ_ONLY);
      }
      return access;
    },

    /** A link the person can see, with the collection it is in. */
    async link(me: AuthContext, id: string): Promise<LinkAccess> {
      const link = await repo.findLink(me.organizationId, id);
      if (!link) throw notFound(`Link ${id} was not found`);
      try {
        return { link, in: await collection(me, link.collectionId) };
      } catch {
        throw notFound(`Link ${id} was not found`);
      }
    },

    /**
     * A link the person may change, move or delete: any link in their own collections, and
     * the links they added themselves to a collection shared with them.
     */
    async changeableLink(me: AuthContext, id: string): Promise<LinkAccess> {
      const access = await this.link(me, id);
      const { relation } = access.in;
      if (relation === 'owner') return access;
      if (relation === 'share-member') {
        if (access.link.createdBy === me.userId) return access;
        throw forbidden('Only the person who added this link, or who owns the collection, can.');
      }
      throw forbidden(READ_ONLY);
    },

    /** Holds a collection that items are about to be added to; it may have gone meanwhile. */
    async hold(collectionId: string): Promise<void> {
      if (!(await lockCollection(db, collectionId))) {
        throw notFound(`Collection ${collectionId} was not found`);
      }
    },

    isSelfOrAncestor: repo.isSelfOrAncestor,
  };
}
export type AccessService = ReturnType<typeof createAccessService>;
