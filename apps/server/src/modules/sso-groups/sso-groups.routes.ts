import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ErrorResponse,
  SsoGroupsParams,
  SsoGroupsResponse,
  UpdateSsoGroupsBody,
} from '@signpost/contract';
import { caller, originOf } from '../../lib/request-context.ts';
import type { SsoGroupsService } from './sso-groups.service.ts';

const bearer = [{ bearer: [] }];

/** Teams and roles from single sign-on groups, under /api/admin/sso-groups (administrators). */
export const adminSsoGroupsRoutes: FastifyPluginAsyncTypebox<{
  ssoGroups: SsoGroupsService;
}> = async (app, { ssoGroups }) => {
  app.get(
    '/sso-groups',
    {
      schema: {
        tags: ['admin'],
        summary: "Each single sign-on provider's groups claim and which group gives which team",
        security: bearer,
        response: { 200: SsoGroupsResponse, 401: ErrorResponse, 403: ErrorResponse },
      },
    },
    async (request) => ssoGroups.settings(caller(request)),
  );

  app.put(
    '/sso-groups/:providerId',
    {
      schema: {
        tags: ['admin'],
        summary: "Replace a provider's groups claim and mappings",
        description:
          'Administrators, from a session that signed in or re-authenticated in the last 5 ' +
          'minutes (a group may give the administrator role). Applied at each sign-in with ' +
          'the provider: memberships from groups are added and removed with the claim; ' +
          'memberships made otherwise are never removed by it (decision 0084).',
        security: bearer,
        params: SsoGroupsParams,
        body: UpdateSsoGroupsBody,
        response: {
          200: SsoGroupsResponse,
          400: ErrorResponse,
          401: ErrorResponse,
          403: ErrorResponse,
          404: ErrorResponse,
        },
      },
    },
    async (request) =>
      ssoGroups.update(caller(request), originOf(request), request.params.providerId, request.body),
  );
};
