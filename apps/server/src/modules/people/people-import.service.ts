// People from a CSV file (decision 0085): a preview of what the file makes, then the import in
// one transaction, new people invited as the console's invite does, invitations mailed after
// the commit when mail is set up.
import { randomBytes } from 'node:crypto';
import {
  PEOPLE_LIMITS,
  type PeopleImportApplyBody,
  type PeopleImportBody,
  type PeopleImportPreview,
  type PeopleImportResult,
} from '@signpost/contract';
import type { Config } from '../../config.ts';
import type { Database, Executor } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { Jobs } from '../../jobs/queue.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { conflict } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { assertRecentlyAuthenticated } from '../../lib/reauthentication.ts';
import type { AuditOrigin } from '../../lib/request-context.ts';
import type { AdminAccess } from '../access/admin-access.ts';
import {
  hashInvitationToken,
  invitationLink,
  type InvitationsService,
} from '../invitations/invitations.service.ts';
import { invitationMail } from './invitation-mail.ts';
import { parsePeopleCsv, type ImportRow } from './people-import.parse.ts';
import { planImport, type ImportPlan } from './people-import.plan.ts';
import type { ImportAuditRow, PeopleImportRepository } from './people-import.repository.ts';
import type { PeopleRepository } from './people.repository.ts';
import { INVITATION_MAIL } from './people.service.ts';

/** Mails put on the queue at once after an import. */
const MAIL_CONCURRENCY = 16;

export interface PeopleImportDeps {
  db: Database;
  config: Config;
  peopleImport: PeopleImportRepository;
  /** The advisory lock of the last administrator, shared with every change of role. */
  people: Pick<PeopleRepository, 'lockAndCountAdmins'>;
  adminAccess: AdminAccess;
  invitations: Pick<InvitationsService, 'mailNotQueued'>;
  jobs: Pick<Jobs, 'mailEnabled' | 'sendMail'>;
}

export function createPeopleImportService({
  db,
  config,
  peopleImport: repository,
  people,
  adminAccess,
  invitations,
  jobs,
}: PeopleImportDeps) {
  /** The plan of the file against what the database holds, read through `executor`. */
  async function plan(
    executor: Executor,
    me: AuthContext,
    rows: ImportRow[],
    inTransaction: boolean,
  ): Promise<ImportPlan> {
    const lowered = [...new Set(rows.map((r) => r.email.toLowerCase()).filter(Boolean))];
    const existing = await repository.findByEmails(executor, lowered, inTransaction);
    const teams = await repository.teams(executor, me.organizationId);
    const wanted = new Map(rows.map((r) => [r.email.toLowerCase(), r.role?.toLowerCase()]));
    // The administrators are counted only when the file would demote one; inside the import
    // under the lock every change of role takes (decision 0042), so two changes at once
    // cannot leave the organization without one.
    const demotes = existing.some(
      (p) =>
        p.organizationId === me.organizationId &&
        p.role === 'admin' &&
        p.status === 'active' &&
        wanted.get(p.email.toLowerCase()) === 'member',
    );
    const activeAdmins = !demotes
      ? 0
      : inTransaction
        ? await people.lockAndCountAdmins(executor, me.organizationId)
        : await repository.activeAdmins(executor, me.organizationId);
    return planImport(rows, { organizationId: me.organizationId, existing, teams, activeAdmins });
  }

  return {
    /** What the file would make: counts, refusals with their rows, the first planned rows. */
    async preview(me: AuthContext, body: PeopleImportBody): Promise<PeopleImportPreview> {
      adminAccess.admin(me);
      const rows = parsePeopleCsv(body.csv);
      const planned = await plan(db, me, rows, false);
      return {
        create: planned.creates.length,
        change: planned.changes.length,
        unchanged: planned.unchanged,
        refused: planned.refused,
        rows: planned.rows,
        mailEnabled: jobs.mailEnabled,
        changesRoles: planned.changesRoles,
      };
    },

    /**
     * Applies the file in one transaction: the refused rows are left out, everything else is
     * written, or nothing is. Invitations are mailed once it has committed.
     */
    async apply(
      me: AuthContext,
      body: PeopleImportApplyBody,
      origin: AuditOrigin,
    ): Promise<PeopleImportResult> {
      adminAccess.admin(me);
      const rows = parsePeopleCsv(body.csv);
      const mail = body.sendInvitations && jobs.mailEnabled;
      const importId = newId();
      const expiresAt = new Date(Date.now() + PEOPLE_LIMITS.invitationDays * 24 * 3600_000);
      const done = await db
        .transaction(async (tx) => {
          const planned = await plan(tx, me, rows, true);
          // decision 0048: a role decides who runs the organization.
          if (planned.changesRoles) {
            assertRecentlyAuthenticated(me, 'make administrators or change roles from a file');
          }
          const made = planned.creates.map((c) => {
            const token = randomBytes(32).toString('base64url');
            return { ...c, id: newId(), myspaceId: newId(), invitationId: newId(), token };
          });
          await repository.insertPeople(tx, me.organizationId, made);
          await repository.insertInvitations(
            tx,
            me.organizationId,
            me.userId,
            expiresAt,
            mail,
            made.map((m) => ({
              id: m.invitationId,
              userId: m.id,
              tokenHash: hashInvitationToken(m.token),
            })),
          );
          await repository.updatePeople(
            tx,
            planned.changes
              .filter((c) => c.changes.includes('name') || c.changes.includes('role'))
              .map((c) => ({ id: c.person.id, name: c.name, role: c.role })),
          );
          await repository.insertMemberships(
            tx,
            me.organizationId,
            made.flatMap((m) => m.teams.map((t) => ({ teamId: t.id, userId: m.id }))),
          );
          await repository.addMemberships(
            tx,
            me.organizationId,
            planned.changes.flatMap((c) =>
              c.teams.map((t) => ({ teamId: t.id, userId: c.person.id })),
            ),
          );
          await repository.insertAudit(
            tx,
            {
              organizationId: me.organizationId,
              actor: { id: me.userId, name: me.name, email: me.email },
              ip: origin.ip ?? null,
              userAgent: origin.userAgent ?? null,
            },
            auditEntries(importId, planned, made, expiresAt, rows.length),
          );
          return { planned, made };
        })
        .catch((error: unknown) => {
          // Someone took one of the addresses between the plan and the insert.
          if (isUniqueViolation(error)) {
            throw conflict(
              'Someone got one of these e-mail addresses meanwhile: preview the file again.',
            );
          }
          throw error;
        });

      let invitationsMailed = 0;
      if (mail) {
        const queue = [...done.made];
        const worker = async () => {
          for (let next = queue.shift(); next; next = queue.shift()) {
            const person = next;
            try {
              await jobs.sendMail(
                invitationMail({
                  to: person.email,
                  name: person.name,
                  by: me.name,
                  organization: me.organizationName,
                  link: invitationLink(config, person.token),
                }),
                { kind: INVITATION_MAIL, id: person.invitationId },
              );
              invitationsMailed += 1;
            } catch {
              // As the console's invite: no mail went, and the person's page says so.
              await invitations.mailNotQueued(person.invitationId).catch(() => {});
            }
          }
        };
        await Promise.all(Array.from({ length: MAIL_CONCURRENCY }, worker));
      }
      return {
        created: done.made.length,
        changed: done.planned.changes.length,
        unchanged: done.planned.unchanged,
        refused: done.planned.refused,
        invitationsMailed,
      };
    },
  };
}
export type PeopleImportService = ReturnType<typeof createPeopleImportService>;

/**
 * The import's audit entries: one `person.imported` for the whole file, then each person's as
 * the console writes them — `person.invited` for a new person, `person.updated` for a new
 * name or teams joined, `person.role-changed` for a new role — each naming the import.
 */
function auditEntries(
  importId: string,
  planned: ImportPlan,
  made: (ImportPlan['creates'][number] & { id: string })[],
  expiresAt: Date,
  fileRows: number,
): ImportAuditRow[] {
  const entries: ImportAuditRow[] = [
    {
      id: newId(),
      action: 'person.imported',
      targetType: null,
      targetId: null,
      targetLabel: null,
      before: null,
      after: null,
      details: {
        import: importId,
        rows: fileRows,
        created: made.length,
        changed: planned.changes.length,
        unchanged: planned.unchanged,
        refused: planned.refused.length,
      },
    },
  ];
  for (const m of made) {
    entries.push({
      id: newId(),
      action: 'person.invited',
      targetType: 'person',
      targetId: m.id,
      targetLabel: m.email,
      before: null,
      after: { name: m.name, email: m.email, role: m.role, status: 'invited' },
      details: {
        import: importId,
        row: m.row,
        expiresAt: expiresAt.toISOString(),
        ...(m.teams.length > 0 ? { teams: m.teams.map((t) => t.name) } : {}),
      },
    });
  }
  for (const c of planned.changes) {
    const target = { targetType: 'person', targetId: c.person.id, targetLabel: c.person.email };
    if (c.changes.includes('name') || c.changes.includes('teams')) {
      const named = c.changes.includes('name');
      entries.push({
        id: newId(),
        action: 'person.updated',
        ...target,
        before: named ? { name: c.person.name } : null,
        after: named ? { name: c.name } : null,
        details: {
          import: importId,
          row: c.row,
          ...(c.teams.length > 0 ? { teamsJoined: c.teams.map((t) => t.name) } : {}),
        },
      });
    }
    if (c.changes.includes('role')) {
      entries.push({
        id: newId(),
        action: 'person.role-changed',
        ...target,
        before: { role: c.person.role },
        after: { role: c.role },
        details: { import: importId, row: c.row },
      });
    }
  }
  return entries;
}
