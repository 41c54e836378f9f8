import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

export const linksRoutes: FastifyPluginAsyncTypebox = async () => {};
