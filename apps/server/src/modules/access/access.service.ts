import type { CollectionCan, SpaceType } from '@signpost/contract';
import type { Executor } from '../../db/client.ts';
import { lockCollection } from '../../db/locks.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { conflict, forbidden, notFound } from '../../lib/errors.ts';
import type { AccessRepository, CollectionAccessRow, LinkAccessRow } from './access.repository.ts';
import { collectionCan, linkCan, runs, type Relation } from './permissions.ts';

export type { Relation } from './permissions.ts';

export interface CollectionAccess {
  collection: CollectionAccessRow;
  space: SpaceType;
  relation: Relation;
  can: CollectionCan;
}

export interface LinkAccess {
  link: LinkAccessRow;
  in: CollectionAccess;
}

/** A team or organization space whose top level the person may add collections to. */
export interface SpaceAccess {
  type: 'team' | 'organization';
  id: string;
  name: string;
  relation: Relation;
}

const READ_ONLY =
  'Only the editors of this team or an administrator can change it; suggest a link instead.';
const ORGANIZATION_READ_ONLY =
  'Only an administrator can change the organization space; suggest a link instead.';
const OWNER_ONLY = 'Only the person who owns this collection can do that.';
const OTHER_SPACE =
  'Team and organization content stays in its own space: move it only between collections of that space.';

/**
 * The person's relation to a collection, or null when they cannot see it. An administrator
 * runs every team of the organization (decision 0008).
 */
function relationOf(me: AuthContext, row: CollectionAccessRow): Relation | null {
  switch (row.ownerType) {
    case 'user':
      if (row.ownerUserId === me.userId) return 'owner';
      return row.shareId && row.isShareMember ? 'share-member' : null;
    case 'team':
      if (row.teamRole === 'editor' || (row.teamRole && me.role === 'admin')) return 'team-editor';
      if (me.role === 'admin') return 'team-admin';
      return row.teamRole === 'member' ? 'team-member' : null;
    case 'organization':
      return me.role === 'admin' ? 'org-admin' : 'org-member';
  }
}

function refusal(access: CollectionAccess): string {
  if (access.space === 'personal') return OWNER_ONLY;
  return access.space === 'team' ? READ_ONLY : ORGANIZATION_READ_ONLY;
}

/** Whether content may go from one collection to another: never out of its own space. */
export function sameOwner(a: CollectionAccessRow, b: CollectionAccessRow): boolean {
  if (a.ownerType === 'user' && b.ownerType === 'user') return true;
  return a.ownerType === b.ownerType && a.ownerTeamId === b.ownerTeamId;
}

/**
 * Every id in a request is authorized here, on its own. Ids of another organization and
 * anything the person cannot see are 404; what they can see but not change is 403. What
 * they may do is decided by permissions.ts, the same rules the menu's `can` flags show.
 */
export function createAccessService({ access: repo }: { access: AccessRepository }) {
  async function collection(
    db: Executor,
    me: AuthContext,
    id: string,
    what = 'Collection',
  ): Promise<CollectionAccess> {
    const row = await repo.findCollection(db, me.organizationId, me.userId, id);
    const relation = row ? relationOf(me, row) : null;
    if (!row || !relation) throw notFound(`${what} ${id} was not found`);
    const space: SpaceType = row.ownerType === 'user' ? 'personal' : row.ownerType;
    const shared = !row.shareId ? 'none' : row.shareCollectionId === row.id ? 'top' : 'inside';
    // Whether a share or a favorite lies below decides only `share`, which the shares
    // service checks with the tree's facts (409s); it is not read here.
    const can = collectionCan({
      relation,
      isRoot: row.isRoot,
      shared,
      holdsShareOrFavorites: false,
    });
    return { collection: row, space, relation, can };
  }

  /** A collection the person may do `flag` with; 403 otherwise. */
  async function allowed(
    db: Executor,
    me: AuthContext,
    id: string,
    flag: keyof CollectionCan,
    what = 'Collection',
  ): Promise<CollectionAccess> {
    const access = await collection(db, me, id, what);
    if (!access.can[flag]) throw forbidden(refusal(access));
    return access;
  }

  async function link(db: Executor, me: AuthContext, id: string): Promise<LinkAccess> {
    const row = await repo.findLink(db, me.organizationId, id);
    if (!row) throw notFound(`Link ${id} was not found`);
    try {
      return { link: row, in: await collection(db, me, row.collectionId) };
    } catch {
      throw notFound(`Link ${id} was not found`);
    }
  }

  return {
    collection,
    allowed,
    link,

    /** A collection the person may add links to: their own, a share, or a space they run. */
    contributable: (db: Executor, me: AuthContext, id: string, what = 'Collection') =>
      allowed(db, me, id, 'addLink', what),

    /**
     * A personal collection the person owns: favorites and shares stay personal, so they
     * ask for this rather than for a flag that the people who run a space also hold.
     */
    async owned(db: Executor, me: AuthContext, id: string, what = 'Collection') {
      const access = await collection(db, me, id, what);
      if (access.relation !== 'owner') throw forbidden(refusal(access));
      return access;
    },

    /**
     * A link the person may change, move or delete: any link in their own collections or in
     * a space they run, and the links they added themselves to a collection shared with them.
     */
    async changeableLink(db: Executor, me: AuthContext, id: string): Promise<LinkAccess> {
      const access = await link(db, me, id);
      const { relation } = access.in;
      if (linkCan(relation, access.link.createdBy === me.userId).edit) return access;
      if (relation === 'share-member') {
        throw forbidden('Only the person who added this link, or who owns the collection, can.');
      }
      throw forbidden(refusal(access.in));
    },

    /**
     * A team or the organization whose top level the person adds a collection to: 404 for
     * a team they cannot see, 403 unless they run the space.
     */
    async space(db: Executor, me: AuthContext, spaceId: string): Promise<SpaceAccess> {
      const row = await repo.findSpace(db, me.organizationId, me.userId, spaceId);
      if (!row || (row.type === 'team' && row.teamRole === null && me.role !== 'admin')) {
        throw notFound(`Space ${spaceId} was not found`);
      }
      const relation: Relation =
        row.type === 'organization'
          ? me.role === 'admin'
            ? 'org-admin'
            : 'org-member'
          : row.teamRole === 'editor' || (row.teamRole && me.role === 'admin')
            ? 'team-editor'
            : me.role === 'admin'
              ? 'team-admin'
              : 'team-member';
      if (!runs(relation)) {
        throw forbidden(row.type === 'team' ? READ_ONLY : ORGANIZATION_READ_ONLY);
      }
      return { type: row.type, id: row.id, name: row.name, relation };
    },

    /**
     * A team or the organization whose space the person sees, to read it whole (an export):
     * 404 for a team they are not in, unless they are an administrator.
     */
    async spaceToRead(db: Executor, me: AuthContext, spaceId: string) {
      const row = await repo.findSpace(db, me.organizationId, me.userId, spaceId);
      if (!row || (row.type === 'team' && row.teamRole === null && me.role !== 'admin')) {
        throw notFound(`Space ${spaceId} was not found`);
      }
      return { type: row.type, id: row.id, name: row.name };
    },

    /** 409 when content would leave its team or organization space. */
    sameSpace(from: CollectionAccess, to: CollectionAccess): void {
      if (!sameOwner(from.collection, to.collection)) throw conflict(OTHER_SPACE);
    },

    /** Holds a collection that items are about to be added to; it may have gone meanwhile. */
    async hold(db: Executor, collectionId: string): Promise<void> {
      if (!(await lockCollection(db, collectionId))) {
        throw notFound(`Collection ${collectionId} was not found`);
      }
    },

    isSelfOrAncestor: repo.isSelfOrAncestor,
    depthOf: repo.depthOf,
  };
}
export type AccessService = ReturnType<typeof createAccessService>;
