import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AddMembersBody,
  CreateShareBody,
  NoContent,
  ShareMemberParams,
  ShareParams,
  UndoableNoContent,
} from '@signpost/contract';
import { bodyErrorAnswers, consumerRoute, errorAnswers } from '../../lib/route-schemas.ts';
import { sendUndoable } from '../../lib/undo-answer.ts';
import type { SharesService } from './shares.service.ts';
import { caller, originOf } from '../../lib/request-context.ts';

// Every route with a share id names it `shareId`: the router needs one name per position.
export const sharesRoutes: FastifyPluginAsyncTypebox<{ shares: SharesService }> = async (
  app,
  { shares },
) => {
  app.post(
    '/collection-shares',
    {
      schema: {
        ...consumerRoute,
        summary: 'Share one of your collections with people of your organization',
        body: CreateShareBody,
        response: { 204: NoContent, ...bodyErrorAnswers },
      },
    },
    async (request, reply) => {
      const { collectionId, memberIds } = request.body;
      await shares.createShare(caller(request), collectionId, memberIds, originOf(request));
      return reply.status(204).send(null);
    },
  );

  app.delete(
    '/collection-shares/:shareId',
    {
      schema: {
        ...consumerRoute,
        summary: 'Delete a collection you shared, with everything inside it',
        description: 'Can be undone for a while: see POST /undo/{id}.',
        params: ShareParams,
        response: { 204: UndoableNoContent, ...errorAnswers },
      },
    },
    async (request, reply) =>
      sendUndoable(
        reply,
        await shares.deleteShare(caller(request), request.params.shareId, originOf(request)),
      ),
  );

  app.post(
    '/collection-shares/:shareId/members',
    {
      schema: {
        ...consumerRoute,
        summary: 'Add people to a collection you shared',
        params: ShareParams,
        body: AddMembersBody,
        response: { 204: NoContent, ...bodyErrorAnswers },
      },
    },
    async (request, reply) => {
      await shares.addMembers(
        caller(request),
        request.params.shareId,
        request.body.memberIds,
        originOf(request),
      );
      return reply.status(204).send(null);
    },
  );

  app.delete(
    '/collection-shares/:shareId/members/:memberId',
    {
      schema: {
        ...consumerRoute,
        summary: 'Remove a member from a share you own, or leave a share with your own id',
        description: 'Leaving can be undone for a while: see POST /undo/{id}.',
        params: ShareMemberParams,
        response: { 204: UndoableNoContent, ...errorAnswers },
      },
    },
    async (request, reply) => {
      const { shareId, memberId } = request.params;
      const ticket = await shares.removeMember(
        caller(request),
        shareId,
        memberId,
        originOf(request),
      );
      return ticket ? sendUndoable(reply, ticket) : reply.status(204).send(null);
    },
  );
};
