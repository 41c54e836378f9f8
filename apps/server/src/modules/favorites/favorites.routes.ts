import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

export const favoritesRoutes: FastifyPluginAsyncTypebox = async () => {};
