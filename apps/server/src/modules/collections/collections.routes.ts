import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

export const collectionsRoutes: FastifyPluginAsyncTypebox = async () => {};
