import type {
  AddTeamMembersBody,
  CreateTeamBody,
  DeleteTeamQuery,
  RemoveTeamMembersBody,
  TeamDetail,
  TeamMembersQuery,
  TeamMembersResponse,
  TeamsQuery,
  TeamsResponse,
  TeamSummary,
  UpdateTeamBody,
} from '@signpost/contract';
import type { Database, Executor } from '../../db/client.ts';
import { errorChain, isUniqueViolation } from '../../db/errors.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { cleanName } from '../../lib/names.ts';
import type { AdminAccess } from '../access/admin-access.ts';
import { auditOf, type AuditService } from '../audit/audit.service.ts';
import type { TeamListRow, TeamRow, TeamsRepository } from './teams.repository.ts';
import type { AuditOrigin } from '../../lib/request-context.ts';

/** Who acts, from where: the base of every audit entry of a call. */
const DEFAULT_PAGE = 50;
const NO_NUL = (text: string | undefined) => (text ?? '').split('\u0000').join('');
const iso = (value: Date | string) => new Date(value).toISOString();

const toSummary = (row: TeamListRow): TeamSummary => ({
  id: row.id,
  name: row.name,
  memberCount: Number(row.memberCount),
  editorCount: Number(row.editorCount),
  buddy: row.buddy,
  createdAt: iso(row.createdAt),
});

/** PostgreSQL's foreign_key_violation: a person or team went while the statement ran. */
const isForeignKeyViolation = (error: unknown) =>
  [...errorChain(error)].some((e) => e.code === '23503');

const taken = (name: string) =>
  conflict(`A team named "${name}" already exists in this organization; choose another name.`);

/** Page of `limit` from `limit + 1` rows: the rows, and the cursor of the next page. */
function page<T extends { id: string }>(rows: T[], limit: number) {
  const items = rows.slice(0, limit);
  return { items, next: rows.length > limit ? (items.at(-1)?.id ?? null) : null };
}

export interface TeamsDeps {
  db: Database;
  teams: TeamsRepository;
  adminAccess: AdminAccess;
  audit: AuditService;
}

export function createTeamsService({ db, teams, adminAccess: admin, audit }: TeamsDeps) {
  /** The team, held for the transaction; 404 when it is not (or no longer) there. */
  async function lockedTeam(tx: Executor, me: AuthContext, id: string): Promise<TeamRow> {
    const team = await teams.find(tx, me.organizationId, id, true);
    if (!team) throw notFound(`Team ${id} was not found`);
    return team;
  }

  async function detail(tx: Executor, me: AuthContext, id: string): Promise<TeamDetail> {
    const row = await teams.summary(tx, me.organizationId, id);
    if (!row) throw notFound(`Team ${id} was not found`);
    const contents = await teams.contents(tx, id);
    return {
      ...toSummary(row),
      collectionCount: contents.collections,
      linkCount: contents.links,
    };
  }

  /** Runs a change; a name taken meanwhile or a person gone meanwhile is 409 or 404. */
  async function change<T>(work: (tx: Executor) => Promise<T>, name?: string): Promise<T> {
    try {
      return await db.transaction(work);
    } catch (error) {
      if (name !== undefined && isUniqueViolation(error)) throw taken(name);
      if (isForeignKeyViolation(error)) {
        throw notFound(
          'A person or team of this call was not found; it may have just been deleted.',
        );
      }
      throw error;
    }
  }

  /**
   * Adds people to a team in a transaction. Each id must be an active or invited person of the
   * organization, else 404 naming it and nobody is added. Adding someone already in the team
   * changes nothing (their role stays): the call is idempotent.
   */
  async function addMembersIn(
    tx: Executor,
    me: AuthContext,
    origin: AuditOrigin,
    id: string,
    body: AddTeamMembersBody,
  ) {
    const by = auditOf(me, origin);
    const role = body.role ?? 'member';
    const team = await lockedTeam(tx, me, id);
    const people = new Map(
      (await teams.people(tx, me.organizationId, body.userIds)).map((p) => [p.id, p]),
    );
    for (const userId of body.userIds) {
      const person = people.get(userId);
      if (!person || person.status === 'disabled') {
        throw notFound(`Person ${userId} was not found`);
      }
    }
    const added = await teams.addMembers(
      tx,
      { id, organizationId: me.organizationId },
      body.userIds,
      role,
    );
    for (const userId of added) {
      const person = people.get(userId)!;
      await audit.record(tx, {
        ...by,
        action: 'team.member-added',
        target: { type: 'team', id, label: team.name },
        after: { role },
        details: { person: { id: person.id, name: person.name, email: person.email } },
      });
    }
    return { changed: added.length };
  }

  return {
    async list(me: AuthContext, query: TeamsQuery): Promise<TeamsResponse> {
      admin.admin(me);
      const limit = query.limit ?? DEFAULT_PAGE;
      const rows = await teams.list(
        db,
        me.organizationId,
        NO_NUL(query.query),
        limit + 1,
        query.after,
      );
      const { items, next } = page(rows, limit);
      return { items: items.map(toSummary), next };
    },

    async get(me: AuthContext, id: string): Promise<TeamDetail> {
      admin.admin(me);
      return detail(db, me, id);
    },

    async create(me: AuthContext, origin: AuditOrigin, body: CreateTeamBody): Promise<TeamDetail> {
      const by = auditOf(me, origin);
      admin.admin(me);
      const name = cleanName(body.name);
      const id = newId();
      return change(async (tx) => {
        await teams.insert(tx, { id, organizationId: me.organizationId, name });
        await audit.record(tx, {
          ...by,
          action: 'team.created',
          target: { type: 'team', id, label: name },
          after: { name },
        });
        return detail(tx, me, id);
      }, name);
    },

    /** Renames a team and chooses or clears its buddy (who must be a member). */
    async update(
      me: AuthContext,
      origin: AuditOrigin,
      id: string,
      body: UpdateTeamBody,
    ): Promise<TeamDetail> {
      const by = auditOf(me, origin);
      admin.admin(me);
      const name = body.name === undefined ? undefined : cleanName(body.name);
      return change(async (tx) => {
        const team = await lockedTeam(tx, me, id);
        const buddyId = body.buddyId;
        if (buddyId) {
          const [person] = await teams.people(tx, me.organizationId, [buddyId]);
          if (!person) throw notFound(`Person ${buddyId} was not found`);
          const [membership] = await teams.memberships(tx, id, [buddyId]);
          if (!membership) {
            throw conflict(`${person.name} is not a member of ${team.name}; add them first.`);
          }
        }
        const diff: Record<string, [unknown, unknown]> = {};
        if (name !== undefined && name !== team.name) diff.name = [team.name, name];
        if (buddyId !== undefined && buddyId !== team.buddyId) {
          diff.buddyId = [team.buddyId, buddyId];
        }
        if (Object.keys(diff).length > 0) {
          await teams.update(tx, id, { name, buddyId });
          await audit.record(tx, {
            ...by,
            action: 'team.updated',
            target: { type: 'team', id, label: name ?? team.name },
            before: Object.fromEntries(Object.entries(diff).map(([k, [was]]) => [k, was])),
            after: Object.fromEntries(Object.entries(diff).map(([k, [, is]]) => [k, is])),
          });
        }
        return detail(tx, me, id);
      }, name);
    },

    /**
     * Deletes a team with its collections and links, when the caller confirmed the counts
     * it holds now: 409 when it holds more or fewer (someone added or removed content since
     * the caller looked), so nobody deletes more than they were shown.
     */
    async remove(me: AuthContext, origin: AuditOrigin, id: string, confirm: DeleteTeamQuery) {
      const by = auditOf(me, origin);
      admin.admin(me);
      await change(async (tx) => {
        const team = await lockedTeam(tx, me, id);
        const contents = await teams.contents(tx, id);
        if (contents.collections !== confirm.collections || contents.links !== confirm.links) {
          throw conflict(
            `${team.name} now holds ${contents.collections} collections and ${contents.links} ` +
              'links; confirm these counts to delete it.',
          );
        }
        await teams.delete(tx, id);
        await audit.record(tx, {
          ...by,
          action: 'team.deleted',
          target: { type: 'team', id, label: team.name },
          before: { name: team.name, buddyId: team.buddyId, ...contents },
        });
      });
    },

    async members(
      me: AuthContext,
      id: string,
      query: TeamMembersQuery,
    ): Promise<TeamMembersResponse> {
      admin.admin(me);
      if (!(await teams.find(db, me.organizationId, id)))
        throw notFound(`Team ${id} was not found`);
      const limit = query.limit ?? DEFAULT_PAGE;
      const rows = await teams.members(db, id, {
        query: NO_NUL(query.query),
        role: query.role,
        limit: limit + 1,
        after: query.after,
      });
      const { items, next } = page(rows, limit);
      return {
        items: items.map((row) => ({ ...row, addedAt: iso(row.addedAt) })),
        next,
      };
    },

    /**
     * Adds people to a team. Each id must be an active or invited person of the
     * organization, else 404 naming it and nobody is added. Adding someone already in the
     * team changes nothing (their role stays): the call is idempotent.
     */
    async addMembers(me: AuthContext, origin: AuditOrigin, id: string, body: AddTeamMembersBody) {
      admin.admin(me);
      return change((tx) => addMembersIn(tx, me, origin, id, body));
    },

    /**
     * As `addMembers`, in a transaction of the caller's: a person invited into a team joins
     * it with the invitation, or neither is made (the people service's `invite`).
     */
    async addMembersWithin(
      tx: Executor,
      me: AuthContext,
      origin: AuditOrigin,
      id: string,
      body: AddTeamMembersBody,
    ) {
      admin.admin(me);
      return addMembersIn(tx, me, origin, id, body);
    },

    /**
     * Takes people out of a team (people of the organization who are not in it are left
     * as they are). Taking out the buddy clears the buddy.
     */
    async removeMembers(
      me: AuthContext,
      origin: AuditOrigin,
      id: string,
      body: RemoveTeamMembersBody,
    ) {
      const by = auditOf(me, origin);
      admin.admin(me);
      return change(async (tx) => {
        const team = await lockedTeam(tx, me, id);
        const people = new Map(
          (await teams.people(tx, me.organizationId, body.userIds)).map((p) => [p.id, p]),
        );
        const unknown = body.userIds.find((userId) => !people.has(userId));
        if (unknown) throw notFound(`Person ${unknown} was not found`);
        const removed = await teams.removeMembers(tx, id, body.userIds);
        for (const { userId, role } of removed) {
          const person = people.get(userId)!;
          await audit.record(tx, {
            ...by,
            action: 'team.member-removed',
            target: { type: 'team', id, label: team.name },
            before: { role },
            details: { person: { id: person.id, name: person.name, email: person.email } },
          });
        }
        if (team.buddyId && removed.some((r) => r.userId === team.buddyId)) {
          await teams.update(tx, id, { buddyId: null });
          await audit.record(tx, {
            ...by,
            action: 'team.updated',
            target: { type: 'team', id, label: team.name },
            before: { buddyId: team.buddyId },
            after: { buddyId: null },
          });
        }
        return { changed: removed.length };
      });
    },

    /** Makes a member an editor of the team, or an editor a plain member. */
    async setMemberRole(
      me: AuthContext,
      origin: AuditOrigin,
      id: string,
      userId: string,
      role: 'member' | 'editor',
    ) {
      const by = auditOf(me, origin);
      admin.admin(me);
      await change(async (tx) => {
        const team = await lockedTeam(tx, me, id);
        const [person] = await teams.people(tx, me.organizationId, [userId]);
        const [membership] = person ? await teams.memberships(tx, id, [userId]) : [];
        if (!person || !membership)
          throw notFound(`Member ${userId} of ${team.name} was not found`);
        if (membership.role === role) return;
        await teams.setRole(tx, id, userId, role);
        await audit.record(tx, {
          ...by,
          action: 'team.member-role-changed',
          target: { type: 'team', id, label: team.name },
          before: { role: membership.role },
          after: { role },
          details: { person: { id: person.id, name: person.name, email: person.email } },
        });
      });
    },
  };
}
export type TeamsService = ReturnType<typeof createTeamsService>;
