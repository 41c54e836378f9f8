import type { FastifyInstance } from 'fastify';
import { startIconRounds } from '../modules/icons/icons.rounds.ts';
import { startLinkChecks } from '../modules/link-health/link-health.rounds.ts';
import { createFetcher } from './fetcher.ts';
import type { Fetcher } from './types.ts';

/** The product's version as sites see it in the User-Agent. */
export const SIGNPOST_VERSION = '0.1.0';

/**
 * The server's work on the sites links point to, where OUTBOUND_REQUESTS allows: icons
 * (decision 0068) and link checks (decision 0069), through one guarded fetcher (decision
 * 0067). Rounds stop taking links as the server starts closing; the job queue then waits for
 * what runs, and the fetcher's kept connections close last.
 */
export function startOutboundWork(app: FastifyInstance, given?: Fetcher): void {
  const fetcher =
    given ?? createFetcher({ version: SIGNPOST_VERSION, publicUrl: app.config.publicUrl });
  const stopping = new AbortController();
  startIconRounds(app, fetcher, stopping.signal);
  startLinkChecks(app, fetcher, stopping.signal);
  app.addHook('preClose', async () => stopping.abort());
  app.addHook('onClose', async () => fetcher.close());
}
