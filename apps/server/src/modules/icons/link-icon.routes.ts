import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ErrorResponse,
  ICON_UPLOAD_BYTES,
  ICON_UPLOAD_TYPES,
  IdParams,
  LinkIconState,
  NoContent,
} from '@signpost/contract';
import { AppError } from '../../lib/errors.ts';
import { consumerRoute, errorAnswers } from '../../lib/route-schemas.ts';
import type { IconsService } from './icons.service.ts';
import { caller, originOf } from '../../lib/request-context.ts';

/**
 * `PUT /links/:id/icon` with the image as the body, and `DELETE /links/:id/icon` (decision
 * 0068): whoever may change a link may choose its icon, or go back to its site's. The one
 * place the API takes a body other than JSON, so the image parser is declared in this
 * scope only, and the rest of the API still takes JSON alone (decision 0049).
 */
export const linkIconRoutes: FastifyPluginAsyncTypebox<{ icons: IconsService }> = async (
  app,
  { icons: service },
) => {
  app.addContentTypeParser(
    [...ICON_UPLOAD_TYPES],
    { parseAs: 'buffer', bodyLimit: ICON_UPLOAD_BYTES },
    (_request, body, done) => done(null, body),
  );

  app.get(
    '/links/:id/icon',
    {
      schema: {
        ...consumerRoute,
        summary: "Where a link's icon stands: found on its site, uploaded, none, or not yet",
        params: IdParams,
        response: { 200: LinkIconState, ...errorAnswers },
      },
    },
    async (request) => service.state(caller(request), request.params.id),
  );

  app.put(
    '/links/:id/icon',
    {
      bodyLimit: ICON_UPLOAD_BYTES,
      schema: {
        ...consumerRoute,
        summary: "Set a link's icon from an image (PNG, JPEG, GIF, WebP or ICO, at most 256 KiB)",
        description:
          'Whoever may change the link may. The image is checked to be one, and scaled; the ' +
          "site's icon is not looked for while it stays.",
        params: IdParams,
        response: { 204: NoContent, 413: ErrorResponse, 415: ErrorResponse, ...errorAnswers },
      },
    },
    async (request, reply) => {
      if (!Buffer.isBuffer(request.body) || request.body.length === 0) {
        throw new AppError(
          415,
          'VALIDATION_ERROR',
          `Send the icon as the body, typed as one of ${ICON_UPLOAD_TYPES.join(', ')}.`,
        );
      }
      await service.upload(caller(request), request.params.id, request.body, originOf(request));
      return reply.status(204).send(null);
    },
  );

  app.delete(
    '/links/:id/icon',
    {
      schema: {
        ...consumerRoute,
        summary: "Drop a link's uploaded icon: its site's is used again",
        params: IdParams,
        response: { 204: NoContent, ...errorAnswers },
      },
    },
    async (request, reply) => {
      await service.removeUpload(caller(request), request.params.id, originOf(request));
      return reply.status(204).send(null);
    },
  );
};
