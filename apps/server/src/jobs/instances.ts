import { hostname } from 'node:os';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { selectRows, type Database } from '../db/client.ts';
import { isForeignKeyViolation } from '../db/errors.ts';
import { newId } from '../lib/ids.ts';

/**
 * How often an instance says it is alive, after how long without a word it is counted gone,
 * and how often each instance looks for gone ones (decision 0082). A gone instance's work is
 * taken over within `deadAfterSeconds` plus one `reapEveryMs`.
 */
export interface InstanceTimings {
  heartbeatMs: number;
  deadAfterSeconds: number;
  reapEveryMs: number;
}

export const INSTANCE_TIMINGS: InstanceTimings = {
  heartbeatMs: 5_000,
  deadAfterSeconds: 15,
  reapEveryMs: 5_000,
};

/** A job of the queue an instance was running when it was found gone. */
export interface HeldJob {
  jobId: string;
  queue: string;
}

/** What a stream asks to be counted against: its person's and its session's caps. */
export interface StreamCaps {
  perPerson: number;
  perSession: number;
}

export type StreamAdmission =
  { admitted: true; id: string } | { admitted: false; over: 'person' | 'session'; cap: number };

export interface InstanceRegistryOptions {
  db: Database;
  log: FastifyBaseLogger;
  timings?: InstanceTimings;
}

/**
 * This process among the instances of one database (decision 0082): its row, seen again
 * every few seconds; the queue's jobs it runs and the live streams open on it, so that the
 * caps on streams hold across instances; and the watch for instances gone without a word (a
 * crash, a kill -9, a lost machine), whose jobs are failed at once so that the queue retries
 * them, whose rounds' links are given back, and whose streams are no longer counted.
 */
export function createInstanceRegistry({
  db,
  log,
  timings = INSTANCE_TIMINGS,
}: InstanceRegistryOptions) {
  const id = newId();
  const host = hostname();
  /** Open streams here, to be counted again if this instance was taken for gone. */
  const streams = new Map<string, { userId: string; credential: string }>();
  let heartbeat: NodeJS.Timeout | null = null;
  let reaper: NodeJS.Timeout | null = null;
  let started: Promise<void> | null = null;
  let reaping: Promise<void> | null = null;
  let onGone: (jobs: HeldJob[]) => Promise<void> = async () => {};

  const register = async () => {
    await db.execute(
      sql`INSERT INTO instances (id, host, pid) VALUES (${id}, ${host}, ${process.pid})
          ON CONFLICT (id) DO UPDATE SET seen_at = now()`,
    );
  };

  /**
   * Runs a write that hangs on this instance's row; when the row is gone (another instance
   * took this one for gone during a long pause), writes the row again and runs it once more.
   */
  const again = async <T>(write: () => Promise<T>): Promise<T> => {
    try {
      return await write();
    } catch (error) {
      if (!isForeignKeyViolation(error)) throw error;
      await register();
      return await write();
    }
  };

  /**
   * Says this instance is alive. When another one took it for gone (a pause longer than
   * `deadAfterSeconds`), its row and what hung on it are written again: its jobs were failed
   * meanwhile and run elsewhere; its streams count again from now.
   */
  const beat = async () => {
    const seen = await selectRows<{ id: string }>(
      db,
      sql`UPDATE instances SET seen_at = now() WHERE id = ${id} RETURNING id`,
    );
    if (seen.length > 0) return;
    log.warn({ instance: id }, 'this instance was taken for gone by another; registering again');
    await register();
    if (streams.size === 0) return;
    const open = [...streams];
    // One statement for them all (the lists travel as JSON); a person deleted meanwhile is
    // left out rather than failing the others.
    await db.execute(
      sql`INSERT INTO live_streams (id, instance_id, user_id, credential)
          SELECT s.id, ${id}, s.user_id, s.credential
          FROM jsonb_to_recordset(${JSON.stringify(
            open.map(([streamId, stream]) => ({
              id: streamId,
              user_id: stream.userId,
              credential: stream.credential,
            })),
          )}::jsonb) AS s(id text, user_id text, credential text)
          WHERE EXISTS (SELECT 1 FROM users u WHERE u.id = s.user_id)
          ON CONFLICT (id) DO NOTHING`,
    );
  };

  /**
   * Takes over from instances not seen for `deadAfterSeconds`: one instance does it for each
   * gone one (its row is locked, and skipped by the others), in one transaction: the jobs it
   * ran are failed through `onGone` (the queue retries a mail; a round's queue is free
   * again), the links its rounds held are due at once, and its row goes, with its jobs and
   * streams.
   */
  const reap = async () => {
    await db.transaction(async (tx) => {
      const gone = await selectRows<{ id: string }>(
        tx,
        sql`SELECT id FROM instances
            WHERE seen_at < now() - make_interval(secs => ${timings.deadAfterSeconds})
              AND id <> ${id}
            FOR UPDATE SKIP LOCKED`,
      );
      if (gone.length === 0) return;
      const ids = gone.map((row) => row.id);
      const list = sql.join(
        ids.map((gid) => sql`${gid}`),
        sql`, `,
      );
      const jobs = await selectRows<HeldJob>(
        tx,
        sql`SELECT job_id AS "jobId", queue FROM instance_jobs WHERE instance_id IN (${list})`,
      );
      await onGone(jobs);
      const icons = await selectRows(
        tx,
        sql`UPDATE link_icons SET due_at = now(), taken_by = NULL, tries = greatest(tries - 1, 0)
            WHERE taken_by IN (${list}) RETURNING link_id`,
      );
      const checks = await selectRows(
        tx,
        sql`UPDATE link_checks SET due_at = now(), taken_by = NULL, tries = greatest(tries - 1, 0)
            WHERE taken_by IN (${list}) RETURNING link_id`,
      );
      await tx.execute(sql`DELETE FROM instances WHERE id IN (${list})`);
      log.warn(
        { instances: ids, jobs: jobs.length, links: icons.length + checks.length },
        'instances gone without stopping: their work is taken over',
      );
    });
  };

  const guarded = (what: string, work: () => Promise<void>) => () => {
    work().catch((error: unknown) => log.warn({ err: error, instance: id }, `${what} failed`));
  };

  return {
    /** This instance's id: the rounds mark the links they take with it. */
    id,

    /** Called with the jobs of gone instances, before their rows go: fails them. */
    whenGone(fail: (jobs: HeldJob[]) => Promise<void>): void {
      onGone = fail;
    },

    /** Registers this instance and starts saying it is alive, and watching for gone ones. */
    start(): Promise<void> {
      // A database that does not answer yet does not stop the start: the heartbeat writes
      // the row once it answers (the app serves 503s meanwhile).
      started ??= register()
        .catch((error: unknown) => log.warn({ err: error }, 'registering this instance failed'))
        .then(() => {
          heartbeat = setInterval(guarded('instance heartbeat', beat), timings.heartbeatMs);
          heartbeat.unref();
          reaper = setInterval(() => {
            reaping ??= reap()
              .catch((error: unknown) =>
                log.warn({ err: error }, 'taking over from gone instances failed'),
              )
              .finally(() => {
                reaping = null;
              });
          }, timings.reapEveryMs);
          reaper.unref();
        });
      return started;
    },

    /** Looks for gone instances now (tests; the timer does it otherwise). */
    reapNow: () => reap(),

    /** Says it is alive now (tests; the timer does it otherwise). */
    beatNow: () => beat(),

    /** Stops; this instance's row goes, with what hangs on it: it is not gone, it left. */
    async stop(): Promise<void> {
      if (heartbeat) clearInterval(heartbeat);
      if (reaper) clearInterval(reaper);
      heartbeat = null;
      reaper = null;
      await reaping;
      if (!started) return;
      started = null;
      streams.clear();
      // A database already gone (closed first, or down) leaves the row to the others, which
      // take it for gone after `deadAfterSeconds`.
      await db
        .execute(sql`DELETE FROM instances WHERE id = ${id}`)
        .catch((error: unknown) => log.warn({ err: error }, 'leaving the instances failed'));
    },

    /** A job of the queue starts here: another instance fails it if this one dies. */
    async jobStarted(jobId: string, queue: string): Promise<void> {
      const note = () =>
        db.execute(
          sql`INSERT INTO instance_jobs (job_id, queue, instance_id) VALUES (${jobId}, ${queue}, ${id})
              ON CONFLICT (job_id) DO UPDATE SET instance_id = excluded.instance_id,
                                                 started_at = now()`,
        );
      try {
        await again(note);
      } catch (error) {
        // The job runs all the same; only its takeover, should this instance die, is lost.
        log.warn({ err: error, job: jobId }, 'noting a job of this instance failed');
      }
    },

    async jobEnded(jobId: string): Promise<void> {
      await db.execute(sql`DELETE FROM instance_jobs WHERE job_id = ${jobId}`);
    },

    /**
     * Counts a new stream against its person's and its session's caps, across every
     * instance, and keeps it when both have room. Two streams of one person opening at once
     * on two instances are counted one after the other (a lock per person, for the
     * transaction).
     */
    async admitStream(
      userId: string,
      credential: string,
      caps: StreamCaps,
    ): Promise<StreamAdmission> {
      const streamId = newId();
      const answer = await again(() =>
        db.transaction(async (tx): Promise<StreamAdmission> => {
          await tx.execute(
            sql`SELECT pg_advisory_xact_lock(hashtextextended(${`live:${userId}`}, 0))`,
          );
          const [counts] = await selectRows<{ person: number; session: number }>(
            tx,
            sql`SELECT count(*)::int AS person,
                     (count(*) FILTER (WHERE credential = ${credential}))::int AS session
              FROM live_streams WHERE user_id = ${userId}`,
          );
          if ((counts?.session ?? 0) >= caps.perSession) {
            return { admitted: false, over: 'session', cap: caps.perSession };
          }
          if ((counts?.person ?? 0) >= caps.perPerson) {
            return { admitted: false, over: 'person', cap: caps.perPerson };
          }
          await tx.execute(
            sql`INSERT INTO live_streams (id, instance_id, user_id, credential)
              VALUES (${streamId}, ${id}, ${userId}, ${credential})`,
          );
          return { admitted: true, id: streamId };
        }),
      );
      if (answer.admitted) streams.set(streamId, { userId, credential });
      return answer;
    },

    /** A stream closed: it no longer counts. */
    streamClosed(streamId: string): void {
      if (!streams.delete(streamId)) return;
      db.execute(sql`DELETE FROM live_streams WHERE id = ${streamId}`).catch((error: unknown) =>
        log.warn({ err: error }, 'forgetting a closed live stream failed'),
      );
    },
  };
}

export type InstanceRegistry = ReturnType<typeof createInstanceRegistry>;
