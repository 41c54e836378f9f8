import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DeleteItemsBody, MoveItemsBody, UndoableNoContent } from '@signpost/contract';
import { bodyErrorAnswers, consumerRoute } from '../../lib/route-schemas.ts';
import { caller, originOf } from '../../lib/request-context.ts';
import { sendUndoable } from '../../lib/undo-answer.ts';
import type { BatchService } from './batch.service.ts';

export const batchRoutes: FastifyPluginAsyncTypebox<{ batch: BatchService }> = async (
  app,
  { batch: service },
) => {
  app.post(
    '/items/move',
    {
      schema: {
        ...consumerRoute,
        summary: 'Move several items of a collection to the end of another, in the order given',
        description:
          'Each item as if moved alone (the same checks); all or none. Can be undone for a ' +
          'while, all together: see POST /undo/{id}.',
        body: MoveItemsBody,
        response: { 204: UndoableNoContent, ...bodyErrorAnswers },
      },
    },
    async (request, reply) =>
      sendUndoable(
        reply,
        await service.moveItems(caller(request), request.body, originOf(request)),
      ),
  );

  app.post(
    '/items/delete',
    {
      schema: {
        ...consumerRoute,
        summary: 'Delete several items at once',
        description:
          'Each item as if deleted alone (the same checks); all or none. Can be undone for a ' +
          'while, all together: see POST /undo/{id}.',
        body: DeleteItemsBody,
        response: { 204: UndoableNoContent, ...bodyErrorAnswers },
      },
    },
    async (request, reply) =>
      sendUndoable(
        reply,
        await service.deleteItems(caller(request), request.body, originOf(request)),
      ),
  );
};
