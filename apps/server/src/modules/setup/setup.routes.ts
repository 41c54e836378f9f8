import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

/** First run: `/api/setup` (status and the one-time setup of the organization). */
export const setupRoutes: FastifyPluginAsyncTypebox = async () => {};
