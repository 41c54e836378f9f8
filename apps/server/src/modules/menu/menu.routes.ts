import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

export const menuRoutes: FastifyPluginAsyncTypebox = async () => {};
