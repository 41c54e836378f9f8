import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { existsSync } from 'node:fs';
import path from 'node:path';
import fp from 'fastify-plugin';

/**
 * Serves the built web app; other page addresses get index.html (see the errors plugin).
 * The build writes a brotli (`.br`) and a gzip (`.gz`) copy beside each text file (decision
 * 0059): the one the client's Accept-Encoding prefers is sent, with its Content-Encoding and
 * `Vary: Accept-Encoding`, and the file itself to a client that takes neither (or when the
 * build wrote no copy, as for a file too small to gain). The server never compresses these
 * files at run time: app.ts registers them before the compression plugin.
 */
export const staticWebPlugin = fp(async (app: FastifyInstance, options: { root: string }) => {
  if (!existsSync(path.join(options.root, 'index.html'))) {
    app.log.warn({ root: options.root }, 'web app not built; serving the API only');
    return;
  }
  await app.register(fastifyStatic, {
    root: options.root,
    wildcard: false,
    preCompressed: true,
    setHeaders: (res, filePath) => {
      // Hashed assets never change. Everything else is revalidated at every use: the page,
      // the service worker (a browser must see a new version at its next check, decision
      // 0065), the web app manifest and the icons.
      res.header(
        'Cache-Control',
        filePath.includes(`${path.sep}assets${path.sep}`)
          ? 'public, max-age=31536000, immutable'
          : 'no-cache',
      );
    },
  });
  app.decorate('serveWebIndex', true);
});

declare module 'fastify' {
  interface FastifyInstance {
    serveWebIndex?: boolean;
  }
}
