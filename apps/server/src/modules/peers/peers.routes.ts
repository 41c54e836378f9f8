import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorResponse, PeersQuery, PeersResponse } from '@signpost/contract';
import { caller } from '../../plugins/auth.ts';
import { createPeersService } from './peers.service.ts';

export const peersRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const peers = createPeersService(app.database.db, app.peopleDirectory);

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
