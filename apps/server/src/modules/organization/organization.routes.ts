import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

/** The organization settings: `/api/admin/organization`. */
export const adminOrganizationRoutes: FastifyPluginAsyncTypebox = async () => {};
