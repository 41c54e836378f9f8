import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** The OpenAPI document, generated from the route schemas, and its viewer at /api/docs. */
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
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
});
