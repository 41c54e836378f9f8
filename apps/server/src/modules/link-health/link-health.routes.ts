import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AttentionResponse, BrokenLinksResponse, IdParams, NoContent } from '@signpost/contract';
import { adminRoute, consumerRoute, errorAnswers } from '../../lib/route-schemas.ts';
import type { LinkHealthService } from './link-health.service.ts';
import { caller, originOf } from '../../lib/request-context.ts';

/** `GET /links/attention` (consumer): the links that need the signed-in person (decision 0069). */
export const attentionRoutes: FastifyPluginAsyncTypebox<{ linkHealth: LinkHealthService }> = async (
  app,
  { linkHealth: service },
) => {
  app.get(
    '/links/attention',
    {
      schema: {
        ...consumerRoute,
        summary: 'The broken and moved links you may fix, and those of shares you are in',
        response: { 200: AttentionResponse, ...errorAnswers },
      },
    },
    async (request) => service.attention(caller(request)),
  );
};

/** `GET /links/broken` (admin): the broken links of the spaces the person runs. */
export const adminBrokenLinksRoutes: FastifyPluginAsyncTypebox<{
  linkHealth: LinkHealthService;
}> = async (app, { linkHealth: service }) => {
  app.get(
    '/links/broken',
    {
      schema: {
        ...adminRoute,
        summary: 'The broken links of the teams you edit, or of the organization',
        response: { 200: BrokenLinksResponse, ...errorAnswers },
      },
    },
    async (request) => service.broken(caller(request)),
  );

  app.post(
    '/links/:id/broken/dismissal',
    {
      schema: {
        ...adminRoute,
        summary:
          'Mark a broken finding wrong: the link is not listed as broken until its address changes',
        description:
          'For a site that refuses robots but that people reach. For an administrator, or an ' +
          "editor of the link's team (404 for other links); 409 when the link is not listed " +
          'as broken. Audited.',
        params: IdParams,
        response: { 204: NoContent, ...errorAnswers },
      },
    },
    async (request, reply) => {
      await service.dismissBroken(caller(request), request.params.id, originOf(request));
      return reply.status(204).send(null);
    },
  );
};
