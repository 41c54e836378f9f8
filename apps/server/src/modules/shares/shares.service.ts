import type { Database, Executor } from '../../db/client.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../lib/errors.ts';
import { lockPerson } from '../../db/locks.ts';
import { newId } from '../../lib/ids.ts';
import type { AccessService, Relation } from '../access/access.service.ts';
import { auditOf, type AuditService } from '../audit/audit.service.ts';
import type { SharesRepository, ShareRow } from './shares.repository.ts';
import type { UndoService, UndoTicket } from '../undo/undo.service.ts';
import { type AuditOrigin } from '../../lib/request-context.ts';

const OWNER_ONLY = 'Only the person who owns this shared collection can do that.';

export interface SharesDeps {
  db: Database;
  shares: SharesRepository;
  access: AccessService;
  audit: AuditService;
  undo: UndoService;
}

export function createSharesService({ db, shares, access, audit, undo }: SharesDeps) {
  /**
   * A share the caller takes part in, with their relation to it (owner or member). A share
   * they are not in is 404, exactly as an unknown id.
   */
  async function authorizeShare(
    tx: Executor,
    me: AuthContext,
    shareId: string,
  ): Promise<{ share: ShareRow; relation: Relation; name: string }> {
    const share = await shares.find(tx, me.organizationId, shareId);
    if (!share) throw notFound(`Share ${shareId} was not found`);
    try {
      const { relation, collection } = await access.collection(tx, me, share.collectionId);
      return { share, relation, name: collection.name };
    } catch (error) {
      // The collection's id must not appear in the answer: the caller named the share.
      if (error instanceof AppError && error.statusCode === 404) {
        throw notFound(`Share ${shareId} was not found`);
      }
      throw error;
    }
  }

  /**
   * Members are active people of the owner's organization other than the owner; anyone else
   * is 404 naming the first such id, whether unknown, disabled or of another organization.
   */
  async function authorizePeople(tx: Executor, me: AuthContext, ids: string[]) {
    const found = new Set(await shares.findActivePeople(tx, me.organizationId, ids));
    const missing = ids.find((id) => id === me.userId || !found.has(id));
    if (missing) throw notFound(`Person ${missing} was not found`);
  }

  /**
   * Teams are of the owner's organization and ones they are in (any team for an
   * administrator); anything else is 404 naming the first such id.
   */
  async function authorizeTeams(tx: Executor, me: AuthContext, ids: string[]) {
    const found = await shares.findShareableTeams(tx, me, ids);
    const names = new Map(found.map((team) => [team.id, team.name]));
    const missing = ids.find((id) => !names.has(id));
    if (missing) throw notFound(`Team ${missing} was not found`);
    return ids.map((id) => ({ id, name: names.get(id)! }));
  }

  /** One entry per team added or removed, each naming the team. */
  const recordTeams = async (
    tx: Executor,
    me: AuthContext,
    origin: AuditOrigin,
    action: 'share.team-added' | 'share.team-removed',
    share: { id: string; name: string },
    teams: { id: string; name: string }[],
  ) => {
    for (const team of teams) {
      await audit.record(tx, {
        ...auditOf(me, origin),
        action,
        target: { type: 'team', id: team.id, label: team.name },
        details: { shareId: share.id, collection: share.name },
      });
    }
  };

  /** One entry per member added or removed, each naming the person. */
  const recordMembers = async (
    tx: Executor,
    me: AuthContext,
    origin: AuditOrigin,
    action: 'share.member-added' | 'share.member-removed',
    share: { id: string; name: string },
    memberIds: string[],
    details: Record<string, unknown> = {},
  ) => {
    for (const memberId of memberIds) {
      await audit.record(tx, {
        ...auditOf(me, origin),
        action,
        target: { type: 'person', id: memberId },
        details: { shareId: share.id, collection: share.name, ...details },
      });
    }
  };
  return {
    /**
     * Shares one of the caller's collections: the share, the owner, the people and the teams
     * at once (at least one person or team).
     */
    async createShare(
      me: AuthContext,
      collectionId: string,
      memberIds: string[],
      origin: AuditOrigin,
      teamIds: string[] = [],
    ): Promise<void> {
      if (memberIds.length === 0 && teamIds.length === 0) {
        throw badRequest('Choose at least one person or team to share it with.');
      }
      await db.transaction(async (tx) => {
        await lockPerson(tx, me.userId);
        const { collection } = await access.owned(tx, me, collectionId);
        await authorizePeople(tx, me, memberIds);
        const teams = await authorizeTeams(tx, me, teamIds);
        if (collection.isRoot) {
          throw conflict('My Space cannot be shared; share a collection inside it instead.');
        }
        if (collection.shareCollectionId === collection.id) {
          throw conflict('This collection is already shared; add members to its share instead.');
        }
        if (collection.shareId) {
          throw conflict('This collection is inside a shared collection; shares do not nest.');
        }
        const tree = await shares.treeFacts(tx, collection.id);
        if (tree.containsShare) {
          throw conflict('This collection contains a shared collection; shares do not nest.');
        }
        if (tree.holdsFavorites) {
          throw conflict(
            'Favorites are private: move them out of this collection before sharing it.',
          );
        }
        const id = newId();
        await shares.insertShare(tx, {
          id,
          organizationId: me.organizationId,
          collectionId: collection.id,
          createdBy: me.userId,
        });
        await shares.insertMembers(tx, id, me.organizationId, [me.userId, ...memberIds]);
        await shares.insertTeams(tx, id, me.organizationId, me.userId, teamIds);
        await audit.record(tx, {
          ...auditOf(me, origin),
          action: 'share.created',
          target: { type: 'share', id, label: collection.name },
          after: {
            collectionId: collection.id,
            members: memberIds,
            ...(teams.length > 0 ? { teams: teams.map((team) => team.id) } : {}),
          },
        });
      });
    },

    /**
     * The owner's "delete": the shared collection and everything inside it; restorable for
     * a while (decision 0052).
     */
    async deleteShare(me: AuthContext, shareId: string, origin: AuditOrigin): Promise<UndoTicket> {
      return db.transaction(async (tx) => {
        const { share, relation, name } = await authorizeShare(tx, me, shareId);
        if (relation !== 'owner') {
          throw forbidden(`${OWNER_ONLY} To stop seeing it, leave it instead.`);
        }
        const ticket = await undo.keepCollection(tx, me, 'share', share.collectionId, name);
        await shares.deleteCollection(tx, share.collectionId);
        await audit.record(tx, {
          ...auditOf(me, origin),
          action: 'share.deleted',
          target: { type: 'share', id: share.id, label: name },
          before: { collectionId: share.collectionId, name },
        });
        return ticket;
      });
    },

    async addMembers(
      me: AuthContext,
      shareId: string,
      memberIds: string[],
      origin: AuditOrigin,
    ): Promise<void> {
      await db.transaction(async (tx) => {
        const { share, relation, name } = await authorizeShare(tx, me, shareId);
        if (relation !== 'owner') throw forbidden(OWNER_ONLY);
        await authorizePeople(tx, me, memberIds);
        const already = await shares.findMembers(tx, share.id, memberIds);
        if (already[0]) throw conflict(`Person ${already[0]} is already a member of this share.`);
        await shares.insertMembers(tx, share.id, me.organizationId, memberIds);
        await recordMembers(
          tx,
          me,
          origin,
          'share.member-added',
          { id: share.id, name },
          memberIds,
        );
      });
    },

    /** The owner shares the collection with more teams. */
    async addTeams(
      me: AuthContext,
      shareId: string,
      teamIds: string[],
      origin: AuditOrigin,
    ): Promise<void> {
      await db.transaction(async (tx) => {
        const { share, relation, name } = await authorizeShare(tx, me, shareId);
        if (relation !== 'owner') throw forbidden(OWNER_ONLY);
        const teams = await authorizeTeams(tx, me, teamIds);
        const already = await shares.findTeams(tx, share.id, teamIds);
        if (already[0]) throw conflict(`Team ${already[0]} is already in this share.`);
        await shares.insertTeams(tx, share.id, me.organizationId, me.userId, teamIds);
        await recordTeams(tx, me, origin, 'share.team-added', { id: share.id, name }, teams);
      });
    },

    /**
     * The owner stops sharing with a team: its members who are not named by the share, nor in
     * another of its teams, stop seeing the collection.
     */
    async removeTeam(
      me: AuthContext,
      shareId: string,
      teamId: string,
      origin: AuditOrigin,
    ): Promise<void> {
      await db.transaction(async (tx) => {
        const { share, relation, name } = await authorizeShare(tx, me, shareId);
        if (relation !== 'owner') throw forbidden(OWNER_ONLY);
        const [team] = await shares.findShareableTeams(tx, { ...me, role: 'admin' }, [teamId]);
        if (!team || !(await shares.deleteTeam(tx, share.id, teamId))) {
          throw notFound(`Team ${teamId} is not in this share`);
        }
        await recordTeams(tx, me, origin, 'share.team-removed', { id: share.id, name }, [team]);
      });
    },

    /**
     * The owner removes a member; a member naming themself leaves, which they may undo for
     * a while (decision 0052: the ticket). The owner adds a removed member back instead.
     * A member through a team stays while in it: the owner removes the team instead; one who
     * leaves is not brought back by the team (decision 0086).
     */
    async removeMember(
      me: AuthContext,
      shareId: string,
      memberId: string,
      origin: AuditOrigin,
    ): Promise<UndoTicket | null> {
      return db.transaction(async (tx) => {
        const { share, relation, name } = await authorizeShare(tx, me, shareId);
        const which = { id: share.id, name };
        if (memberId === me.userId) {
          if (relation === 'owner') {
            throw conflict(
              'The owner cannot leave their own shared collection; remove its members or delete it instead.',
            );
          }
          const ticket = await undo.keepMembership(tx, me, share.id, name);
          const membership = await shares.findMember(tx, share.id, me.userId);
          if (membership?.team) await shares.optOut(tx, share.id, me.organizationId, me.userId);
          await shares.deleteMember(tx, share.id, me.userId);
          await recordMembers(tx, me, origin, 'share.member-removed', which, [me.userId], {
            left: true,
          });
          return ticket;
        }
        if (relation !== 'owner') throw forbidden(OWNER_ONLY);
        const membership = await shares.findMember(tx, share.id, memberId);
        if (!membership) throw notFound(`Member ${memberId} was not found`);
        if (membership.team && !membership.direct) {
          throw conflict(
            `This person sees the collection through the team ${membership.team}; remove the team from the share to stop sharing with them.`,
          );
        }
        if (membership.team) {
          await shares.keepThroughTeam(tx, share.id, memberId);
        } else {
          await shares.deleteMember(tx, share.id, memberId);
        }
        await recordMembers(
          tx,
          me,
          origin,
          'share.member-removed',
          which,
          [memberId],
          membership.team ? { stillThroughTeam: membership.team } : {},
        );
        return null;
      });
    },
  };
}
export type SharesService = ReturnType<typeof createSharesService>;
