import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AuditExportQuery, AuditLogQuery, AuditLogResponse } from '@signpost/contract';
import { Type } from 'typebox';
import { adminRoute, errorAnswers } from '../../lib/route-schemas.ts';
import type { AuditService } from './audit.service.ts';
import { caller } from '../../lib/request-context.ts';

const FILTERS =
  'Filters: `person` (who did it or to whom), `action` (names or group prefixes such as ' +
  '`person.`, comma-separated), `from` (inclusive) and `to` (exclusive) instants, `q` (words ' +
  'in the names and e-mails of actor and target).';

/** The audit log: `/api/admin/audit-log`, for the organization's administrators. */
export const adminAuditRoutes: FastifyPluginAsyncTypebox<{ audit: AuditService }> = async (
  app,
  { audit },
) => {
  app.get(
    '/audit-log',
    {
      schema: {
        ...adminRoute,
        summary: 'The audit log, newest first, a page at a time (administrators)',
        description: `${FILTERS} Pages follow \`nextCursor\`.`,
        querystring: AuditLogQuery,
        response: { 200: AuditLogResponse, ...errorAnswers },
      },
    },
    async (request) => audit.list(caller(request), request.query),
  );

  app.get(
    '/audit-log/export',
    {
      schema: {
        ...adminRoute,
        summary: 'The audit log as CSV, with the same filters as the list (administrators)',
        description:
          `${FILTERS} Every matching entry, newest first, streamed; cells that a spreadsheet ` +
          'would take for a formula start with an apostrophe.',
        querystring: AuditExportQuery,
        produces: ['text/csv'],
        response: {
          200: Type.String({ description: 'CSV with a header row (UTF-8 with BOM)' }),
          ...errorAnswers,
        },
      },
    },
    async (request, reply) => {
      const csv = audit.exportCsv(caller(request), request.query);
      const day = new Date().toISOString().slice(0, 10);
      return (
        reply
          .header('Content-Type', 'text/csv; charset=utf-8')
          .header('Content-Disposition', `attachment; filename="audit-log-${day}.csv"`)
          .header('Cache-Control', 'no-store')
          // A stream is sent as it is read, never serialized: the schema only documents it.
          .send(csv as unknown as string)
      );
    },
  );
};
