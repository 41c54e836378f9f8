import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import type { JobDefinition } from '../../jobs/queue.ts';
import type { Fetcher } from '../../outbound/types.ts';
import type { LinkHealthRepository } from './link-health.repository.ts';
import { linkCheckJob } from './link-health.worker.ts';

export interface LinkCheckJobsOptions {
  config: Config;
  db: Database;
  checks: LinkHealthRepository;
  fetcher: Fetcher;
  log: FastifyBaseLogger;
  /** Aborted as the server starts closing: a round gives back the links it has not checked. */
  stopping: AbortSignal;
  /** This instance: the links its rounds take carry it (decision 0082). */
  instanceId: string | null;
}

/**
 * Link checks on the job queue (decision 0069): a round every five minutes across every
 * instance takes the links due (each link every LINK_CHECK_HOURS, a first failure again
 * within half an hour), paced per host.
 */
export function linkCheckJobs({
  config,
  db,
  checks,
  fetcher,
  log,
  stopping,
  instanceId,
}: LinkCheckJobsOptions): JobDefinition[] {
  return [
    linkCheckJob({
      db,
      checks,
      fetcher,
      log,
      intervalSeconds: config.outbound.linkCheckHours * 3600,
      perHostIntervalMs: config.outbound.perHostIntervalMs,
      signal: stopping,
      takenBy: instanceId,
    }),
  ];
}
