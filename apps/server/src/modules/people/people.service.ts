import {
  PEOPLE_LIMITS,
  type BulkPeopleBody,
  type CreatePersonBody,
  type InvitePersonBody,
  type OffboardingChoice,
  type PeopleQuery,
  type PersonRow,
  type UpdatePersonBody,
} from '@signpost/contract';
import type { Config } from '../../config.ts';
import type { Database, Transaction } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { badRequest, conflict, notFound } from '../../lib/errors.ts';
import { hashPassword } from '../../lib/passwords.ts';
import { createAdminAccess } from '../access/admin-access.ts';
import { changes, createAuditService, type AuditOrigin } from '../audit/audit.service.ts';
import { createInvitationsService } from '../invitations/invitations.service.ts';
import type { Jobs } from '../jobs/jobs.service.ts';
import { decodeCursor, encodeCursor } from './people-list.query.ts';
import {
  createPeopleRepository,
  type PersonListRow,
  type PersonRecord,
} from './people.repository.ts';
import { invitationMail } from './invitation-mail.ts';

const LAST_ADMIN =
  'The organization needs at least one active administrator: make someone else an administrator first.';
const EMAIL_TAKEN = 'Someone already has this e-mail address.';

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

/** The console's people: who they are, what they may do, and what becomes of them. */
export function createPeopleService(db: Database, config: Config, jobs: Jobs) {
  const access = createAdminAccess(db);
  const audit = createAuditService(db);
  const invitations = createInvitationsService(db, config);
  const repository = createPeopleRepository(db);

  const context = (me: AuthContext, origin: AuditOrigin) => ({
    organizationId: me.organizationId,
    actor: { id: me.userId, name: me.name, email: me.email },
    ip: origin.ip ?? null,
    userAgent: origin.userAgent ?? null,
  });
  const target = (person: PersonRecord) => ({
    type: 'person' as const,
    id: person.id,
    label: person.email,
  });

  async function row(id: string): Promise<PersonRow> {
    const rows = await repository.rows([id], PEOPLE_LIMITS.teamNames);
    if (!rows[0]) throw notFound(`Person ${id} was not found`);
    return toRow(rows[0]);
  }

  /** Locks the people of the organization named; 404 naming the first unknown id. */
  async function lockPeople(tx: Transaction, me: AuthContext, ids: string[]) {
    const people = await createPeopleRepository(tx).lockPeople(me.organizationId, ids);
    const known = new Set(people.map((person) => person.id));
    const unknown = ids.find((id) => !known.has(id));
    if (unknown) throw notFound(`Person ${unknown} was not found`);
    return people;
  }

  /**
   * Refuses a change that would leave no active administrator: `losing` are the active
   * administrators the change demotes, disables or deletes. Locks, then counts.
   */
  async function keepAnAdmin(tx: Transaction, me: AuthContext, losing: PersonRecord[]) {
    const leaving = losing.filter((p) => p.role === 'admin' && p.status === 'active').length;
    if (leaving === 0) return;
    const admins = await createPeopleRepository(tx).lockAndCountAdmins(me.organizationId);
    if (admins - leaving < 1) throw conflict(LAST_ADMIN);
  }

  async function mailOrLink(
    person: { email: string; name: string },
    me: AuthContext,
    link: string,
  ) {
    if (!jobs.mailEnabled) return { mailed: false, link };
    await jobs.sendMail(
      invitationMail({
        to: person.email,
        name: person.name,
        by: me.name,
        organization: me.organizationName,
        link,
      }),
    );
    return { mailed: true, link: null };
  }

  /** Removes people after deciding what becomes of their shared collections. */
  async function offboard(
    tx: Transaction,
    me: AuthContext,
    people: PersonRecord[],
    choice: OffboardingChoice,
    origin: AuditOrigin,
  ) {
    const repo = createPeopleRepository(tx);
    const ids = people.map((p) => p.id);
    if (ids.includes(me.userId)) throw conflict('You cannot delete yourself.');
    await keepAnAdmin(tx, me, people);
    const shared = await repo.sharedCollections(ids);
    let heir: PersonRecord | null = null;
    if (choice.collections === 'transfer') {
      if (!choice.transferTo)
        throw badRequest('Choose the colleague who receives the shared collections.');
      if (ids.includes(choice.transferTo)) {
        throw conflict('The colleague who receives the collections cannot be deleted with them.');
      }
      const [found] = await repo.lockPeople(me.organizationId, [choice.transferTo]);
      if (!found || found.status !== 'active') {
        throw notFound(`Person ${choice.transferTo} was not found among the active people`);
      }
      heir = found;
    }
    for (const collection of shared) {
      if (heir) await repo.transferShared(collection, me.organizationId, heir.id);
      else await repo.deleteCollection(collection.id);
    }
    await repo.deletePeople(ids);
    for (const person of people) {
      const theirs = shared.filter((c) => c.ownerId === person.id);
      await audit.record(
        {
          ...context(me, origin),
          action: 'person.deleted',
          target: target(person),
          before: {
            name: person.name,
            email: person.email,
            role: person.role,
            status: person.status,
          },
          details: {
            sharedCollections: theirs.map((c) => ({ id: c.id, name: c.name })),
            collections: choice.collections,
            transferTo: heir ? { id: heir.id, email: heir.email } : null,
          },
        },
        tx,
      );
    }
  }

  /** Applies one change of role or status to locked people, audited; how many changed. */
  async function setField(
    tx: Transaction,
    me: AuthContext,
    people: PersonRecord[],
    field: 'role' | 'status',
    value: string,
    origin: AuditOrigin,
  ) {
    const repo = createPeopleRepository(tx);
    const changing = people.filter((p) => p[field] !== value);
    if (field === 'status' && value === 'disabled' && changing.some((p) => p.id === me.userId)) {
      throw conflict('You cannot disable yourself.');
    }
    if (field === 'status' && changing.some((p) => p.status === 'invited')) {
      throw conflict('An invited person becomes active by accepting their invitation.');
    }
    const losing =
      (field === 'role' && value === 'member') || (field === 'status' && value === 'disabled');
    if (losing) await keepAnAdmin(tx, me, changing);
    for (const person of changing) {
      await repo.update(person.id, { [field]: value });
      if (field === 'status' && value === 'disabled') await repo.endSessions([person.id]);
      const action =
        field === 'role'
          ? 'person.role-changed'
          : value === 'disabled'
            ? 'person.disabled'
            : 'person.enabled';
      await audit.record(
        {
          ...context(me, origin),
          action,
          target: target(person),
          before: { [field]: person[field] },
          after: { [field]: value },
        },
        tx,
      );
    }
    return changing.length;
  }

  return {
    async list(me: AuthContext, query: PeopleQuery) {
      access.admin(me);
      const cursor = query.cursor ? decodeCursor(query.cursor) : null;
      if (query.cursor && !cursor) throw badRequest('The cursor is not one this list gave out.');
      const limit = query.limit ?? PEOPLE_LIMITS.page.default;
      const rows = await repository.page(
        { ...query, organizationId: me.organizationId, cursor, limit },
        PEOPLE_LIMITS.teamNames,
      );
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return {
        items: page.map(toRow),
        nextCursor:
          rows.length > limit && last
            ? encodeCursor({ name: last.name.toLowerCase(), id: last.id })
            : null,
      };
    },

    async get(me: AuthContext, id: string) {
      access.admin(me);
      if (!(await repository.find(me.organizationId, id)))
        throw notFound(`Person ${id} was not found`);
      return row(id);
    },

    async invite(me: AuthContext, body: InvitePersonBody, origin: AuditOrigin) {
      access.admin(me);
      const email = stripEmail(body.email);
      const made = await db
        .transaction(async (tx) => {
          if (await createPeopleRepository(tx).emailTaken(email)) throw conflict(EMAIL_TAKEN);
          const id = await createPeopleRepository(tx).insert({
            organizationId: me.organizationId,
            name: body.name.trim(),
            email,
            role: body.role ?? 'member',
            status: 'invited',
            passwordHash: null,
          });
          const invitation = await invitations.issue(tx, {
            organizationId: me.organizationId,
            userId: id,
            createdBy: me.userId,
          });
          await audit.record(
            {
              ...context(me, origin),
              action: 'person.invited',
              target: { type: 'person', id, label: email },
              after: {
                name: body.name.trim(),
                email,
                role: body.role ?? 'member',
                status: 'invited',
              },
              details: { expiresAt: invitation.expiresAt.toISOString() },
            },
            tx,
          );
          return { id, ...invitation };
        })
        .catch((error: unknown) => {
          if (isUniqueViolation(error)) throw conflict(EMAIL_TAKEN);
          throw error;
        });
      const sent = await mailOrLink({ email, name: body.name }, me, made.link);
      return { person: await row(made.id), expiresAt: made.expiresAt.toISOString(), ...sent };
    },

    /** A new invitation for an invited person; the earlier link stops working. */
    async resendInvitation(me: AuthContext, id: string, origin: AuditOrigin) {
      access.admin(me);
      const made = await db.transaction(async (tx) => {
        const [person] = await lockPeople(tx, me, [id]);
        if (!person) throw notFound(`Person ${id} was not found`);
        if (person.status !== 'invited')
          throw conflict('This person has already accepted their invitation.');
        const invitation = await invitations.issue(tx, {
          organizationId: me.organizationId,
          userId: id,
          createdBy: me.userId,
        });
        await audit.record(
          {
            ...context(me, origin),
            action: 'person.invited',
            target: target(person),
            details: { resent: true, expiresAt: invitation.expiresAt.toISOString() },
          },
          tx,
        );
        return { person, ...invitation };
      });
      const sent = await mailOrLink(made.person, me, made.link);
      return { person: await row(id), expiresAt: made.expiresAt.toISOString(), ...sent };
    },

    async create(me: AuthContext, body: CreatePersonBody, origin: AuditOrigin) {
      access.admin(me);
      const email = stripEmail(body.email);
      const passwordHash = await hashPassword(body.password, config.argon2);
      const id = await db
        .transaction(async (tx) => {
          if (await createPeopleRepository(tx).emailTaken(email)) throw conflict(EMAIL_TAKEN);
          const created = await createPeopleRepository(tx).insert({
            organizationId: me.organizationId,
            name: body.name.trim(),
            email,
            role: body.role ?? 'member',
            status: 'active',
            passwordHash,
          });
          await audit.record(
            {
              ...context(me, origin),
              action: 'person.created',
              target: { type: 'person', id: created, label: email },
              after: {
                name: body.name.trim(),
                email,
                role: body.role ?? 'member',
                status: 'active',
              },
            },
            tx,
          );
          return created;
        })
        .catch((error: unknown) => {
          if (isUniqueViolation(error)) throw conflict(EMAIL_TAKEN);
          throw error;
        });
      return row(id);
    },

    async update(me: AuthContext, id: string, body: UpdatePersonBody, origin: AuditOrigin) {
      access.admin(me);
      await db
        .transaction(async (tx) => {
          const [person] = await lockPeople(tx, me, [id]);
          if (!person) throw notFound(`Person ${id} was not found`);
          const repo = createPeopleRepository(tx);
          const details = {
            name: body.name?.trim(),
            email: body.email === undefined ? undefined : stripEmail(body.email),
          };
          if (details.email && (await repo.emailTaken(details.email, id)))
            throw conflict(EMAIL_TAKEN);
          const changed = changes({ name: person.name, email: person.email }, details);
          if (changed) {
            await repo.update(id, details);
            await audit.record(
              {
                ...context(me, origin),
                action: 'person.updated',
                target: target(person),
                ...changed,
              },
              tx,
            );
          }
          if (body.role) await setField(tx, me, [person], 'role', body.role, origin);
          if (body.status) await setField(tx, me, [person], 'status', body.status, origin);
        })
        .catch((error: unknown) => {
          if (isUniqueViolation(error)) throw conflict(EMAIL_TAKEN);
          throw error;
        });
      return row(id);
    },

    async resetSecondFactor(me: AuthContext, id: string, origin: AuditOrigin) {
      access.admin(me);
      await db.transaction(async (tx) => {
        const [person] = await lockPeople(tx, me, [id]);
        if (!person) throw notFound(`Person ${id} was not found`);
        if (!(await createPeopleRepository(tx).resetSecondFactor(id))) {
          throw conflict('This person has no second factor to reset.');
        }
        await audit.record(
          { ...context(me, origin), action: 'second-factor.reset', target: target(person) },
          tx,
        );
      });
    },

    async signOutEverywhere(me: AuthContext, id: string, origin: AuditOrigin) {
      access.admin(me);
      await db.transaction(async (tx) => {
        const [person] = await lockPeople(tx, me, [id]);
        if (!person) throw notFound(`Person ${id} was not found`);
        const ended = await createPeopleRepository(tx).endSessions([id]);
        await audit.record(
          {
            ...context(me, origin),
            action: 'sessions.ended-everywhere',
            target: target(person),
            details: { ended },
          },
          tx,
        );
      });
    },

    /** What a person owns that others share, for the question asked before deleting them. */
    async offboarding(me: AuthContext, id: string) {
      access.admin(me);
      if (!(await repository.find(me.organizationId, id)))
        throw notFound(`Person ${id} was not found`);
      const shared = await repository.sharedCollections([id]);
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
      await db.transaction(async (tx) => {
        const people = await lockPeople(tx, me, [id]);
        await offboard(tx, me, people, choice, origin);
      });
    },

    /** One action on many people, all or nothing, each of them authorized. */
    async bulk(me: AuthContext, body: BulkPeopleBody, origin: AuditOrigin) {
      access.admin(me);
      if (body.action === 'role' && !body.role) throw badRequest('Choose the role to give.');
      if (body.action === 'delete' && !body.offboarding) {
        throw badRequest('Say what becomes of their shared collections (offboarding).');
      }
      return db.transaction(async (tx) => {
        const people = await lockPeople(tx, me, body.ids);
        let changed = people.length;
        if (body.action === 'disable' || body.action === 'enable') {
          const value = body.action === 'disable' ? 'disabled' : 'active';
          const eligible = people.filter((p) => p.status !== 'invited');
          changed = await setField(tx, me, eligible, 'status', value, origin);
        } else if (body.action === 'role' && body.role) {
          changed = await setField(tx, me, people, 'role', body.role, origin);
        } else if (body.action === 'sign-out') {
          await createPeopleRepository(tx).endSessions(body.ids);
          for (const person of people) {
            await audit.record(
              {
                ...context(me, origin),
                action: 'sessions.ended-everywhere',
                target: target(person),
              },
              tx,
            );
          }
        } else if (body.action === 'delete' && body.offboarding) {
          await offboard(tx, me, people, body.offboarding, origin);
        }
        return { action: body.action, changed, unchanged: people.length - changed };
      });
    },
  };
}
export type PeopleService = ReturnType<typeof createPeopleService>;
