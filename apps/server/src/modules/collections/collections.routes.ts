import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  CreateCollectionBody,
  ErrorResponse,
  IdParams,
  NoContent,
  OrderItemsBody,
  UpdateCollectionBody,
} from '@signpost/contract';
import { caller } from '../../plugins/auth.ts';
import { createCollectionsService } from './collections.service.ts';

const common = { tags: ['consumer'], security: [{ bearer: [] }] };
const errors = {
  400: ErrorResponse,
  401: ErrorResponse,
  403: ErrorResponse,
  404: ErrorResponse,
  409: ErrorResponse,
};
const withBody = { ...errors, 413: ErrorResponse };

export const collectionsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const service = createCollectionsService(app.database.db);

  app.post(
    '/collections',
    {
      schema: {
        ...common,
        summary: 'Add a personal collection, in My Space or nested in one of your own',
        body: CreateCollectionBody,
        response: { 204: NoContent, ...withBody },
      },
    },
    async (request, reply) => {
      await service.createCollection(caller(request), request.body);
      return reply.status(204).send(null);
    },
  );

  app.patch(
    '/collections/:id',
    {
      schema: {
        ...common,
        summary: 'Edit a collection you own; parentId moves it to the end of another',
        params: IdParams,
        body: UpdateCollectionBody,
        response: { 204: NoContent, ...withBody },
      },
    },
    async (request, reply) => {
      await service.updateCollection(caller(request), request.params.id, request.body);
      return reply.status(204).send(null);
    },
  );

  app.delete(
    '/collections/:id',
    {
      schema: {
        ...common,
        summary: 'Delete a collection you own and everything inside it',
        params: IdParams,
        response: { 204: NoContent, ...errors },
      },
    },
    async (request, reply) => {
      await service.deleteCollection(caller(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.put(
    '/collections/:id/order',
    {
      schema: {
        ...common,
        summary: 'Reorder the items of a collection you own, naming every one of them',
        params: IdParams,
        body: OrderItemsBody,
        response: { 204: NoContent, ...withBody },
      },
    },
    async (request, reply) => {
      await service.orderItems(caller(request), request.params.id, request.body);
      return reply.status(204).send(null);
    },
  );
};
