import type { AuditAction } from '@signpost/contract';
import type { FastifyRequest } from 'fastify';
import type { Executor } from '../../db/client.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { newId } from '../../lib/ids.ts';
import { createAuditRepository } from './audit.repository.ts';

/** Who did something: a person as they were at that moment, or nobody known (null id). */
export interface AuditActor {
  id: string | null;
  name?: string | null;
  email?: string | null;
}

/** Where a request came from. */
export interface AuditOrigin {
  ip?: string | null;
  userAgent?: string | null;
}

export interface AuditTarget {
  type:
    | 'person'
    | 'team'
    | 'organization'
    | 'collection'
    | 'link'
    | 'share'
    | 'suggestion'
    | 'access-token'
    | 'session'
    | 'invitation';
  id: string;
  /** What the target was called then: a name or an e-mail. */
  label?: string | null;
}

export interface AuditEntry extends AuditOrigin {
  organizationId: string | null;
  actor: AuditActor | null;
  action: AuditAction;
  target?: AuditTarget | null;
  /** The values before and after a change, only the fields that changed. */
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
  details?: Record<string, unknown> | null;
}

const clip = (text: string | null | undefined, max: number) =>
  text == null ? null : text.slice(0, max);

/** The actor and origin of a signed-in request, for `record`. */
export function auditContext(request: FastifyRequest, me: AuthContext) {
  return {
    organizationId: me.organizationId,
    actor: { id: me.userId, name: me.name, email: me.email },
    ...originOf(request),
  };
}

/** The address and browser of a request. */
export function originOf(request: FastifyRequest): Required<AuditOrigin> {
  return { ip: request.ip, userAgent: clip(request.headers['user-agent'], 500) };
}

/**
 * The audit log. `record` writes through the executor it is given, so that an entry is part
 * of the transaction of the change it describes: both are kept, or neither.
 */
export function createAuditService(db: Executor) {
  return {
    async record(entry: AuditEntry, executor: Executor = db): Promise<void> {
      await createAuditRepository(executor).insert({
        id: newId(),
        organizationId: entry.organizationId,
        actorId: entry.actor?.id ?? null,
        actorName: clip(entry.actor?.name, 200),
        actorEmail: clip(entry.actor?.email, 320),
        action: entry.action,
        targetType: entry.target?.type ?? null,
        targetId: entry.target?.id ?? null,
        targetLabel: clip(entry.target?.label, 320),
        ip: clip(entry.ip, 100),
        userAgent: clip(entry.userAgent, 500),
        before: entry.before ?? null,
        after: entry.after ?? null,
        details: entry.details ?? null,
      });
    },
  };
}
export type AuditService = ReturnType<typeof createAuditService>;

/** The fields of `after` that differ from `before`, each side with only those fields. */
export function changes<T extends Record<string, unknown>>(before: T, after: Partial<T>) {
  const was: Record<string, unknown> = {};
  const is: Record<string, unknown> = {};
  for (const key of Object.keys(after)) {
    if (after[key] !== undefined && JSON.stringify(before[key]) !== JSON.stringify(after[key])) {
      was[key] = before[key];
      is[key] = after[key];
    }
  }
  return Object.keys(is).length ? { before: was, after: is } : null;
}
