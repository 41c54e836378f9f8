import type * as Contract from '@signpost/contract';
import { sql } from 'drizzle-orm';
import { selectRows, type Executor } from '../../db/client.ts';
import type { CheckOutcome } from './check.ts';
import { dueInSeconds, nextState, type LinkState, type Transition } from './state.ts';

/** A link whose address is due to be checked, as a round takes it. */
export interface DueCheck {
  linkId: string;
  organizationId: string;
  url: string;
  state: LinkState;
  failures: number;
  movedTo: string | null;
  /** Rounds that took it since its last conclusive check, this one included. */
  tries: number;
}

/** The person a list is for: who they are and their role in the organization. */
export interface Viewer {
  userId: string;
  organizationId: string;
  role: 'member' | 'admin';
}

/**
 * A link that needs someone (broken or moved), as a person's list shows it: the contract's
 * item (packages/contract/src/link-health.ts), with its times as dates.
 */
export type AttentionLink = Omit<Contract.AttentionLink, 'since' | 'checkedAt'> & {
  since: Date;
  checkedAt: Date | null;
};

/** A broken link of a team or organization space, as the console lists it: the contract's. */
export type BrokenLink = Omit<Contract.BrokenLink, 'brokenSince' | 'checkedAt'> & {
  brokenSince: Date;
  checkedAt: Date | null;
};

/** What is known of a link's address. */
export interface LinkCheckState {
  url: string;
  state: LinkState;
  failures: number;
  status: number | null;
  failureKind: string | null;
  failure: string | null;
  movedTo: string | null;
  checkedAt: Date | null;
  since: Date;
}

const date = (value: Date | string) => new Date(value);
const dateOrNull = (value: Date | string | null) => (value === null ? null : new Date(value));

/** The longest failure message kept: for administrators and logs, not an archive. */
const MESSAGE_LENGTH = 500;

export function createLinkHealthRepository() {
  return {
    /**
     * Takes up to `limit` due links for a round and moves them `leaseSeconds` ahead, so that
     * no other round, on this instance or another, takes them while this one works: rows
     * another transaction holds are skipped, not waited for, so two rounds at once never get
     * the same link. A round that dies leaves them due again when the lease ends.
     */
    async takeDue(
      db: Executor,
      limit: number,
      leaseSeconds: number,
      takenBy: string | null = null,
    ): Promise<DueCheck[]> {
      return selectRows<DueCheck>(
        db,
        sql`UPDATE link_checks k SET due_at = now() + make_interval(secs => ${leaseSeconds}),
                   tries = k.tries + 1, taken_by = ${takenBy}
            FROM (SELECT link_id FROM link_checks WHERE due_at <= now()
                  ORDER BY due_at LIMIT ${limit} FOR UPDATE SKIP LOCKED) due
            WHERE k.link_id = due.link_id
            RETURNING k.link_id AS "linkId", k.organization_id AS "organizationId", k.url,
                      k.state, k.failures, k.moved_to AS "movedTo", k.tries`,
      );
    },

    /**
     * Gives back links a round took and did not get to (its time was up): due at once
     * again, the take not counted. Links whose lease was taken over meanwhile (an address
     * changed, so due at once already) are left alone.
     */
    async release(db: Executor, links: readonly DueCheck[]): Promise<void> {
      if (links.length === 0) return;
      const ids = sql.join(
        links.map((link) => sql`${link.linkId}`),
        sql`, `,
      );
      await db.execute(
        sql`UPDATE link_checks SET taken_by = NULL, due_at = now(), tries = greatest(tries - 1, 0)
            WHERE link_id IN (${ids}) AND due_at > now()`,
      );
    },

    /**
     * Writes what a check found (state.ts decides the next state) and when the link is due
     * again — unless the link's address changed while it was checked: then nothing is
     * written (the new address is due at once) and the answer is null.
     */
    async record(
      db: Executor,
      link: DueCheck,
      outcome: CheckOutcome,
      { intervalSeconds }: { intervalSeconds: number },
    ): Promise<Transition | null> {
      return db.transaction(async (tx) => {
        const [row] = await selectRows<{
          state: LinkState;
          failures: number;
          movedTo: string | null;
          tries: number;
        }>(
          tx,
          sql`SELECT state, failures, moved_to AS "movedTo", tries FROM link_checks
              WHERE link_id = ${link.linkId} AND url = ${link.url}
              FOR UPDATE`,
        );
        if (!row) return null;
        const next = nextState(row, outcome);
        const due = dueInSeconds(next, outcome, {
          intervalSeconds,
          tries: Math.max(Number(row.tries), 1),
        });
        if (!next.conclusive) {
          await tx.execute(
            sql`UPDATE link_checks SET taken_by = NULL, due_at = now() + make_interval(secs => ${due})
                WHERE link_id = ${link.linkId}`,
          );
          return next;
        }
        await tx.execute(
          sql`UPDATE link_checks
              SET state = ${next.state}, failures = ${next.failures}, status = ${next.status},
                  failure_kind = ${next.failureKind},
                  failure = ${next.failure?.slice(0, MESSAGE_LENGTH) ?? null},
                  moved_to = ${next.movedTo}, checked_at = now(),
                  state_changed_at = CASE WHEN state = ${next.state} THEN state_changed_at
                                          ELSE now() END,
                  tries = 0, taken_by = NULL, due_at = now() + make_interval(secs => ${due})
              WHERE link_id = ${link.linkId}`,
        );
        return next;
      });
    },

    /** What is known of a link's address (null for a link the organization does not have). */
    async stateOf(
      db: Executor,
      organizationId: string,
      linkId: string,
    ): Promise<LinkCheckState | null> {
      const [row] = await selectRows<
        Omit<LinkCheckState, 'checkedAt' | 'since'> & {
          checkedAt: Date | string | null;
          since: Date | string;
        }
      >(
        db,
        sql`SELECT url, state, failures, status, failure_kind AS "failureKind", failure,
                   moved_to AS "movedTo", checked_at AS "checkedAt", state_changed_at AS since
            FROM link_checks WHERE link_id = ${linkId} AND organization_id = ${organizationId}`,
      );
      return row ? { ...row, checkedAt: dateOrNull(row.checkedAt), since: date(row.since) } : null;
    },

    /**
     * The broken and moved links a person sees a mark on (decision 0069), longest first:
     *
     * - in their personal collections, every link (shared ones too): they own them;
     * - in a share they are a member of, every link: the ones they added they may change,
     *   the others they are told about (`canChange` false) — the share's owner fixes those;
     * - in a team's space, every link for its editors and for administrators;
     * - in the organization's space, every link for administrators.
     *
     * Team members and other people of the organization see nothing: they cannot fix it.
     * The same rule as permissions.ts `linkCan` for who may change a link, in one statement.
     */
    async needingAttention(db: Executor, viewer: Viewer, limit = 500): Promise<AttentionLink[]> {
      const admin = viewer.role === 'admin';
      const rows = await selectRows<
        Omit<AttentionLink, 'since' | 'checkedAt'> & {
          since: Date | string;
          checkedAt: Date | string | null;
        }
      >(
        db,
        sql`
        WITH RECURSIVE shared AS (
          SELECT s.collection_id AS id, 0 AS depth
          FROM collection_shares s
          JOIN share_members m ON m.share_id = s.id AND m.user_id = ${viewer.userId}
          WHERE s.organization_id = ${viewer.organizationId}
          UNION ALL
          SELECT c.id, shared.depth + 1 FROM collections c
          JOIN shared ON c.parent_id = shared.id
          WHERE shared.depth < 100
        ), edited AS (
          SELECT team_id FROM team_memberships
          WHERE user_id = ${viewer.userId} AND organization_id = ${viewer.organizationId}
            AND role = 'editor'
        ), seen AS (
          SELECT k.*, l.name, l.created_by, c.id AS collection_id, c.name AS collection_name,
                 c.owner_type, c.owner_team_id,
                 CASE c.owner_type
                   WHEN 'user' THEN c.owner_user_id = ${viewer.userId}
                                    OR l.created_by = ${viewer.userId}
                   WHEN 'team' THEN ${admin}::boolean
                                    OR c.owner_team_id IN (SELECT team_id FROM edited)
                   ELSE ${admin}::boolean
                 END AS can_change
          FROM link_checks k
          JOIN links l ON l.id = k.link_id
          JOIN collections c ON c.id = l.collection_id
          WHERE k.organization_id = ${viewer.organizationId}
            AND k.state IN ('broken', 'moved')
            AND NOT (k.state = 'broken' AND k.dismissed_url IS NOT DISTINCT FROM k.url)
            AND CASE c.owner_type
                  WHEN 'user' THEN c.owner_user_id = ${viewer.userId}
                                   OR c.id IN (SELECT id FROM shared)
                  WHEN 'team' THEN ${admin}::boolean
                                   OR c.owner_team_id IN (SELECT team_id FROM edited)
                  ELSE ${admin}::boolean
                END
        )
        SELECT seen.link_id AS "linkId", seen.name, seen.url,
               seen.collection_id AS "collectionId", seen.collection_name AS "collectionName",
               CASE seen.owner_type WHEN 'user' THEN 'personal' ELSE seen.owner_type END AS space,
               t.name AS "teamName", seen.state, seen.moved_to AS "movedTo", seen.status,
               seen.failure_kind AS "failureKind", seen.state_changed_at AS since,
               seen.checked_at AS "checkedAt", seen.can_change AS "canChange"
        FROM seen LEFT JOIN teams t ON t.id = seen.owner_team_id
        ORDER BY seen.can_change DESC, seen.state_changed_at, seen.name, seen.link_id
        LIMIT ${limit}`,
      );
      return rows.map((row) => ({
        ...row,
        since: date(row.since),
        checkedAt: dateOrNull(row.checkedAt),
      }));
    },

    /**
     * The broken links of an organization's team and organization spaces, for its
     * administrators: longest broken first. Personal links, shared or not, are not listed:
     * they are private to their owner, who sees their own marks.
     */
    async brokenInOrganization(
      db: Executor,
      organizationId: string,
      teams: 'all' | readonly string[] = 'all',
      limit = 500,
    ): Promise<BrokenLink[]> {
      // An editor's teams are chosen here, before the limit, not from the first 500 of all.
      const ofTeams =
        teams === 'all'
          ? sql``
          : teams.length === 0
            ? sql` AND false`
            : sql` AND c.owner_team_id IN (${sql.join(
                teams.map((id) => sql`${id}`),
                sql`, `,
              )})`;
      const rows = await selectRows<
        Omit<BrokenLink, 'brokenSince' | 'checkedAt'> & {
          brokenSince: Date | string;
          checkedAt: Date | string | null;
        }
      >(
        db,
        sql`SELECT l.id AS "linkId", l.name, l.url, c.id AS "collectionId",
                   c.name AS "collectionName", c.owner_type AS space,
                   coalesce(t.name, o.name) AS "spaceName", t.id AS "teamId",
                   k.status, k.failure_kind AS "failureKind",
                   k.state_changed_at AS "brokenSince", k.checked_at AS "checkedAt"
            FROM link_checks k
            JOIN links l ON l.id = k.link_id
            JOIN collections c ON c.id = l.collection_id
            JOIN organizations o ON o.id = k.organization_id
            LEFT JOIN teams t ON t.id = c.owner_team_id
            WHERE k.organization_id = ${organizationId} AND k.state = 'broken'
              AND k.dismissed_url IS DISTINCT FROM k.url
              AND c.owner_type IN ('team', 'organization')${ofTeams}
            ORDER BY k.state_changed_at, l.name, l.id
            LIMIT ${limit}`,
      );
      return rows.map((row) => ({
        ...row,
        brokenSince: date(row.brokenSince),
        checkedAt: dateOrNull(row.checkedAt),
      }));
    },

    /**
     * A link's check as the people who run its space judge it: its name, where it is, its
     * state, whether that finding was marked wrong for its address, and the reader's role in
     * its team (null outside it, and for the organization's links). Null for a link that is
     * not the organization's.
     */
    async finding(
      db: Executor,
      organizationId: string,
      linkId: string,
      userId: string,
    ): Promise<CheckFinding | null> {
      const [row] = await selectRows<CheckFinding>(
        db,
        sql`SELECT l.id AS "linkId", l.name, k.url, k.state,
                   k.dismissed_url IS NOT DISTINCT FROM k.url AS dismissed,
                   c.owner_type AS "ownerType", c.owner_team_id AS "teamId", tm.role AS "teamRole"
            FROM links l
            JOIN link_checks k ON k.link_id = l.id
            JOIN collections c ON c.id = l.collection_id
            LEFT JOIN team_memberships tm ON tm.team_id = c.owner_team_id AND tm.user_id = ${userId}
            WHERE l.id = ${linkId} AND l.organization_id = ${organizationId}
            FOR UPDATE OF k`,
      );
      return row ?? null;
    },

    /** Marks a broken finding wrong for the link's present address; false if it is not broken. */
    async dismiss(db: Executor, linkId: string, userId: string): Promise<boolean> {
      const rows = await selectRows<{ linkId: string }>(
        db,
        sql`UPDATE link_checks
            SET dismissed_url = url, dismissed_at = now(), dismissed_by = ${userId}
            WHERE link_id = ${linkId} AND state = 'broken'
            RETURNING link_id AS "linkId"`,
      );
      return rows.length > 0;
    },
  };
}

/** What `finding` reads of one link's check. */
export interface CheckFinding {
  linkId: string;
  name: string;
  url: string;
  state: 'fine' | 'moved' | 'broken' | 'unknown';
  dismissed: boolean;
  ownerType: 'user' | 'team' | 'organization';
  teamId: string | null;
  teamRole: 'member' | 'editor' | null;
}

export type LinkHealthRepository = ReturnType<typeof createLinkHealthRepository>;
