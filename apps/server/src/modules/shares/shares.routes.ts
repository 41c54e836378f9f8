import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AddMembersBody,
  AddShareTeamsBody,
  CreateShareBody,
  NoContent,
  ShareMemberParams,
  ShareParams,
  ShareTeamParams,
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
        summary: 'Share one of your collections with people and teams of your organization',
        body: CreateShareBody,
        response: { 204: NoContent, ...bodyErrorAnswers },
      },
    },
    async (request, reply) => {
      const { collectionId, memberIds, teamIds } = request.body;
      await shares.createShare(
        caller(request),
        collectionId,
        memberIds,
        originOf(request),
        teamIds ?? [],
      );
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

  app.post(
    '/collection-shares/:shareId/teams',
    {
      schema: {
        ...consumerRoute,
        summary: 'Share a collection you shared with whole teams too',
        description:
          'Their members see it while they are in the team, however they join or leave it (console, SCIM, sign-in groups).',
        params: ShareParams,
        body: AddShareTeamsBody,
        response: { 204: NoContent, ...bodyErrorAnswers },
      },
    },
    async (request, reply) => {
      await shares.addTeams(
        caller(request),
        request.params.shareId,
        request.body.teamIds,
        originOf(request),
      );
      return reply.status(204).send(null);
    },
  );

  app.delete(
    '/collection-shares/:shareId/teams/:teamId',
    {
      schema: {
        ...consumerRoute,
        summary: 'Stop sharing a collection you shared with a team',
        params: ShareTeamParams,
        response: { 204: NoContent, ...errorAnswers },
      },
    },
    async (request, reply) => {
      const { shareId, teamId } = request.params;
      await shares.removeTeam(caller(request), shareId, teamId, originOf(request));
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
