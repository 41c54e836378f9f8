import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorResponse, PeersQuery, PeersResponse } from '@signpost/contract';
import { createPeersService } from './peers.service.ts';
import { caller } from '../../lib/request-context.ts';

export const peersRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const peers = createPeersService(app.database.db);
  const sweeper = setInterval(() => peers.directories.sweep(), 60_000);
  sweeper.unref();
  app.addHook('onClose', async () => {
    clearInterval(sweeper);
    peers.directories.clear();
  });

  app.get(
    '/peers',
    {
      schema: {
        tags: ['consumer'],
        security: [{ bearer: [] }],
        summary: 'Active people of your organization, by name, to share a collection with',
        querystring: PeersQuery,
        response: { 200: PeersResponse, 400: ErrorResponse, 401: ErrorResponse },
      },
      config: { peopleVersion: true },
    },
    async (request) => peers.listPeers(caller(request), request.query),
  );
};
