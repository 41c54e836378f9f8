import type { AuditAction } from '@signpost/contract';
import type { Executor } from '../../db/client.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { createAuditService, type AuditTarget } from './audit.service.ts';
import { type AuditOrigin } from '../../lib/request-context.ts';

/** Where a content change happened: only team and organization spaces are audited. */
export type ContentSpace = 'personal' | 'team' | 'organization';

export interface ContentChange {
  action: Extract<AuditAction, `content.${string}`>;
  target: AuditTarget;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
  details?: Record<string, unknown> | null;
}

/**
 * Records a change of team or organization content in the audit log, through the
 * transaction of the change itself (decision 0008). Personal content and shares are the
 * person's own and are not recorded here.
 */
export async function recordContentChange(
  tx: Executor,
  me: AuthContext,
  origin: AuditOrigin | undefined,
  space: ContentSpace,
  change: ContentChange,
): Promise<void> {
  if (space === 'personal') return;
  await createAuditService(tx).record(
    {
      organizationId: me.organizationId,
      actor: { id: me.userId, name: me.name, email: me.email },
      ip: origin?.ip ?? null,
      userAgent: origin?.userAgent ?? null,
      ...change,
      details: { space, ...change.details },
    },
    tx,
  );
}
