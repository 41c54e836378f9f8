import type { FastifyPluginAsync } from 'fastify';
import { adminAuditRoutes } from './audit/audit.routes.ts';
import { adminBrokenLinksRoutes } from './link-health/link-health.routes.ts';
import { adminOrganizationRoutes } from './organization/organization.routes.ts';
import { adminPeopleRoutes } from './people/people.routes.ts';
import { adminSuggestionsRoutes } from './suggestions/suggestions.routes.ts';
import { adminTeamsRoutes } from './teams/teams.routes.ts';

/**
 * Everything under /api/admin: the console of the people who run the organization and its
 * teams. Each call is authorized through the access layer (modules/access): organization
 * administrators everywhere in their organization, team editors in their own teams.
 */
export const adminRoutes: FastifyPluginAsync = async (app) => {
  // Authentication comes before validation: without a live token, every call is 401.
  app.addHook('onRequest', app.authenticate);
  await app.register(adminPeopleRoutes);
  await app.register(adminTeamsRoutes);
  await app.register(adminOrganizationRoutes);
  await app.register(adminSuggestionsRoutes);
  await app.register(adminAuditRoutes);
  await app.register(adminBrokenLinksRoutes);
};
