import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

export const peersRoutes: FastifyPluginAsyncTypebox = async () => {};
