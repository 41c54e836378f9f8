import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

export const sharesRoutes: FastifyPluginAsyncTypebox = async () => {};
