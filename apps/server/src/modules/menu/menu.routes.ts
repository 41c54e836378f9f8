import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorResponse, IdParams, MenuResponse, NotModified, Space } from '@signpost/contract';
import { adminRoute, errorAnswers } from '../../lib/route-schemas.ts';
import type { Static } from 'typebox';
import type { MenuService } from './menu.service.ts';
import { caller } from '../../lib/request-context.ts';

export const menuRoutes: FastifyPluginAsyncTypebox<{ menu: MenuService }> = async (
  app,
  { menu },
) => {
  app.get(
    '/menu',
    {
      schema: {
        tags: ['consumer'],
        summary: "The signed-in person's spaces, collections and links",
        description:
          'Answers 304 to If-None-Match with the ETag of an unchanged menu. The personal space ' +
          'comes first (My Space, then shared-root), then team spaces, then the organization.',
        security: [{ bearer: [] }],
        response: { 200: MenuResponse, 304: NotModified, 401: ErrorResponse },
      },
      config: { menuScopes: true },
      // The service answers JSON text, put together from serialized spaces (decision 0057).
      serializerCompiler: () => (data) => (typeof data === 'string' ? data : JSON.stringify(data)),
    },
    async (request, reply) => {
      const me = caller(request);
      const etag = menu.etagOf(me);
      reply.header('ETag', etag);
      reply.header('Cache-Control', 'private, no-cache');
      reply.header('Vary', 'Authorization');
      const ifNoneMatch = request.headers['if-none-match'];
      if (ifNoneMatch && ifNoneMatch.split(',').some((tag) => tag.trim() === etag)) {
        app.metrics.menuAnswer('304');
        return reply.status(304).send(null);
      }
      app.metrics.menuAnswer('200');
      reply.type('application/json; charset=utf-8');
      // JSON text already, as UTF-8 bytes sent as they are (the schema above documents its
      // shape; tests check answers against it): typed as the schema's so that the type
      // provider lets it through.
      const json = (await menu.getMenuJson(me)) as unknown as Static<typeof MenuResponse>;
      return reply.send(json);
    },
  );
};

/**
 * `GET /teams/{id}/space` (admin): a team's space as its members see it, for the people who
 * run it, an administrator outside the team included (decision 0008).
 */
export const adminTeamSpaceRoutes: FastifyPluginAsyncTypebox<{ menu: MenuService }> = async (
  app,
  { menu },
) => {
  app.get(
    '/teams/:id/space',
    {
      schema: {
        ...adminRoute,
        summary: "A team's space, for an administrator or an editor of the team",
        description:
          'The collections and links of the team with the flags of the caller, as the menu ' +
          'would show them to an editor; an administrator who is not in the team may change ' +
          'but neither favorite nor suggest. A member who is not an editor gets 403; anyone ' +
          'outside the team but an administrator, 404.',
        params: IdParams,
        response: { 200: Space, ...errorAnswers },
      },
    },
    async (request) => menu.teamSpace(caller(request), request.params.id),
  );
};
