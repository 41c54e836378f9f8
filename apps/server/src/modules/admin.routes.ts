import type { FastifyPluginAsync } from 'fastify';
import type { AuditService } from './audit/audit.service.ts';
import { adminAuditRoutes } from './audit/audit.routes.ts';
import type { LinkHealthService } from './link-health/link-health.service.ts';
import { adminBrokenLinksRoutes } from './link-health/link-health.routes.ts';
import type { LiveHub } from './live/live.hub.ts';
import { adminTeamSpaceEventsRoutes } from './live/live.routes.ts';
import type { MenuService } from './menu/menu.service.ts';
import { adminTeamSpaceRoutes } from './menu/menu.routes.ts';
import type { OrganizationService } from './organization/organization.service.ts';
import { adminOrganizationRoutes } from './organization/organization.routes.ts';
import type { PeopleImportService } from './people/people-import.service.ts';
import type { PeopleService } from './people/people.service.ts';
import { adminPeopleRoutes } from './people/people.routes.ts';
import type { ScimService } from './scim/scim.service.ts';
import type { SsoGroupsService } from './sso-groups/sso-groups.service.ts';
import { adminSsoGroupsRoutes } from './sso-groups/sso-groups.routes.ts';
import { adminScimTokensRoutes } from './scim/scim-tokens.routes.ts';
import type { SuggestionsService } from './suggestions/suggestions.service.ts';
import { adminSuggestionsRoutes } from './suggestions/suggestions.routes.ts';
import type { TeamsService } from './teams/teams.service.ts';
import { adminTeamsRoutes } from './teams/teams.routes.ts';

/** The services the console's routes call. */
export interface AdminServices {
  audit: AuditService;
  linkHealth: LinkHealthService;
  live: LiveHub;
  menu: MenuService;
  organization: OrganizationService;
  people: PeopleService;
  peopleImport: PeopleImportService;
  scim: ScimService;
  ssoGroups: SsoGroupsService;
  suggestions: SuggestionsService;
  teams: TeamsService;
}

/**
 * Everything under /api/admin: the console of the people who run the organization and its
 * teams. Each call is authorized through the access layer (modules/access): organization
 * administrators everywhere in their organization, team editors in their own teams.
 */
export const adminRoutes: FastifyPluginAsync<AdminServices> = async (app, services) => {
  // Authentication comes before validation: without a live token, every call is 401.
  app.addHook('onRequest', app.authenticate);
  await app.register(adminPeopleRoutes, {
    people: services.people,
    peopleImport: services.peopleImport,
  });
  await app.register(adminTeamsRoutes, { teams: services.teams });
  await app.register(adminOrganizationRoutes, { organization: services.organization });
  await app.register(adminSuggestionsRoutes, { suggestions: services.suggestions });
  await app.register(adminAuditRoutes, { audit: services.audit });
  await app.register(adminScimTokensRoutes, { scim: services.scim });
  await app.register(adminSsoGroupsRoutes, { ssoGroups: services.ssoGroups });
  await app.register(adminBrokenLinksRoutes, { linkHealth: services.linkHealth });
  await app.register(adminTeamSpaceRoutes, { menu: services.menu });
  // Its live updates (decision 0062), while the caller runs the team.
  await app.register(adminTeamSpaceEventsRoutes, { live: services.live, menu: services.menu });
};
