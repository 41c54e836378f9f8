import type { OffboardingChoice } from '@signpost/contract';
import type { Transaction } from '../../db/client.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { badRequest, conflict, notFound } from '../../lib/errors.ts';
import { COMMAND_LINE, scimAuditActor, type AuditService } from '../audit/audit.service.ts';
import type { PeopleRepository, PersonRecord } from './people.repository.ts';
import { type AuditOrigin } from '../../lib/request-context.ts';

const LAST_ADMIN =
  'The organization needs at least one active administrator: make someone else an administrator first.';

/**
 * Who changes people: an administrator signed in to the console, from where they called,
 * or the command line (`npm run admin`), where nobody is signed in, on one organization.
 */
export type PeopleActor =
  | { kind: 'person'; me: AuthContext; origin: AuditOrigin }
  | { kind: 'command line'; organizationId: string }
  | { kind: 'scim'; organizationId: string; token: ScimTokenRef; origin: AuditOrigin }
  | {
      kind: 'sign-in';
      organizationId: string;
      person: { id: string; name: string; email: string };
      provider: string;
      origin: AuditOrigin;
    };

/** The SCIM token a change came with (decision 0084). */
export interface ScimTokenRef {
  id: string;
  name: string;
}

/** A signed-in administrator, as the actor of a change of people. */
export const personActor = (me: AuthContext, origin: AuditOrigin): PeopleActor => ({
  kind: 'person',
  me,
  origin,
});

/** The command line, as the actor of a change of people of an organization. */
export const commandLineActor = (organizationId: string): PeopleActor => ({
  kind: 'command line',
  organizationId,
});

/** A SCIM token, as the actor of a change of people. */
export const scimActor = (
  organizationId: string,
  token: ScimTokenRef,
  origin: AuditOrigin,
): PeopleActor => ({ kind: 'scim', organizationId, token, origin });

/** What every entry of the command line says in its details, as it always has. */
export const FROM_COMMAND_LINE = { via: 'command line' } as const;

const organizationOf = (actor: PeopleActor) =>
  actor.kind === 'person' ? actor.me.organizationId : actor.organizationId;

/** The person acting, or null for the command line and SCIM. */
const selfOf = (actor: PeopleActor) =>
  actor.kind === 'person' ? actor.me.userId : actor.kind === 'sign-in' ? actor.person.id : null;

/** An entry's details: the command line's and SCIM's say so, and which token it was. */
function detailsOf(actor: PeopleActor, details?: Record<string, unknown>) {
  const all =
    actor.kind === 'command line'
      ? { ...FROM_COMMAND_LINE, ...details }
      : actor.kind === 'scim'
        ? { via: 'scim', scimToken: { id: actor.token.id, name: actor.token.name }, ...details }
        : actor.kind === 'sign-in'
          ? { via: 'sign-in groups', provider: actor.provider, ...details }
          : details;
  return all ? { details: all } : {};
}

export interface PeopleRulesDeps {
  people: PeopleRepository;
  audit: AuditService;
}

/**
 * The rules every change of people shares, inside the caller's transaction: locking the
 * people named, keeping an active administrator, changing role or status, offboarding.
 * The console and the command line both change people through them.
 */
export function createPeopleRules({ people: repo, audit }: PeopleRulesDeps) {
  /** The organization, actor and origin of an audit entry. */
  const context = (actor: PeopleActor) =>
    actor.kind === 'person'
      ? {
          organizationId: actor.me.organizationId,
          actor: { id: actor.me.userId, name: actor.me.name, email: actor.me.email },
          ip: actor.origin.ip ?? null,
          userAgent: actor.origin.userAgent ?? null,
        }
      : actor.kind === 'scim' || actor.kind === 'sign-in'
        ? {
            organizationId: actor.organizationId,
            actor: actor.kind === 'scim' ? scimAuditActor(actor.token) : actor.person,
            ip: actor.origin.ip ?? null,
            userAgent: actor.origin.userAgent ?? null,
          }
        : { organizationId: actor.organizationId, actor: COMMAND_LINE, ip: null, userAgent: null };
  const target = (person: PersonRecord) => ({
    type: 'person' as const,
    id: person.id,
    label: person.email,
  });

  /** Locks the people of the organization named; 404 naming the first unknown id. */
  async function lockPeople(tx: Transaction, actor: PeopleActor, ids: string[]) {
    const people = await repo.lockPeople(tx, organizationOf(actor), ids);
    const known = new Set(people.map((person) => person.id));
    const unknown = ids.find((id) => !known.has(id));
    if (unknown) throw notFound(`Person ${unknown} was not found`);
    return people;
  }

  /**
   * Refuses a change that would leave no active administrator: `losing` are the active
   * administrators the change demotes, disables or deletes. Locks, then counts. The command
   * line names the person in its one-line refusal, as it always has.
   */
  async function keepAnAdmin(tx: Transaction, actor: PeopleActor, losing: PersonRecord[]) {
    const leaving = losing.filter((p) => p.role === 'admin' && p.status === 'active');
    if (leaving.length === 0) return;
    const admins = await repo.lockAndCountAdmins(tx, organizationOf(actor));
    if (admins - leaving.length < 1) {
      const [only] = leaving;
      throw conflict(
        actor.kind === 'command line' && only && leaving.length === 1
          ? `${only.email} is the last active administrator; make someone else an administrator first.`
          : LAST_ADMIN,
      );
    }
  }

  /** Removes people after deciding what becomes of their shared collections. */
  async function offboard(
    tx: Transaction,
    actor: PeopleActor,
    people: PersonRecord[],
    choice: OffboardingChoice,
  ) {
    const ids = people.map((p) => p.id);
    const self = selfOf(actor);
    if (self !== null && ids.includes(self)) throw conflict('You cannot delete yourself.');
    await keepAnAdmin(tx, actor, people);
    const shared = await repo.sharedCollections(tx, ids);
    let heir: PersonRecord | null = null;
    if (choice.collections === 'transfer') {
      if (!choice.transferTo)
        throw badRequest('Choose the colleague who receives the shared collections.');
      if (ids.includes(choice.transferTo)) {
        throw conflict('The colleague who receives the collections cannot be deleted with them.');
      }
      const [found] = await repo.lockPeople(tx, organizationOf(actor), [choice.transferTo]);
      if (!found || found.status !== 'active') {
        throw notFound(`Person ${choice.transferTo} was not found among the active people`);
      }
      heir = found;
    }
    for (const collection of shared) {
      if (heir) await repo.transferShared(tx, collection, organizationOf(actor), heir.id);
      else await repo.deleteCollection(tx, collection.id);
    }
    await repo.deletePeople(tx, ids);
    for (const person of people) {
      const theirs = shared.filter((c) => c.ownerId === person.id);
      await audit.record(tx, {
        ...context(actor),
        action: 'person.deleted',
        target: target(person),
        before: {
          name: person.name,
          email: person.email,
          role: person.role,
          status: person.status,
        },
        ...detailsOf(actor, {
          sharedCollections: theirs.map((c) => ({ id: c.id, name: c.name })),
          collections: choice.collections,
          transferTo: heir ? { id: heir.id, email: heir.email } : null,
        }),
      });
    }
  }

  /**
   * Applies one change of role or status to locked people, audited; how many changed.
   * Disabling ends their sessions and revokes their access tokens.
   */
  async function setField(
    tx: Transaction,
    actor: PeopleActor,
    people: PersonRecord[],
    field: 'role' | 'status',
    value: string,
    note: Record<string, unknown> = {},
  ) {
    const changing = people.filter((p) => p[field] !== value);
    const self = selfOf(actor);
    if (field === 'status' && value === 'disabled' && changing.some((p) => p.id === self)) {
      throw conflict('You cannot disable yourself.');
    }
    // SCIM may disable an invited person (the identity system deprovisions whom it knows);
    // nobody else enables or disables an invitation.
    const fromScimToDisabled = actor.kind === 'scim' && value === 'disabled';
    if (field === 'status' && !fromScimToDisabled && changing.some((p) => p.status === 'invited')) {
      throw conflict('An invited person becomes active by accepting their invitation.');
    }
    const losing =
      (field === 'role' && value === 'member') || (field === 'status' && value === 'disabled');
    if (losing) await keepAnAdmin(tx, actor, changing);
    for (const person of changing) {
      await repo.update(tx, person.id, { [field]: value });
      if (field === 'status') await repo.setScimDisabled(tx, person.id, fromScimToDisabled);
      // Disabling ends sessions and revokes access tokens for good: enabling the person
      // again brings none of them back.
      const ended =
        field === 'status' && value === 'disabled' ? await repo.endSessions(tx, [person.id]) : null;
      const action =
        field === 'role'
          ? 'person.role-changed'
          : value === 'disabled'
            ? 'person.disabled'
            : 'person.enabled';
      await audit.record(tx, {
        ...context(actor),
        action,
        target: target(person),
        before: { [field]: person[field] },
        after: { [field]: value },
        ...detailsOf(
          actor,
          ended || Object.keys(note).length > 0
            ? {
                ...(ended
                  ? { sessionsEnded: ended.sessions, accessTokensRevoked: ended.accessTokens }
                  : {}),
                ...note,
              }
            : undefined,
        ),
      });
    }
    return changing.length;
  }

  return {
    context,
    target,
    lockPeople,
    setField,
    offboard,
    detailsOf,
    /** Whether anyone of any organization has the address, compared case-insensitively. */
    emailTaken: repo.emailTaken,
    /** A new person and their My Space. */
    insertPerson: repo.insert,
  };
}
export type PeopleRules = ReturnType<typeof createPeopleRules>;
