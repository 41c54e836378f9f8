import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Strict headers on every response; HSTS only where the request came over TLS (as the
 * trusted proxy says, see TRUST_PROXY). Nothing is cached unless its route says so.
 */
export const securityHeadersPlugin = fp(async (app: FastifyInstance) => {
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Component styles set style attributes; scripts stay strictly same-origin.
        styleSrc: ["'self'", "'unsafe-inline'"],
        // Links' icons are served by the server itself (decision 0068): drawing the portal
        // asks no other site for anything, so no other site learns who looks at it.
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        // The web app manifest and the service worker (decision 0065), from this origin only.
        manifestSrc: ["'self'"],
        workerSrc: ["'self'"],
      },
    },
    // Tokens travel in the address fragment and paths can name private collections.
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: false,
    crossOriginEmbedderPolicy: false,
    // The same as frame-ancestors 'none', for browsers that only know this header.
    frameguard: { action: 'deny' },
  });
  app.addHook('onSend', async (request, reply) => {
    // Answers carry tokens, recovery codes, second-factor secrets and private links: no
    // cache, shared or private, keeps them. A route that may be cached says so itself (the
    // menu revalidates with its ETag; the web app's files set their own).
    if (!reply.hasHeader('cache-control')) reply.header('Cache-Control', 'no-store');
    if (request.protocol === 'https') {
      reply.header('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
    }
  });
});
