import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createPeopleDirectory, type PeopleDirectory } from './directory.service.ts';

/** How often directories nobody used for a while are dropped. */
const SWEEP_EVERY_MS = 60_000;

/**
 * The people directory of this server (decision 0072): one, shared by the peer search and
 * the console's people list, which hold one directory per organization between them.
 */
export const directoryPlugin = fp(async (app: FastifyInstance) => {
  const directory = createPeopleDirectory(app.database.db);
  app.decorate('peopleDirectory', directory);
  const sweeper = setInterval(() => directory.sweep(), SWEEP_EVERY_MS);
  sweeper.unref();
  app.addHook('onClose', async () => {
    clearInterval(sweeper);
    directory.clear();
  });
});

declare module 'fastify' {
  interface FastifyInstance {
    peopleDirectory: PeopleDirectory;
  }
}
