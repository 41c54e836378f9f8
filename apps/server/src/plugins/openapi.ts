import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

/** Where the web app keeps the session token (apps/web/src/lib/constants.ts). */
const WEB_TOKEN_KEY = 'my_jwt_key';

/**
 * Runs in the viewer's page, written into its same-origin initializer script (never
 * inline): the document is fetched with the session the web app keeps in this browser.
 * Other calls ("Try it out") carry only what the reader enters under "Authorize".
 */
const WITH_WEB_SESSION = `function (request) {
  var path = new URL(request.url, window.location.href).pathname;
  if (path === '/api/docs/json' && !request.headers.Authorization) {
    var token = null;
    try { token = window.localStorage.getItem(${JSON.stringify(WEB_TOKEN_KEY)}); } catch (e) {}
    if (token) request.headers.Authorization = 'Bearer ' + token;
  }
  return request;
}`;
/** Swagger UI writes a function of its settings into the initializer as its source text. */
const browserFunction = (source: string) =>
  Object.assign(() => undefined, { toString: () => source });

/**
 * The OpenAPI document, generated from the route schemas, and its viewer at /api/docs
 * (decision 0051). `API_DOCS=signed-in` (the default) serves the document to signed-in
 * callers only; `public` to anyone; `off` not at all. The viewer is the stock Swagger UI
 * from this server, under the application's own strict Content-Security-Policy.
 */
export const openapiPlugin = fp(async (app: FastifyInstance) => {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Signpost API',
        description: 'The link portal for organizations. Every error has the shape ErrorResponse.',
        version: '0.1.0',
      },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'A session token' },
        },
      },
      tags: [
        { name: 'auth', description: 'Sign-in methods and sessions' },
        { name: 'consumer', description: 'What a signed-in person sees and does in the portal' },
        { name: 'setup', description: 'First run: the organization and its first administrator' },
        {
          name: 'admin',
          description: 'Administration: people, teams, settings, suggestions, audit log',
        },
      ],
    },
  });
  const access = app.config.apiDocs;
  if (access === 'off') return;
  // The document needs a bearer token unless the documentation is public; the viewer's
  // page and files are the stock Swagger UI and tell nothing about this server.
  // By the route matched, not the address typed (which may be spelled many ways).
  const isDocument = (request: FastifyRequest) =>
    ['/api/docs/json', '/api/docs/yaml'].includes(request.routeOptions.url ?? '');
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    // No staticCSP: the application's policy stays (security-headers.ts); the viewer's
    // scripts and styles are files of this server, its initializer included.
    uiConfig: {
      requestInterceptor: browserFunction(WITH_WEB_SESSION) as never,
    },
    theme: { title: 'Signpost API' },
    uiHooks: {
      onRequest: async (request: FastifyRequest) => {
        if (access === 'signed-in' && isDocument(request)) await app.authenticate(request);
      },
    },
  });
});
