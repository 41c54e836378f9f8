import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { notFound } from '../../lib/errors.ts';
import type { IconsService } from './icons.service.ts';

/** An icon's id as iconId makes it (a base64url digest). */
const IconParams = Type.Object(
  { id: Type.String({ pattern: '^[A-Za-z0-9_-]{16,64}$' }) },
  { additionalProperties: false },
);
const SizeQuery = Type.Object(
  {
    size: Type.Optional(
      Type.Integer({ minimum: 16, maximum: 512, description: 'The size drawn, in pixels' }),
    ),
  },
  { additionalProperties: false },
);

/**
 * `GET /api/icons/:id?size=n`: an icon this server keeps (decision 0068). Without a session:
 * an `<img>` sends none, and the address is a digest no one can guess (icons.repository.ts).
 * An address always shows the same bytes, so browsers and proxies keep it for a year. The
 * size served is the smallest kept that is at least the one asked for, else the largest.
 */
export const iconsRoutes: FastifyPluginAsyncTypebox<{ icons: IconsService }> = async (
  app,
  { icons },
) => {
  app.get(
    '/:id',
    {
      schema: {
        tags: ['icons'],
        summary: "A link's icon, kept and served by Signpost itself",
        params: IconParams,
        querystring: SizeQuery,
      },
    },
    async (request, reply) => {
      const image = await icons.image(request.params.id, request.query.size);
      if (!image) throw notFound('There is no such icon.');
      return reply
        .type(image.contentType)
        .header('Cache-Control', 'public, max-age=31536000, immutable')
        .header('ETag', `"${request.params.id}-${image.size}"`)
        .send(image.bytes);
    },
  );
};
