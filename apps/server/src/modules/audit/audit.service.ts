import { Readable } from 'node:stream';
import {
  AUDIT_ACTION_GROUPS,
  AUDIT_ACTIONS,
  AUDIT_PAGE,
  type AuditAction,
  type AuditEntry as WireAuditEntry,
  type AuditExportQuery,
  type AuditLogQuery,
  type AuditLogResponse,
  withoutBidiControls,
} from '@signpost/contract';
import { stringify } from 'csv-stringify';
import type { Database, Executor } from '../../db/client.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import type { AuditOrigin } from '../../lib/request-context.ts';
import { badRequest } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import type {
  AuditFilter,
  AuditLogRow,
  AuditPosition,
  AuditRepository,
} from './audit.repository.ts';
import type { AdminAccess } from '../access/admin-access.ts';

/** Who did something: a person as they were at that moment, or nobody known (null id). */
export interface AuditActor {
  id: string | null;
  name?: string | null;
  email?: string | null;
}

/**
 * The command line (`npm run admin`) as the actor of an entry: no person, named so that the
 * console shows and its search finds who did it.
 */
export const COMMAND_LINE: AuditActor = { id: null, name: 'command line', email: null };

/** A SCIM token as the actor of an entry: no person, its name (decision 0084). */
export const scimAuditActor = (token: { name: string }): AuditActor => ({
  id: null,
  name: `SCIM token "${token.name}"`,
  email: null,
});

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
    | 'scim-token'
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

/** The actor and origin of an event, for services that get the origin from their route. */
export function auditOf(me: AuthContext, origin: AuditOrigin) {
  return {
    organizationId: me.organizationId,
    actor: { id: me.userId, name: me.name, email: me.email },
    ...origin,
  };
}

const KNOWN_ACTIONS = new Set<string>(AUDIT_ACTIONS);
const KNOWN_GROUPS = new Set<string>(AUDIT_ACTION_GROUPS);
/** Entries of no organization (a refused first-run setup) are kept this long. */
export const ORPHAN_RETENTION_DAYS = 365;
const EXPORT_PAGE = 500;
const PURGE_BATCH = 5000;

/** The checked filter of a query: unknown action names and reversed dates are 400. */
function filterOf(me: AuthContext, query: AuditExportQuery): AuditFilter {
  const actions: string[] = [];
  const groups: string[] = [];
  for (const name of query.action ? query.action.split(',') : []) {
    if (KNOWN_GROUPS.has(name)) groups.push(name);
    else if (KNOWN_ACTIONS.has(name)) actions.push(name);
    else throw badRequest(`There is no action or group of actions called "${name}".`);
  }
  if (query.from && query.to && Date.parse(query.from) > Date.parse(query.to)) {
    throw badRequest('The start of the period is after its end.');
  }
  const q = query.q?.trim();
  return {
    organizationId: me.organizationId,
    person: query.person,
    actions,
    groups,
    from: query.from,
    to: query.to,
    q: q || undefined,
  };
}

const encodeCursor = (row: AuditLogRow) =>
  Buffer.from(JSON.stringify([row.at, row.id])).toString('base64url');

function decodeCursor(cursor: string | undefined): AuditPosition | null {
  if (!cursor) return null;
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      typeof value[0] === 'string' &&
      typeof value[1] === 'string' &&
      /^\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(\.\d{1,6})?([+-]\d\d(:?\d\d)?|Z)$/.test(value[0]) &&
      /^[A-Za-z0-9_-]{1,40}$/.test(value[1])
    ) {
      return { at: value[0], id: value[1] };
    }
  } catch {
    // Falls through to the refusal.
  }
  throw badRequest('The cursor is not one this list gave out.');
}

const iso = (value: Date | string) => new Date(value).toISOString();

/**
 * A value of the log without bidirectional controls in any string (decision 0081). Texts are
 * cleaned where they enter, so only entries written before that can hold one; the log is
 * never rewritten (its guard refuses every UPDATE), so they are taken out on the way out, for
 * the console and the CSV alike.
 */
export function plainValue<T>(value: T): T {
  if (typeof value === 'string') return withoutBidiControls(value) as T;
  if (Array.isArray(value)) return value.map(plainValue) as T;
  if (value === null || typeof value !== 'object' || value instanceof Date) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [withoutBidiControls(key), plainValue(inner)]),
  ) as T;
}

function toWire(stored: AuditLogRow): WireAuditEntry {
  const row = plainValue(stored);
  const actor =
    row.actorId || row.actorName || row.actorEmail
      ? { id: row.actorId, name: row.actorName, email: row.actorEmail }
      : null;
  return {
    id: row.id,
    occurredAt: iso(row.occurredAt),
    actor,
    action: row.action,
    target:
      row.targetType && row.targetId
        ? { type: row.targetType, id: row.targetId, label: row.targetLabel }
        : null,
    ip: row.ip,
    userAgent: row.userAgent,
    before: row.before,
    after: row.after,
    details: row.details,
  };
}

export const CSV_COLUMNS = [
  'occurred_at',
  'actor_id',
  'actor_name',
  'actor_email',
  'action',
  'target_type',
  'target_id',
  'target_label',
  'ip',
  'user_agent',
  'before',
  'after',
  'details',
] as const;

/**
 * A cell a spreadsheet would take for a formula (OWASP "CSV injection") gets a leading
 * apostrophe, so that it is shown as the text it is.
 */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

function csvRow(stored: AuditLogRow): string[] {
  const row = plainValue(stored);
  return [
    iso(row.occurredAt),
    row.actorId,
    row.actorName,
    row.actorEmail,
    row.action,
    row.targetType,
    row.targetId,
    row.targetLabel,
    row.ip,
    row.userAgent,
    row.before,
    row.after,
    row.details,
  ].map(csvCell);
}

/** Where a content change happened: only team and organization spaces are audited. */
export type ContentSpace = 'personal' | 'team' | 'organization';

/**
 * Where content changed and the changer's relation to it (access/permissions.ts's
 * `Relation`): `team-admin` is an administrator acting in a team they are not in.
 */
export interface ContentPlace {
  space: ContentSpace;
  relation?: string;
}

export interface ContentChange {
  action: Extract<AuditAction, `content.${string}`>;
  target: AuditTarget;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
  details?: Record<string, unknown> | null;
}

export interface AuditDeps {
  db: Database;
  audit: AuditRepository;
  adminAccess: AdminAccess;
}

/**
 * The audit log: entries written through the executor of the change they describe (both are
 * kept, or neither), the console's list and CSV export (administrators), and the retention.
 */
export function createAuditService({ db, audit: repository, adminAccess }: AuditDeps) {
  async function record(executor: Executor, entry: AuditEntry): Promise<void> {
    await repository.insert(executor, {
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
  }

  /** Every entry of the filter, newest first, read a page at a time. */
  async function* rows(filter: AuditFilter): AsyncGenerator<string[]> {
    yield [...CSV_COLUMNS];
    let after: AuditPosition | null = null;
    for (;;) {
      const page = await repository.page(db, filter, after, EXPORT_PAGE);
      for (const row of page) yield csvRow(row);
      const last = page.at(-1);
      if (page.length < EXPORT_PAGE || !last) return;
      after = { at: last.at, id: last.id };
    }
  }

  return {
    record,

    /**
     * Records a change of team or organization content, through the transaction of the
     * change itself (decision 0008). Personal content and shares are the person's own and are
     * not recorded.
     */
    async recordContentChange(
      tx: Executor,
      me: AuthContext,
      origin: AuditOrigin | undefined,
      where: ContentSpace | ContentPlace,
      change: ContentChange,
    ): Promise<void> {
      const { space, relation } = typeof where === 'string' ? { space: where } : where;
      if (space === 'personal') return;
      await record(tx, {
        organizationId: me.organizationId,
        actor: { id: me.userId, name: me.name, email: me.email },
        ip: origin?.ip ?? null,
        userAgent: origin?.userAgent ?? null,
        ...change,
        // An administrator changing a team they are not in (decision 0008) says so: the team
        // sees who ran its space from outside.
        details: {
          space,
          ...(relation === 'team-admin' ? { asAdministrator: true } : {}),
          ...change.details,
        },
      });
    },

    /** A page of the console's list (administrators). */
    async list(me: AuthContext, query: AuditLogQuery): Promise<AuditLogResponse> {
      adminAccess.admin(me);
      const filter = filterOf(me, query);
      const limit = query.limit ?? AUDIT_PAGE.default;
      const page = await repository.page(db, filter, decodeCursor(query.cursor), limit + 1);
      const items = page.slice(0, limit);
      const last = items.at(-1);
      return {
        items: items.map(toWire),
        nextCursor: page.length > limit && last ? encodeCursor(last) : null,
      };
    },

    /**
     * The CSV of every entry of the filter (administrators), as a stream: the filter is
     * checked first (a bad one throws before anything is sent), then pages are read as the
     * client reads.
     */
    exportCsv(me: AuthContext, query: AuditExportQuery): Readable {
      adminAccess.admin(me);
      const filter = filterOf(me, query);
      const source = Readable.from(rows(filter));
      const csv = stringify({ bom: true });
      // A database failure half-way ends the download with an error, not a short file.
      source.on('error', (error) => csv.destroy(error));
      return source.pipe(csv);
    },

    /**
     * Deletes every entry older than its organization keeps entries, in batches so that no
     * statement runs long; how many went. The database allows exactly these deletions.
     */
    async purgeExpired(): Promise<number> {
      let total = 0;
      for (;;) {
        const deleted = await repository.deleteExpired(db, PURGE_BATCH, ORPHAN_RETENTION_DAYS);
        total += deleted;
        if (deleted < PURGE_BATCH) return total;
      }
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
