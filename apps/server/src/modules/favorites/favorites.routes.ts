import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  CreateFavoriteBody,
  ErrorResponse,
  IdParams,
  MoveBody,
  NoContent,
  UndoableNoContent,
} from '@signpost/contract';
import { bodyErrorAnswers, consumerRoute } from '../../lib/route-schemas.ts';
import { sendUndoable } from '../../lib/undo-answer.ts';
import type { FavoritesService } from './favorites.service.ts';
import { caller } from '../../lib/request-context.ts';

export const favoritesRoutes: FastifyPluginAsyncTypebox<{ favorites: FavoritesService }> = async (
  app,
  { favorites },
) => {
  app.post(
    '/collections/:id/favorites',
    {
      schema: {
        ...consumerRoute,
        summary: 'Favorite a team or organization link in one of your own collections',
        params: IdParams,
        body: CreateFavoriteBody,
        response: { 204: NoContent, ...bodyErrorAnswers },
      },
    },
    async (request, reply) => {
      await favorites.createFavorite(caller(request), request.params.id, request.body.id);
      return reply.status(204).send(null);
    },
  );

  app.delete(
    '/favorites/:id',
    {
      schema: {
        ...consumerRoute,
        summary: 'Remove one of your favorites',
        description: 'Can be undone for a while: see POST /undo/{id}.',
        params: IdParams,
        response: {
          204: UndoableNoContent,
          400: ErrorResponse,
          401: ErrorResponse,
          404: ErrorResponse,
        },
      },
    },
    async (request, reply) =>
      sendUndoable(reply, await favorites.deleteFavorite(caller(request), request.params.id)),
  );

  app.put(
    '/favorites/:id/collection',
    {
      schema: {
        ...consumerRoute,
        summary: 'Move one of your favorites to the end of another of your collections',
        params: IdParams,
        body: MoveBody,
        response: { 204: NoContent, ...bodyErrorAnswers },
      },
    },
    async (request, reply) => {
      await favorites.moveFavorite(caller(request), request.params.id, request.body.collectionId);
      return reply.status(204).send(null);
    },
  );
};
