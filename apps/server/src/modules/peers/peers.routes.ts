import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorResponse, PeersQuery, PeersResponse } from '@signpost/contract';
import type { PeersService } from './peers.service.ts';
import { caller } from '../../lib/request-context.ts';

export const peersRoutes: FastifyPluginAsyncTypebox<{ peers: PeersService }> = async (
  app,
  { peers },
) => {
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
