import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { OrganizationSettings, UpdateOrganizationBody } from '@signpost/contract';
import { adminRoute, bodyErrorAnswers, errorAnswers } from '../../lib/route-schemas.ts';
import type { OrganizationService } from './organization.service.ts';
import { caller, originOf } from '../../lib/request-context.ts';

/** The organization settings: `/api/admin/organization` (organization administrators). */
export const adminOrganizationRoutes: FastifyPluginAsyncTypebox<{
  organization: OrganizationService;
}> = async (app, { organization }) => {
  app.get(
    '/organization',
    {
      schema: {
        ...adminRoute,
        summary: "The organization's settings",
        response: { 200: OrganizationSettings, ...errorAnswers },
      },
    },
    async (request) => organization.get(caller(request)),
  );

  app.patch(
    '/organization',
    {
      schema: {
        ...adminRoute,
        summary: "Change the organization's settings",
        description:
          'Only the fields given change. Turning password sign-in off needs a single ' +
          'sign-on provider and an administrator who has signed in with it (409 otherwise).',
        body: UpdateOrganizationBody,
        response: { 200: OrganizationSettings, ...bodyErrorAnswers },
      },
    },
    async (request) => {
      const me = caller(request);
      return organization.update(me, originOf(request), request.body);
    },
  );
};
