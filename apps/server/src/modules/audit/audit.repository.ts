import { sql, type SQL } from 'drizzle-orm';
import { selectRows, type Executor } from '../../db/client.ts';
import { auditLog } from '../../db/schema/index.ts';

export type AuditRow = typeof auditLog.$inferInsert;

/** What the list and the export filter on, already checked by the service. */
export interface AuditFilter {
  organizationId: string;
  person?: string | undefined;
  /** Exact action names. */
  actions?: string[] | undefined;
  /** Group prefixes such as `person.`. */
  groups?: string[] | undefined;
  from?: string | undefined;
  to?: string | undefined;
  q?: string | undefined;
}

/** The position after which the next page starts: the last entry's instant (exact) and id. */
export interface AuditPosition {
  at: string;
  id: string;
}

export interface AuditLogRow {
  id: string;
  occurredAt: Date | string;
  /** occurred_at as text, to the microsecond, for the next page's position. */
  at: string;
  actorId: string | null;
  actorName: string | null;
  actorEmail: string | null;
  action: string;
  targetType: string | null;
  targetId: string | null;
  targetLabel: string | null;
  ip: string | null;
  userAgent: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  details: Record<string, unknown> | null;
}

/** `%` and `_` typed by a person are letters, not wildcards. */
const likeText = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function conditions(filter: AuditFilter, after: AuditPosition | null): SQL {
  const parts: SQL[] = [sql`organization_id = ${filter.organizationId}`];
  if (filter.person) {
    parts.push(sql`(actor_id = ${filter.person} OR target_id = ${filter.person})`);
  }
  const kinds: SQL[] = [];
  if (filter.actions?.length) {
    kinds.push(
      sql`action IN (${sql.join(
        filter.actions.map((a) => sql`${a}`),
        sql`, `,
      )})`,
    );
  }
  for (const group of filter.groups ?? []) kinds.push(sql`action LIKE ${likeText(group).slice(1)}`);
  if (kinds.length) parts.push(sql`(${sql.join(kinds, sql` OR `)})`);
  if (filter.from) parts.push(sql`occurred_at >= ${filter.from}::timestamptz`);
  if (filter.to) parts.push(sql`occurred_at < ${filter.to}::timestamptz`);
  if (filter.q) {
    const like = likeText(filter.q);
    parts.push(
      sql`(actor_name ILIKE ${like} OR actor_email ILIKE ${like} OR target_label ILIKE ${like})`,
    );
  }
  if (after) parts.push(sql`(occurred_at, id) < (${after.at}::timestamptz, ${after.id})`);
  return sql.join(parts, sql` AND `);
}

export function createAuditRepository() {
  return {
    async insert(db: Executor, row: AuditRow): Promise<void> {
      await db.insert(auditLog).values(row);
    },

    /** One page of entries, newest first, after a position (keyset pagination). */
    page(db: Executor, filter: AuditFilter, after: AuditPosition | null, limit: number) {
      return selectRows<AuditLogRow>(
        db,
        sql`SELECT id, occurred_at AS "occurredAt", occurred_at::text AS at,
                   actor_id AS "actorId", actor_name AS "actorName", actor_email AS "actorEmail",
                   action, target_type AS "targetType", target_id AS "targetId",
                   target_label AS "targetLabel", ip, user_agent AS "userAgent",
                   before, after, details
            FROM audit_log
            WHERE ${conditions(filter, after)}
            ORDER BY occurred_at DESC, id DESC
            LIMIT ${limit}`,
      );
    },

    /**
     * Deletes up to `batch` entries past their organization's retention (and entries of no
     * organization older than `orphanDays`); returns how many went.
     */
    async deleteExpired(db: Executor, batch: number, orphanDays: number): Promise<number> {
      const rows = await selectRows<{ id: string }>(
        db,
        sql`DELETE FROM audit_log WHERE id IN (
              SELECT a.id FROM audit_log a
              LEFT JOIN organizations o ON o.id = a.organization_id
              WHERE a.occurred_at < now() - make_interval(
                      days => coalesce(o.audit_retention_days, ${orphanDays}))
                AND (o.id IS NOT NULL OR a.organization_id IS NULL)
              LIMIT ${batch})
            RETURNING id`,
      );
      return rows.length;
    },
  };
}
export type AuditRepository = ReturnType<typeof createAuditRepository>;
