import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorResponse, NoContent, UndoParams } from '@signpost/contract';
import { consumerRoute, errorAnswers } from '../../lib/route-schemas.ts';
import type { UndoService } from './undo.service.ts';
import { caller, originOf } from '../../lib/request-context.ts';

export const undoRoutes: FastifyPluginAsyncTypebox<{ undo: UndoService }> = async (
  app,
  { undo: service },
) => {
  app.post(
    '/undo/:id',
    {
      schema: {
        ...consumerRoute,
        summary: 'Undo a deletion of yours: everything it removed comes back, with the same ids',
        description:
          'The id is the signpost-undo-id header of the deletion. 404 for an id that is not ' +
          'yours; 410 once it expired or was undone; 409 when the place it was in has gone; ' +
          '403 when you may no longer change that place.',
        params: UndoParams,
        response: { 204: NoContent, ...errorAnswers, 410: ErrorResponse },
      },
    },
    async (request, reply) => {
      await service.undo(caller(request), request.params.id, originOf(request));
      return reply.status(204).send(null);
    },
  );
};
