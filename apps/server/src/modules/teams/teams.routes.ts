import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

/** Administration of teams: `/api/admin/teams`. */
export const adminTeamsRoutes: FastifyPluginAsyncTypebox = async () => {};
