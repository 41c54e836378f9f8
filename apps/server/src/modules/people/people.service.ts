import {
  PEOPLE_LIMITS,
  type BulkPeopleBody,
  type CreatePersonBody,
  type InvitationMail,
  type InvitePersonBody,
  type OffboardingChoice,
  type PeopleQuery,
  type PersonRole,
  type PersonRow,
  type UpdatePersonBody,
} from '@signpost/contract';
import type { Config } from '../../config.ts';
import type { Database, Transaction } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { badRequest, conflict, notFound } from '../../lib/errors.ts';
import { assertRecentlyAuthenticated } from '../../lib/reauthentication.ts';
import { hashPassword } from '../../lib/passwords.ts';
import type { AdminAccess } from '../access/admin-access.ts';
import { changes, type AuditService } from '../audit/audit.service.ts';
import type { InvitationsService } from '../invitations/invitations.service.ts';
import type { TeamsService } from '../teams/teams.service.ts';
import type { Jobs } from '../../jobs/queue.ts';
import { decodeCursor, encodeCursor } from './people-list.query.ts';
import type { PeopleRepository, PersonListRow } from './people.repository.ts';
import { personActor, type PeopleRules } from './people.rules.ts';
import { invitationMail } from './invitation-mail.ts';
import type { PeopleDirectory } from '../directory/directory.service.ts';
import { type AuditOrigin } from '../../lib/request-context.ts';

const EMAIL_TAKEN = 'Someone already has this e-mail address.';

/**
 * Two writes of one e-mail address at once: the database's unique index refuses the second,
 * which answers as if the check before it had seen the first (409).
 */
function emailTakenOnConflict(error: unknown): never {
  if (isUniqueViolation(error)) throw conflict(EMAIL_TAKEN);
  throw error;
}

const iso = (value: Date | string | null) =>
  value === null ? null : new Date(value).toISOString();

export function toRow(row: PersonListRow): PersonRow {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    role: row.role,
    status: row.status,
    lastSignInAt: iso(row.lastSignInAt),
    createdAt: new Date(row.createdAt).toISOString(),
    hasPassword: row.hasPassword,
    hasSso: row.hasSso,
    secondFactor: row.secondFactor,
    teamCount: row.teamCount,
    teams: row.teams,
  };
}

const stripEmail = (email: string) => email.trim();

/** The kind of mail whose outcomes the invitations follow (decision 0079). */
export const INVITATION_MAIL = 'invitation';

export interface PeopleDeps {
  db: Database;
  config: Config;
  people: PeopleRepository;
  rules: PeopleRules;
  adminAccess: AdminAccess;
  audit: AuditService;
  invitations: Pick<InvitationsService, 'issue' | 'mailNotQueued' | 'openOf'>;
  jobs: Pick<Jobs, 'mailEnabled' | 'sendMail'>;
  /** The people directory in memory (decisions 0046 and 0072); null: always SQL. */
  directory: Pick<PeopleDirectory, 'listPage'> | null;
  /** An invited person joins a team with the invitation. */
  teams: Pick<TeamsService, 'addMembersWithin'>;
}

/** The console's people: who they are, what they may do, and what becomes of them. */
export function createPeopleService({
  db,
  config,
  people: repository,
  rules,
  adminAccess: access,
  audit,
  invitations,
  jobs,
  directory,
  teams,
}: PeopleDeps) {
  const { context, target, lockPeople, setField, offboard } = rules;

  /**
   * A new person of the caller's organization (invited or created) with their My Space;
   * 409 when anyone of any organization has the e-mail.
   */
  async function insertNew(
    tx: Transaction,
    me: AuthContext,
    body: { name: string; role?: PersonRole },
    fields: { email: string; status: 'invited' | 'active'; passwordHash: string | null },
  ): Promise<string> {
    if (await repository.emailTaken(tx, fields.email)) throw conflict(EMAIL_TAKEN);
    return repository.insert(tx, {
      organizationId: me.organizationId,
      name: body.name.trim(),
      role: body.role ?? 'member',
      ...fields,
    });
  }

  async function row(id: string): Promise<PersonRow> {
    const rows = await repository.rows(db, [id], PEOPLE_LIMITS.teamNames);
    if (!rows[0]) throw notFound(`Person ${id} was not found`);
    return toRow(rows[0]);
  }

  /**
   * Queues the invitation's mail when mail is set up, and says so (decision 0079): `queued`,
   * with no link (the worker that sends it records what the mail server said); otherwise the
   * link to hand over, and why no mail went: none is set up, or the queue did not take it.
   */
  async function mailOrLink(
    person: { email: string; name: string },
    me: AuthContext,
    invitation: { id: string; link: string },
  ): Promise<{ mail: InvitationMail; mailed: boolean; link: string | null }> {
    const { link } = invitation;
    if (!jobs.mailEnabled) return { mail: 'not-configured', mailed: false, link };
    try {
      await jobs.sendMail(
        invitationMail({
          to: person.email,
          name: person.name,
          by: me.name,
          organization: me.organizationName,
          link,
        }),
        { kind: INVITATION_MAIL, id: invitation.id },
      );
      return { mail: 'queued', mailed: true, link: null };
    } catch {
      // The invitation is stored; when the mail cannot even be queued, the administrator
      // gets the link to hand over instead of an error, and is told why.
      await invitations.mailNotQueued(invitation.id).catch(() => {});
      return { mail: 'not-queued', mailed: false, link };
    }
  }

  return {
    async list(me: AuthContext, query: PeopleQuery) {
      access.admin(me);
      const cursor = query.cursor ? decodeCursor(query.cursor) : null;
      if (query.cursor && !cursor) throw badRequest('The cursor is not one this list gave out.');
      const limit = query.limit ?? PEOPLE_LIMITS.page.default;
      if (directory) {
        const found = await directory.listPage(
          me.organizationId,
          {
            q: query.q?.trim() ?? '',
            role: query.role,
            status: query.status,
            team: query.team,
            signIn: query.signIn,
            cursor,
            count: limit + 1,
          },
          PEOPLE_LIMITS.teamNames,
        );
        if (found) {
          const shown = found.slice(0, limit);
          const lastShown = shown.at(-1);
          return {
            items: shown.map((f) => f.row),
            nextCursor: found.length > limit && lastShown ? encodeCursor(lastShown.cursor) : null,
          };
        }
      }
      const rows = await repository.page(
        db,
        { ...query, organizationId: me.organizationId, cursor, limit },
        PEOPLE_LIMITS.teamNames,
      );
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return {
        items: page.map(toRow),
        nextCursor:
          rows.length > limit && last ? encodeCursor({ name: last.sortName, id: last.id }) : null,
      };
    },

    /** One person's page: their row, and their open invitation with what became of its mail. */
    async get(me: AuthContext, id: string) {
      access.admin(me);
      if (!(await repository.find(db, me.organizationId, id)))
        throw notFound(`Person ${id} was not found`);
      const [person, invitation] = await Promise.all([
        row(id),
        invitations.openOf(me.organizationId, id),
      ]);
      return { ...person, invitation };
    },

    async invite(me: AuthContext, body: InvitePersonBody, origin: AuditOrigin) {
      access.admin(me);
      const by = personActor(me, origin);
      if (body.role === 'admin') assertRecentlyAuthenticated(me, 'invite an administrator');
      const email = stripEmail(body.email);
      const made = await db
        .transaction(async (tx) => {
          const id = await insertNew(tx, me, body, {
            email,
            status: 'invited',
            passwordHash: null,
          });
          const invitation = await invitations.issue(tx, {
            organizationId: me.organizationId,
            userId: id,
            createdBy: me.userId,
            mail: jobs.mailEnabled,
          });
          await audit.record(tx, {
            ...context(by),
            action: 'person.invited',
            target: { type: 'person', id, label: email },
            after: {
              name: body.name.trim(),
              email,
              role: body.role ?? 'member',
              status: 'invited',
            },
            details: { expiresAt: invitation.expiresAt.toISOString() },
          });
          // Into the team with the invitation, or neither: an unknown team is 404, nobody made.
          if (body.team) {
            await teams.addMembersWithin(tx, me, origin, body.team.id, {
              userIds: [id],
              role: body.team.role ?? 'member',
            });
          }
          return { personId: id, invitation };
        })
        .catch(emailTakenOnConflict);
      const sent = await mailOrLink({ email, name: body.name }, me, made.invitation);
      return {
        person: await row(made.personId),
        expiresAt: made.invitation.expiresAt.toISOString(),
        ...sent,
      };
    },

    /** A new invitation for an invited person; the earlier link stops working. */
    async resendInvitation(me: AuthContext, id: string, origin: AuditOrigin) {
      access.admin(me);
      const by = personActor(me, origin);
      const made = await db.transaction(async (tx) => {
        const [person] = await lockPeople(tx, by, [id]);
        if (!person) throw notFound(`Person ${id} was not found`);
        if (person.status !== 'invited')
          throw conflict('This person has already accepted their invitation.');
        const invitation = await invitations.issue(tx, {
          organizationId: me.organizationId,
          userId: id,
          createdBy: me.userId,
          mail: jobs.mailEnabled,
        });
        await audit.record(tx, {
          ...context(by),
          action: 'person.invited',
          target: target(person),
          details: { resent: true, expiresAt: invitation.expiresAt.toISOString() },
        });
        return { person, invitation };
      });
      const sent = await mailOrLink(made.person, me, made.invitation);
      return {
        person: await row(id),
        expiresAt: made.invitation.expiresAt.toISOString(),
        ...sent,
      };
    },

    async create(me: AuthContext, body: CreatePersonBody, origin: AuditOrigin) {
      access.admin(me);
      const by = personActor(me, origin);
      if (body.role === 'admin') assertRecentlyAuthenticated(me, 'create an administrator');
      const email = stripEmail(body.email);
      const passwordHash = await hashPassword(body.password, config.argon2);
      const id = await db
        .transaction(async (tx) => {
          const created = await insertNew(tx, me, body, { email, status: 'active', passwordHash });
          await audit.record(tx, {
            ...context(by),
            action: 'person.created',
            target: { type: 'person', id: created, label: email },
            after: {
              name: body.name.trim(),
              email,
              role: body.role ?? 'member',
              status: 'active',
            },
          });
          return created;
        })
        .catch(emailTakenOnConflict);
      return row(id);
    },

    async update(me: AuthContext, id: string, body: UpdatePersonBody, origin: AuditOrigin) {
      access.admin(me);
      const by = personActor(me, origin);
      await db
        .transaction(async (tx) => {
          const [person] = await lockPeople(tx, by, [id]);
          if (!person) throw notFound(`Person ${id} was not found`);
          const details = {
            name: body.name?.trim(),
            email: body.email === undefined ? undefined : stripEmail(body.email),
          };
          // decision 0048: an e-mail address decides who single sign-on links to, and a role
          // decides who runs the organization; the administrator confirms it is them first.
          if (details.email && details.email.toLowerCase() !== person.email.toLowerCase()) {
            assertRecentlyAuthenticated(me, "change a person's e-mail address");
          }
          if (body.role && body.role !== person.role) {
            assertRecentlyAuthenticated(me, "change a person's role");
          }
          if (details.email && (await repository.emailTaken(tx, details.email, id)))
            throw conflict(EMAIL_TAKEN);
          const changed = changes({ name: person.name, email: person.email }, details);
          if (changed) {
            await repository.update(tx, id, details);
            await audit.record(tx, {
              ...context(by),
              action: 'person.updated',
              target: target(person),
              ...changed,
            });
          }
          if (body.role) await setField(tx, by, [person], 'role', body.role);
          if (body.status) await setField(tx, by, [person], 'status', body.status);
        })
        .catch(emailTakenOnConflict);
      return row(id);
    },

    async resetSecondFactor(me: AuthContext, id: string, origin: AuditOrigin) {
      access.admin(me);
      const by = personActor(me, origin);
      assertRecentlyAuthenticated(me, "reset a person's second factor");
      await db.transaction(async (tx) => {
        const [person] = await lockPeople(tx, by, [id]);
        if (!person) throw notFound(`Person ${id} was not found`);
        if (!(await repository.resetSecondFactor(tx, id))) {
          throw conflict('This person has no second factor to reset.');
        }
        // The sessions opened with the lost factor end; access tokens stay (decision 0047).
        const ended = await repository.endSessions(tx, [id], { accessTokens: false });
        await audit.record(tx, {
          ...context(by),
          action: 'second-factor.reset',
          target: target(person),
          details: { sessionsEnded: ended.sessions },
        });
      });
    },

    async signOutEverywhere(me: AuthContext, id: string, origin: AuditOrigin) {
      access.admin(me);
      const by = personActor(me, origin);
      await db.transaction(async (tx) => {
        const [person] = await lockPeople(tx, by, [id]);
        if (!person) throw notFound(`Person ${id} was not found`);
        const ended = await repository.endSessions(tx, [id]);
        await audit.record(tx, {
          ...context(by),
          action: 'sessions.ended-everywhere',
          target: target(person),
          details: {
            ended: ended.sessions + ended.accessTokens,
            sessionsEnded: ended.sessions,
            accessTokensRevoked: ended.accessTokens,
          },
        });
      });
    },

    /** What a person owns that others share, for the question asked before deleting them. */
    async offboarding(me: AuthContext, id: string) {
      access.admin(me);
      if (!(await repository.find(db, me.organizationId, id)))
        throw notFound(`Person ${id} was not found`);
      const shared = await repository.sharedCollections(db, [id]);
      return {
        collections: shared.map(({ id: cid, name, memberCount }) => ({
          id: cid,
          name,
          memberCount,
        })),
      };
    },

    async remove(me: AuthContext, id: string, choice: OffboardingChoice, origin: AuditOrigin) {
      access.admin(me);
      const by = personActor(me, origin);
      await db.transaction(async (tx) => {
        const people = await lockPeople(tx, by, [id]);
        await offboard(tx, by, people, choice);
      });
    },

    /** One action on many people, all or nothing, each of them authorized. */
    async bulk(me: AuthContext, body: BulkPeopleBody, origin: AuditOrigin) {
      access.admin(me);
      const by = personActor(me, origin);
      if (body.action === 'role' && !body.role) throw badRequest('Choose the role to give.');
      if (body.action === 'role') assertRecentlyAuthenticated(me, 'change roles');
      if (body.action === 'delete' && !body.offboarding) {
        throw badRequest('Say what becomes of their shared collections (offboarding).');
      }
      return db.transaction(async (tx) => {
        const people = await lockPeople(tx, by, body.ids);
        let changed = people.length;
        if (body.action === 'disable' || body.action === 'enable') {
          const value = body.action === 'disable' ? 'disabled' : 'active';
          const eligible = people.filter((p) => p.status !== 'invited');
          changed = await setField(tx, by, eligible, 'status', value);
        } else if (body.action === 'role' && body.role) {
          changed = await setField(tx, by, people, 'role', body.role);
        } else if (body.action === 'sign-out') {
          // Person by person, so that each entry says what ended, as a single sign-out's does.
          for (const person of people) {
            const ended = await repository.endSessions(tx, [person.id]);
            await audit.record(tx, {
              ...context(by),
              action: 'sessions.ended-everywhere',
              target: target(person),
              details: {
                ended: ended.sessions + ended.accessTokens,
                sessionsEnded: ended.sessions,
                accessTokensRevoked: ended.accessTokens,
              },
            });
          }
        } else if (body.action === 'delete' && body.offboarding) {
          await offboard(tx, by, people, body.offboarding);
        }
        return { action: body.action, changed, unchanged: people.length - changed };
      });
    },
  };
}
export type PeopleService = ReturnType<typeof createPeopleService>;
