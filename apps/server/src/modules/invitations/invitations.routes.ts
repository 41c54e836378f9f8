import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

/** Invitation and password links: `/api/invitations` (look one up, accept it). */
export const invitationsRoutes: FastifyPluginAsyncTypebox = async () => {};
