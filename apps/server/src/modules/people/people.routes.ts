import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

/** Administration of people: `/api/admin/people`. */
export const adminPeopleRoutes: FastifyPluginAsyncTypebox = async () => {};
