import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  BOOKMARK_IMPORT_LIMITS,
  BookmarkExportQuery,
  BookmarkImportBody,
  BookmarkImportPreview,
  BookmarkImportPreviewBody,
  BookmarkImportResult,
} from '@signpost/contract';
import { Type } from 'typebox';
import { caller, originOf } from '../../lib/request-context.ts';
import { bodyErrorAnswers, consumerRoute, errorAnswers } from '../../lib/route-schemas.ts';
import type { BookmarksService } from './bookmarks.service.ts';

const CONTENT_TYPES = {
  netscape: 'text/html; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  json: 'application/json; charset=utf-8',
  managed: 'application/json; charset=utf-8',
} as const;

/** `attachment` with the name as RFC 6266 wants it: ASCII fallback and UTF-8 form. */
function attachment(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

// Bookmarks in and out (decision 0087). A file travels as a JSON string (decision 0049): its
// own limit (20 MB once read) is the service's, answered in words; this one only stops what
// could never be a file of 20 MB.
export const bookmarksRoutes: FastifyPluginAsyncTypebox<{ bookmarks: BookmarksService }> = async (
  app,
  { bookmarks },
) => {
  const bodyLimit = 4 * BOOKMARK_IMPORT_LIMITS.bytes;

  app.post(
    '/bookmarks/import/preview',
    {
      bodyLimit,
      schema: {
        ...consumerRoute,
        summary: 'What importing a bookmark file would make, writing nothing',
        description:
          'The format is recognised from the content. Counts of links and folders, the depth, ' +
          'the top folders, the links whose address the target space holds already, and every ' +
          'entry that would be refused with its reason (the first 200 of each; the counts are ' +
          'whole). 400 for a file that is not a bookmark file, is cut short, is not UTF-8, or ' +
          'exceeds 20 MB or 100,000 entries.',
        body: BookmarkImportPreviewBody,
        response: { 200: BookmarkImportPreview, ...bodyErrorAnswers },
      },
    },
    async (request) => bookmarks.preview(caller(request), request.body),
  );

  app.post(
    '/bookmarks/import',
    {
      bodyLimit,
      schema: {
        ...consumerRoute,
        summary: 'Import a bookmark file in one transaction',
        description:
          'Folders become nested collections and links keep their order; refused entries are ' +
          'left out, duplicates too when `duplicates` is `skip`. Everything is written in one ' +
          'transaction, or nothing is. The answer holds an undo ticket: POST /undo/{id} takes ' +
          'away what the import made.',
        body: BookmarkImportBody,
        response: { 200: BookmarkImportResult, ...bodyErrorAnswers },
      },
    },
    async (request) => bookmarks.import(caller(request), request.body, originOf(request)),
  );

  app.get(
    '/bookmarks/export',
    {
      schema: {
        ...consumerRoute,
        summary: 'A collection or a space as a bookmark file',
        description:
          '`netscape`: the bookmark file every browser imports; `json`: Signpost’s own, with ids, ' +
          'descriptions, keywords and order; `csv`: `url,name,description,path`; `managed`: a ' +
          '`ManagedBookmarks` policy for Chrome, Edge and Firefox. Name either `collectionId` ' +
          'or `space`.',
        querystring: BookmarkExportQuery,
        produces: ['text/html', 'application/json', 'text/csv'],
        response: {
          200: Type.String({ description: 'The file, streamed' }),
          ...errorAnswers,
        },
      },
    },
    async (request, reply) => {
      const file = await bookmarks.export(caller(request), request.query);
      return (
        reply
          .header('Content-Type', CONTENT_TYPES[request.query.format])
          .header('Content-Disposition', attachment(file.fileName))
          .header('Cache-Control', 'no-store')
          // A stream is sent as it is read, never serialized: the schema only documents it.
          .send(Readable.from(file.chunks) as unknown as string)
      );
    },
  );
};
