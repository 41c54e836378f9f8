import type { FastifyInstance } from 'fastify';
import type { Fetcher } from '../../outbound/types.ts';
import { createLinkHealthRepository } from './link-health.repository.ts';
import { linkCheckJob } from './link-health.worker.ts';

/**
 * Link checks on the job queue (decision 0069): a round every five minutes across every
 * instance takes the links due (each link every LINK_CHECK_HOURS, a first failure again
 * within half an hour), paced per host.
 */
export function startLinkChecks(app: FastifyInstance, fetcher: Fetcher, stopping: AbortSignal) {
  const { config, database, jobs, log } = app;
  jobs.define(
    linkCheckJob({
      checks: createLinkHealthRepository(database.db),
      fetcher,
      log,
      intervalSeconds: config.outbound.linkCheckHours * 3600,
      perHostIntervalMs: config.outbound.perHostIntervalMs,
      signal: stopping,
    }),
  );
}
