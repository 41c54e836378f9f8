import type { PersonRole, PersonStatus } from '@signpost/contract';
import { sql } from 'drizzle-orm';
import { selectRows, type Executor } from '../../db/client.ts';

/** Someone the file names by e-mail address, of any organization. */
export interface ImportedPersonRecord {
  id: string;
  organizationId: string;
  name: string;
  email: string;
  role: PersonRole;
  status: PersonStatus;
  /** The teams they are in by hand (a console membership), by id. */
  consoleTeamIds: string[];
}

export interface NewImportedPerson {
  id: string;
  myspaceId: string;
  name: string;
  email: string;
  role: PersonRole;
}

export interface ImportedInvitation {
  id: string;
  userId: string;
  tokenHash: string;
}

export interface ImportAuditRow {
  id: string;
  action: string;
  targetId: string | null;
  targetType: string | null;
  targetLabel: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  details: Record<string, unknown> | null;
}

/** Who wrote the entries of an import, the same for every entry. */
export interface ImportAuditContext {
  organizationId: string;
  actor: { id: string; name: string; email: string };
  ip: string | null;
  userAgent: string | null;
}

const texts = (values: readonly (string | null)[]) => sql`${sql.param(values)}::text[]`;
const json = (value: Record<string, unknown> | null) =>
  value === null ? null : JSON.stringify(value);

/**
 * SQL of an import of people from a file (decision 0085): every write is one statement for
 * all the rows (arrays unnested), never one a row, so that 10,000 people take seconds.
 */
export function createPeopleImportRepository() {
  return {
    /**
     * The people of any organization with one of these addresses (compared lowered), with
     * the teams they are in by hand; with `lock`, their rows are locked, in id order.
     */
    async findByEmails(
      db: Executor,
      lowered: string[],
      lock: boolean,
    ): Promise<ImportedPersonRecord[]> {
      if (lowered.length === 0) return [];
      return selectRows<ImportedPersonRecord>(
        db,
        sql`SELECT u.id, u.organization_id AS "organizationId", u.name, u.email, u.role,
                   u.status,
                   coalesce((SELECT array_agg(m.team_id ORDER BY m.team_id)
                             FROM team_memberships m
                             WHERE m.user_id = u.id AND m.from_console), '{}') AS "consoleTeamIds"
            FROM users u
            WHERE lower(u.email) = ANY(${texts(lowered)})
            ORDER BY u.id
            ${lock ? sql`FOR UPDATE OF u` : sql``}`,
      );
    },

    /** How many active administrators the organization has (the preview's count). */
    async activeAdmins(db: Executor, organizationId: string): Promise<number> {
      const rows = await selectRows<{ n: number }>(
        db,
        sql`SELECT count(*)::int AS n FROM users
            WHERE organization_id = ${organizationId} AND role = 'admin' AND status = 'active'`,
      );
      return rows[0]?.n ?? 0;
    },

    /** The organization's teams, by id and name. */
    async teams(db: Executor, organizationId: string) {
      return selectRows<{ id: string; name: string }>(
        db,
        sql`SELECT id, name FROM teams WHERE organization_id = ${organizationId}`,
      );
    },

    /** New people, status invited and without a password, each with their My Space. */
    async insertPeople(
      db: Executor,
      organizationId: string,
      people: NewImportedPerson[],
    ): Promise<void> {
      if (people.length === 0) return;
      const ids = people.map((p) => p.id);
      await db.execute(
        sql`INSERT INTO users (id, organization_id, name, email, role, status, password_hash)
            SELECT id, ${organizationId}, name, email, role, 'invited', NULL
            FROM unnest(${texts(ids)}, ${texts(people.map((p) => p.name))},
                        ${texts(people.map((p) => p.email))},
                        ${texts(people.map((p) => p.role))}) AS v(id, name, email, role)`,
      );
      await db.execute(
        sql`INSERT INTO collections (id, organization_id, owner_type, owner_user_id, is_root,
                                     name, position, created_by)
            SELECT space, ${organizationId}, 'user', person, true, 'My Space', 0, person
            FROM unnest(${texts(people.map((p) => p.myspaceId))}, ${texts(ids)})
                 AS v(space, person)`,
      );
    },

    /** One open invitation for each new person, its mail `queued` when one is to be sent. */
    async insertInvitations(
      db: Executor,
      organizationId: string,
      createdBy: string,
      expiresAt: Date,
      mail: boolean,
      invitations: ImportedInvitation[],
    ): Promise<void> {
      if (invitations.length === 0) return;
      const state = mail ? 'queued' : null;
      await db.execute(
        sql`INSERT INTO invitations (id, organization_id, user_id, kind, token_hash, created_by,
                                     expires_at, mail_state, mail_state_at)
            SELECT id, ${organizationId}, person, 'invitation', hash, ${createdBy},
                   ${expiresAt.toISOString()}::timestamptz, ${state}::text,
                   CASE WHEN ${state}::text IS NULL THEN NULL ELSE now() END
            FROM unnest(${texts(invitations.map((i) => i.id))},
                        ${texts(invitations.map((i) => i.userId))},
                        ${texts(invitations.map((i) => i.tokenHash))}) AS v(id, person, hash)`,
      );
    },

    /** New names and roles of existing people. */
    async updatePeople(
      db: Executor,
      people: { id: string; name: string; role: PersonRole }[],
    ): Promise<void> {
      if (people.length === 0) return;
      await db.execute(
        sql`UPDATE users u SET name = v.name, role = v.role, updated_at = now()
            FROM unnest(${texts(people.map((p) => p.id))}, ${texts(people.map((p) => p.name))},
                        ${texts(people.map((p) => p.role))}) AS v(id, name, role)
            WHERE u.id = v.id AND (u.name, u.role) IS DISTINCT FROM (v.name, v.role)`,
      );
    },

    /** The memberships of people this import made, members by hand (nothing to merge). */
    async insertMemberships(
      db: Executor,
      organizationId: string,
      pairs: { teamId: string; userId: string }[],
    ): Promise<void> {
      if (pairs.length === 0) return;
      await db.execute(
        sql`INSERT INTO team_memberships (team_id, user_id, organization_id, role)
            SELECT team, person, ${organizationId}, 'member'
            FROM unnest(${texts(pairs.map((p) => p.teamId))},
                        ${texts(pairs.map((p) => p.userId))}) AS v(team, person)`,
      );
    },

    /**
     * Memberships made by hand (source console) of people already there: new ones as members, and those another
     * source made become ones made by hand too. None is ever taken away. Returns how many
     * were added or became the console's.
     */
    async addMemberships(
      db: Executor,
      organizationId: string,
      pairs: { teamId: string; userId: string }[],
    ): Promise<number> {
      if (pairs.length === 0) return 0;
      const rows = await selectRows<{ n: number }>(
        db,
        sql`WITH added AS (
              INSERT INTO team_memberships (team_id, user_id, organization_id, role)
              SELECT team, person, ${organizationId}, 'member'
              FROM unnest(${texts(pairs.map((p) => p.teamId))},
                          ${texts(pairs.map((p) => p.userId))}) AS v(team, person)
              ON CONFLICT (team_id, user_id) DO UPDATE SET from_console = true
                WHERE NOT team_memberships.from_console
              RETURNING 1)
            SELECT count(*)::int AS n FROM added`,
      );
      return rows[0]?.n ?? 0;
    },

    /** The import's audit entries, in one statement. */
    async insertAudit(
      db: Executor,
      context: ImportAuditContext,
      entries: ImportAuditRow[],
    ): Promise<void> {
      if (entries.length === 0) return;
      await db.execute(
        sql`INSERT INTO audit_log (id, organization_id, actor_id, actor_name, actor_email, action,
                                   target_type, target_id, target_label, ip, user_agent,
                                   before, after, details)
            SELECT id, ${context.organizationId}, ${context.actor.id},
                   ${context.actor.name.slice(0, 200)}, ${context.actor.email.slice(0, 320)},
                   action, target_type, target_id, left(target_label, 320),
                   ${context.ip?.slice(0, 100) ?? null}, ${context.userAgent?.slice(0, 500) ?? null},
                   before::jsonb, after::jsonb, details::jsonb
            FROM unnest(${texts(entries.map((e) => e.id))},
                        ${texts(entries.map((e) => e.action))},
                        ${texts(entries.map((e) => e.targetType))},
                        ${texts(entries.map((e) => e.targetId))},
                        ${texts(entries.map((e) => e.targetLabel))},
                        ${texts(entries.map((e) => json(e.before)))},
                        ${texts(entries.map((e) => json(e.after)))},
                        ${texts(entries.map((e) => json(e.details)))})
                 AS v(id, action, target_type, target_id, target_label, before, after, details)`,
      );
    },
  };
}
export type PeopleImportRepository = ReturnType<typeof createPeopleImportRepository>;
