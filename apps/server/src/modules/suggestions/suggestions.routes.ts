import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

/** Suggestions to team and organization spaces: `/api/admin/suggestions`. */
export const adminSuggestionsRoutes: FastifyPluginAsyncTypebox = async () => {};
