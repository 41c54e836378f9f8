import type { OffboardingChoice } from '@signpost/contract';
import type { Transaction } from '../../db/client.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { badRequest, conflict, notFound } from '../../lib/errors.ts';
import type { AuditService } from '../audit/audit.service.ts';
import { createPeopleRepository, type PersonRecord } from './people.repository.ts';
import { type AuditOrigin } from '../../lib/request-context.ts';

const LAST_ADMIN =
  'The organization needs at least one active administrator: make someone else an administrator first.';

/**
 * The rules every change of people shares, inside the caller's transaction: locking the
 * people named, keeping an active administrator, changing role or status, offboarding.
 */
export function createPeopleRules(audit: AuditService) {
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
      // Disabling ends sessions and revokes access tokens for good: enabling the person
      // again brings none of them back.
      const ended =
        field === 'status' && value === 'disabled' ? await repo.endSessions([person.id]) : null;
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
          ...(ended
            ? {
                details: { sessionsEnded: ended.sessions, accessTokensRevoked: ended.accessTokens },
              }
            : {}),
        },
        tx,
      );
    }
    return changing.length;
  }

  return { context, target, lockPeople, setField, offboard };
}
