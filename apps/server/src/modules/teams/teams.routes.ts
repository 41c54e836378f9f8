import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AddTeamMembersBody,
  CreateTeamBody,
  DeleteTeamQuery,
  IdParams,
  NoContent,
  RemoveTeamMembersBody,
  TeamDetail,
  TeamMemberParams,
  TeamMembersChanged,
  TeamMembersQuery,
  TeamMembersResponse,
  TeamsQuery,
  TeamsResponse,
  UpdateTeamBody,
  UpdateTeamMemberBody,
} from '@signpost/contract';
import { adminRoute, bodyErrorAnswers, errorAnswers } from '../../lib/route-schemas.ts';
import type { TeamsService } from './teams.service.ts';
import { caller, originOf } from '../../lib/request-context.ts';

/** Administration of teams: `/api/admin/teams` (organization administrators). */
export const adminTeamsRoutes: FastifyPluginAsyncTypebox<{ teams: TeamsService }> = async (
  app,
  { teams },
) => {
  app.get(
    '/teams',
    {
      schema: {
        ...adminRoute,
        summary: 'Teams of the organization by name, with member counts',
        querystring: TeamsQuery,
        response: { 200: TeamsResponse, ...errorAnswers },
      },
    },
    async (request) => teams.list(caller(request), request.query),
  );

  app.post(
    '/teams',
    {
      schema: {
        ...adminRoute,
        summary: 'Create a team (its name unique in the organization, whatever the case)',
        body: CreateTeamBody,
        response: { 201: TeamDetail, ...bodyErrorAnswers },
      },
    },
    async (request, reply) => {
      const me = caller(request);
      const team = await teams.create(me, originOf(request), request.body);
      return reply.status(201).send(team);
    },
  );

  app.get(
    '/teams/:id',
    {
      schema: {
        ...adminRoute,
        summary: 'A team, with the count of collections and links deleting it would delete',
        params: IdParams,
        response: { 200: TeamDetail, ...errorAnswers },
      },
    },
    async (request) => teams.get(caller(request), request.params.id),
  );

  app.patch(
    '/teams/:id',
    {
      schema: {
        ...adminRoute,
        summary: 'Rename a team, or choose or clear its buddy (a member of the team)',
        params: IdParams,
        body: UpdateTeamBody,
        response: { 200: TeamDetail, ...bodyErrorAnswers },
      },
    },
    async (request) => {
      const me = caller(request);
      return teams.update(me, originOf(request), request.params.id, request.body);
    },
  );

  app.delete(
    '/teams/:id',
    {
      schema: {
        ...adminRoute,
        summary: 'Delete a team with its collections and links, confirming their counts',
        description:
          'The query repeats the counts of `GET /teams/{id}`; when the team holds other ' +
          'counts by now, nothing is deleted and the answer is 409.',
        params: IdParams,
        querystring: DeleteTeamQuery,
        response: { 204: NoContent, ...errorAnswers },
      },
    },
    async (request, reply) => {
      const me = caller(request);
      await teams.remove(me, originOf(request), request.params.id, request.query);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/teams/:id/members',
    {
      schema: {
        ...adminRoute,
        summary: 'Members of a team by name',
        params: IdParams,
        querystring: TeamMembersQuery,
        response: { 200: TeamMembersResponse, ...errorAnswers },
      },
    },
    async (request) => teams.members(caller(request), request.params.id, request.query),
  );

  app.post(
    '/teams/:id/members',
    {
      schema: {
        ...adminRoute,
        summary: 'Add people to a team (those already in keep their role)',
        params: IdParams,
        body: AddTeamMembersBody,
        response: { 200: TeamMembersChanged, ...bodyErrorAnswers },
      },
    },
    async (request) => {
      const me = caller(request);
      return teams.addMembers(me, originOf(request), request.params.id, request.body);
    },
  );

  app.post(
    '/teams/:id/members/remove',
    {
      schema: {
        ...adminRoute,
        summary: 'Take people out of a team (the buddy among them clears the buddy)',
        params: IdParams,
        body: RemoveTeamMembersBody,
        response: { 200: TeamMembersChanged, ...bodyErrorAnswers },
      },
    },
    async (request) => {
      const me = caller(request);
      return teams.removeMembers(me, originOf(request), request.params.id, request.body);
    },
  );

  app.patch(
    '/teams/:id/members/:userId',
    {
      schema: {
        ...adminRoute,
        summary: 'Make a member an editor of the team, or an editor a member',
        params: TeamMemberParams,
        body: UpdateTeamMemberBody,
        response: { 204: NoContent, ...bodyErrorAnswers },
      },
    },
    async (request, reply) => {
      const me = caller(request);
      const { id, userId } = request.params;
      await teams.setMemberRole(me, originOf(request), id, userId, request.body.role);
      return reply.status(204).send(null);
    },
  );
};
