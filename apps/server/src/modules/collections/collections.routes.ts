import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  CreateCollectionBody,
  IdParams,
  NoContent,
  OrderItemsBody,
  UndoableNoContent,
  UpdateCollectionBody,
} from '@signpost/contract';
import { bodyErrorAnswers, consumerRoute, errorAnswers } from '../../lib/route-schemas.ts';
import { sendUndoable } from '../../lib/undo-answer.ts';
import type { CollectionsService } from './collections.service.ts';
import { caller, originOf } from '../../lib/request-context.ts';

export const collectionsRoutes: FastifyPluginAsyncTypebox<{
  collections: CollectionsService;
}> = async (app, { collections: service }) => {
  app.post(
    '/collections',
    {
      schema: {
        ...consumerRoute,
        summary: 'Add a personal collection, in My Space or nested in one of your own',
        body: CreateCollectionBody,
        response: { 204: NoContent, ...bodyErrorAnswers },
      },
    },
    async (request, reply) => {
      await service.createCollection(caller(request), request.body, originOf(request));
      return reply.status(204).send(null);
    },
  );

  app.patch(
    '/collections/:id',
    {
      schema: {
        ...consumerRoute,
        summary: 'Edit a collection you own; parentId moves it to the end of another',
        description:
          'Can be undone for a while: see POST /undo/{id}. An edit that changes nothing ' +
          'writes nothing and names no undo.',
        params: IdParams,
        body: UpdateCollectionBody,
        response: { 204: UndoableNoContent, ...bodyErrorAnswers },
      },
    },
    async (request, reply) =>
      sendUndoable(
        reply,
        await service.updateCollection(
          caller(request),
          request.params.id,
          request.body,
          originOf(request),
        ),
      ),
  );

  app.delete(
    '/collections/:id',
    {
      schema: {
        ...consumerRoute,
        summary: 'Delete a collection you own and everything inside it',
        description: 'Can be undone for a while: see POST /undo/{id}.',
        params: IdParams,
        response: { 204: UndoableNoContent, ...errorAnswers },
      },
    },
    async (request, reply) =>
      sendUndoable(
        reply,
        await service.deleteCollection(caller(request), request.params.id, originOf(request)),
      ),
  );

  app.put(
    '/collections/:id/order',
    {
      schema: {
        ...consumerRoute,
        summary: 'Reorder the items of a collection you own, naming every one of them',
        description: 'Can be undone for a while: see POST /undo/{id}.',
        params: IdParams,
        body: OrderItemsBody,
        response: { 204: UndoableNoContent, ...bodyErrorAnswers },
      },
    },
    async (request, reply) =>
      sendUndoable(
        reply,
        await service.orderItems(
          caller(request),
          request.params.id,
          request.body,
          originOf(request),
        ),
      ),
  );
};
