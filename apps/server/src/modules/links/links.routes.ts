import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  CreateLinkBody,
  IdParams,
  MoveBody,
  NoContent,
  SuggestLinkBody,
  UndoableNoContent,
  UpdateLinkBody,
} from '@signpost/contract';
import { bodyErrorAnswers, consumerRoute, errorAnswers } from '../../lib/route-schemas.ts';
import { sendUndoable } from '../../lib/undo-answer.ts';
import type { LinksService } from './links.service.ts';
import { caller, originOf } from '../../lib/request-context.ts';

export const linksRoutes: FastifyPluginAsyncTypebox<{ links: LinksService }> = async (
  app,
  { links: service },
) => {
  app.post(
    '/collections/:id/links',
    {
      schema: {
        ...consumerRoute,
        summary: 'Add a link to a collection you own or that is shared with you',
        params: IdParams,
        body: CreateLinkBody,
        response: { 204: NoContent, ...bodyErrorAnswers },
      },
    },
    async (request, reply) => {
      await service.createLink(caller(request), request.params.id, request.body, originOf(request));
      return reply.status(204).send(null);
    },
  );

  app.patch(
    '/links/:id',
    {
      schema: {
        ...consumerRoute,
        summary: 'Edit a link of yours, or one you added to a shared collection',
        description:
          'Can be undone for a while: see POST /undo/{id}. An edit that changes nothing ' +
          'writes nothing and names no undo.',
        params: IdParams,
        body: UpdateLinkBody,
        response: { 204: UndoableNoContent, ...bodyErrorAnswers },
      },
    },
    async (request, reply) =>
      sendUndoable(
        reply,
        await service.updateLink(
          caller(request),
          request.params.id,
          request.body,
          originOf(request),
        ),
      ),
  );

  app.delete(
    '/links/:id',
    {
      schema: {
        ...consumerRoute,
        summary: 'Delete a link of yours, or one you added to a shared collection',
        description: 'Can be undone for a while: see POST /undo/{id}.',
        params: IdParams,
        response: { 204: UndoableNoContent, ...errorAnswers },
      },
    },
    async (request, reply) =>
      sendUndoable(
        reply,
        await service.deleteLink(caller(request), request.params.id, originOf(request)),
      ),
  );

  app.put(
    '/links/:id/collection',
    {
      schema: {
        ...consumerRoute,
        summary: 'Move a link to the end of another collection (My Space: its root)',
        description:
          'Can be undone for a while: see POST /undo/{id}. A move to where it is changes ' +
          'nothing and names no undo.',
        params: IdParams,
        body: MoveBody,
        response: { 204: UndoableNoContent, ...bodyErrorAnswers },
      },
    },
    async (request, reply) =>
      sendUndoable(
        reply,
        await service.moveLink(
          caller(request),
          request.params.id,
          request.body.collectionId,
          originOf(request),
        ),
      ),
  );

  app.post(
    '/collections/:id/suggestions',
    {
      schema: {
        ...consumerRoute,
        summary: 'Suggest a link to a team or organization collection',
        params: IdParams,
        body: SuggestLinkBody,
        response: { 204: NoContent, ...bodyErrorAnswers },
      },
    },
    async (request, reply) => {
      const me = caller(request);
      await service.suggestLink(me, request.params.id, request.body, originOf(request));
      return reply.status(204).send(null);
    },
  );
};
