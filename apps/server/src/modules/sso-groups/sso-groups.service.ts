// Teams and the administrator role from a sign-in's groups (decision 0084). Per provider, the
// console names the claim that lists a person's groups and which group gives which team; at
// each single sign-on the memberships that came from groups follow the claim, added and
// removed, and a membership made otherwise is never removed by it.
import {
  SSO_GROUP_LIMITS,
  type SsoGroupsResponse,
  type UpdateSsoGroupsBody,
} from '@signpost/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Transaction } from '../../db/client.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { assertRecentlyAuthenticated } from '../../lib/reauthentication.ts';
import type { AuditOrigin } from '../../lib/request-context.ts';
import type { AdminAccess } from '../access/admin-access.ts';
import { auditOf, type AuditService } from '../audit/audit.service.ts';
import type { PeopleActor, PeopleRules } from '../people/people.rules.ts';
import type { SsoGroupsRepository } from './sso-groups.repository.ts';

/** What a sign-in's groups claim said: a list, or why it says nothing to act on. */
export type GroupsClaim =
  | { kind: 'list'; groups: string[] }
  | { kind: 'missing' }
  | { kind: 'overage' }
  | { kind: 'malformed' };

/**
 * Reads a groups claim: a list of strings, or one string (some providers send one group so);
 * Microsoft Entra ID leaves the claim out above 200 groups and says so with `_claim_names`
 * (or `hasgroups`): an overage, from which nothing may be concluded.
 */
export function readGroupsClaim(claims: Record<string, unknown>, claim: string): GroupsClaim {
  const value = claims[claim];
  if (value === undefined || value === null) {
    const names = claims._claim_names as Record<string, unknown> | undefined;
    if ((names && typeof names === 'object' && claim in names) || claims.hasgroups === true) {
      return { kind: 'overage' };
    }
    return { kind: 'missing' };
  }
  if (typeof value === 'string') return { kind: 'list', groups: [value] };
  if (Array.isArray(value) && value.every((g) => typeof g === 'string')) {
    return { kind: 'list', groups: value as string[] };
  }
  return { kind: 'malformed' };
}

export interface SsoGroupsDeps {
  db: Database;
  /**
   * The single sign-on providers as they run: the configured ones and any added at run time
   * (the demo provider).
   */
  providers: () => readonly { id: string; name: string; organization: string }[];
  log: FastifyBaseLogger;
  ssoGroups: SsoGroupsRepository;
  rules: PeopleRules;
  audit: AuditService;
  adminAccess: AdminAccess;
  /** The organization a provider signs people into (its id or exact name), or null. */
  organizationOf: (organization: string) => Promise<string | null>;
}

export function createSsoGroupsService({
  db,
  providers,
  log,
  ssoGroups: repo,
  rules,
  audit,
  adminAccess,
  organizationOf,
}: SsoGroupsDeps) {
  /** The configured providers that sign people into this organization. */
  async function providersOf(organizationId: string) {
    const mine = [];
    for (const p of providers()) {
      if ((await organizationOf(p.organization)) === organizationId) mine.push(p);
    }
    return mine;
  }

  async function view(organizationId: string): Promise<SsoGroupsResponse> {
    const providers = await providersOf(organizationId);
    const claims = new Map(
      (await repo.claims(db, organizationId)).map((c) => [c.providerId, c.claim]),
    );
    const mappings = await repo.mappings(db, organizationId);
    return {
      items: providers.map((p) => ({
        providerId: p.id,
        name: p.name,
        claim: claims.get(p.id) ?? null,
        mappings: mappings.filter((m) => m.providerId === p.id).map(({ providerId: _, ...m }) => m),
      })),
    };
  }

  return {
    async settings(me: AuthContext): Promise<SsoGroupsResponse> {
      adminAccess.admin(me);
      return view(me.organizationId);
    },

    /**
     * Replaces a provider's groups claim and mappings. A group may give the administrator
     * role: an administrator confirms who they are first (decision 0048).
     */
    async update(
      me: AuthContext,
      origin: AuditOrigin,
      providerId: string,
      body: UpdateSsoGroupsBody,
    ): Promise<SsoGroupsResponse> {
      adminAccess.admin(me);
      assertRecentlyAuthenticated(me, 'change which groups give teams and roles');
      const provider = (await providersOf(me.organizationId)).find((p) => p.id === providerId);
      if (!provider) throw notFound(`Single sign-on provider ${providerId} was not found`);
      for (const [i, m] of body.mappings.entries()) {
        if ((m.teamId === null) !== (m.role === null)) {
          throw badRequest(`Mapping ${i + 1}: choose a role in the team, or no team and no role.`);
        }
        if (m.teamId === null && !m.admin) {
          throw badRequest(
            `Mapping ${i + 1}: a group gives a team, the administrator role, or both.`,
          );
        }
      }
      const teamIds = [...new Set(body.mappings.flatMap((m) => (m.teamId ? [m.teamId] : [])))];
      const before = (await view(me.organizationId)).items.find((p) => p.providerId === providerId);
      await db.transaction(async (tx) => {
        const known = new Set(await repo.knownTeams(tx, me.organizationId, teamIds));
        const unknown = teamIds.find((id) => !known.has(id));
        if (unknown) throw notFound(`Team ${unknown} was not found`);
        await repo.replace(tx, me.organizationId, providerId, body.claim, body.mappings);
        await audit.record(tx, {
          ...auditOf(me, origin),
          action: 'organization.settings-changed',
          target: { type: 'organization', id: me.organizationId, label: me.organizationName },
          before: {
            ssoGroups: {
              provider: providerId,
              claim: before?.claim ?? null,
              mappings: before?.mappings.length ?? 0,
            },
          },
          after: {
            ssoGroups: {
              provider: providerId,
              claim: body.claim,
              mappings: body.mappings.map((m) => ({
                group: m.group,
                teamId: m.teamId,
                role: m.role,
                admin: m.admin,
              })),
            },
          },
        });
      });
      return view(me.organizationId);
    },

    /**
     * At a single sign-on, in its transaction: the person's memberships from groups follow
     * the claim, and so does the administrator role a group gave. A claim that is missing,
     * cut short or of the wrong shape changes nothing and is logged.
     */
    async applyAtSignIn(
      tx: Transaction,
      input: {
        organizationId: string;
        provider: { id: string; name: string };
        person: { id: string; name: string; email: string };
        claims: Record<string, unknown>;
        origin: AuditOrigin;
      },
    ): Promise<void> {
      const { organizationId, provider, person } = input;
      const setting = (await repo.claims(tx, organizationId)).find(
        (c) => c.providerId === provider.id,
      );
      if (!setting) return;
      const read = readGroupsClaim(input.claims, setting.claim);
      if (read.kind !== 'list') {
        const why = {
          missing: `the ID token has no "${setting.claim}" claim`,
          overage: `the provider left "${setting.claim}" out for having too many groups (overage)`,
          malformed: `"${setting.claim}" is neither a string nor a list of strings`,
        }[read.kind];
        log.warn(
          { provider: provider.id, person: person.id, claim: setting.claim, reason: read.kind },
          `single sign-on groups: ${why}; memberships from groups left as they were`,
        );
        return;
      }
      // A claim this long may have been cut by the provider (Okta stops at 100): add what it
      // says, take nothing away.
      const complete = read.groups.length < SSO_GROUP_LIMITS.cutAt;
      if (!complete) {
        log.warn(
          { provider: provider.id, person: person.id, groups: read.groups.length },
          'single sign-on groups: the claim may have been cut; memberships only added',
        );
      }
      const groups = new Set(read.groups);
      const mappings = (await repo.mappings(tx, organizationId, provider.id)).filter((m) =>
        groups.has(m.group),
      );
      const wanted = new Map<string, 'member' | 'editor'>();
      for (const m of mappings) {
        if (!m.teamId || !m.role) continue;
        if (wanted.get(m.teamId) !== 'editor') wanted.set(m.teamId, m.role);
      }
      const before = await repo.memberships(tx, person.id);
      await repo.applyMemberships(
        tx,
        organizationId,
        person.id,
        [...wanted].map(([teamId, role]) => ({ teamId, role })),
        complete,
      );
      const after = await repo.memberships(tx, person.id);
      const had = new Map(before.map((m) => [m.teamId, m]));
      const has = new Map(after.map((m) => [m.teamId, m]));
      const added = after.filter((m) => !had.has(m.teamId));
      const removed = before.filter((m) => !has.has(m.teamId));
      const roles = after.filter((m) => had.has(m.teamId) && had.get(m.teamId)!.role !== m.role);

      const actor: PeopleActor = {
        kind: 'sign-in',
        organizationId,
        person,
        provider: provider.id,
        origin: input.origin,
      };
      let admin: 'granted' | 'taken back' | null = null;
      const grants = mappings.some((m) => m.admin);
      const [record] = await rules.lockPeople(tx, actor, [person.id]);
      if (record && grants && record.role !== 'admin') {
        await rules.setField(tx, actor, [record], 'role', 'admin');
        await repo.setAdminFromSignIn(tx, person.id, true);
        admin = 'granted';
      } else if (record && !grants && complete && record.role === 'admin') {
        if (await repo.adminFromSignIn(tx, person.id)) {
          try {
            await rules.setField(tx, actor, [record], 'role', 'member');
            await repo.setAdminFromSignIn(tx, person.id, false);
            admin = 'taken back';
          } catch (error) {
            // The last active administrator stays one (decision 0042).
            if (!(error instanceof Error && 'statusCode' in error && error.statusCode === 409)) {
              throw error;
            }
            log.warn(
              { provider: provider.id, person: person.id },
              'single sign-on groups: the last active administrator keeps the role',
            );
          }
        }
      }
      if (added.length + removed.length + roles.length === 0 && admin === null) return;
      const team = (m: { teamId: string; teamName: string; role: string }) => ({
        id: m.teamId,
        name: m.teamName,
        role: m.role,
      });
      await audit.record(tx, {
        ...rules.context(actor),
        action: 'person.groups-synced',
        target: rules.target(record ?? { ...person, role: 'member', status: 'active' }),
        ...rules.detailsOf(actor, {
          added: added.map(team),
          removed: removed.map(team),
          roles: roles.map(team),
          ...(admin ? { administrator: admin } : {}),
          ...(complete ? {} : { cut: true }),
        }),
      });
    },
  };
}
export type SsoGroupsService = ReturnType<typeof createSsoGroupsService>;
