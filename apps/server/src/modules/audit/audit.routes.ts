import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

/** The audit log: `/api/admin/audit-log`. */
export const adminAuditRoutes: FastifyPluginAsyncTypebox = async () => {};
