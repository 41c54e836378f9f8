import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { openSearchDescription } from './opensearch.ts';

export const OPENSEARCH_TYPE = 'application/opensearchdescription+xml';

/**
 * `GET /opensearch.xml`: the portal's search for the browser's address bar (decision 0065).
 * Public, the same for everyone, and outside `/api`: the page links it for any visitor, and
 * a browser fetches it without credentials. The not-found handler never answers it with the
 * page: the address has an extension, and this route is declared.
 */
export const opensearchPlugin = fp(async (app: FastifyInstance) => {
  const description = openSearchDescription(app.config.publicUrl);
  app.get('/opensearch.xml', { schema: { hide: true } }, async (_request, reply) =>
    reply
      .type(`${OPENSEARCH_TYPE}; charset=utf-8`)
      // Nothing private in it; a day is short enough for a change of PUBLIC_URL.
      .header('Cache-Control', 'public, max-age=86400')
      .send(description),
  );
});
