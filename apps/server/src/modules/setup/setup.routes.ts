import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  CompleteSetupBody,
  ErrorResponse,
  SessionResponse,
  SetupStatusResponse,
} from '@signpost/contract';
import type { SetupService } from './setup.service.ts';
import { originOf } from '../../lib/request-context.ts';

/** First run: `/api/setup` (status and the one-time setup of the organization). */
export const setupRoutes: FastifyPluginAsyncTypebox<{ setup: SetupService }> = async (
  app,
  { setup: service },
) => {
  app.get(
    '/',
    {
      schema: {
        tags: ['setup'],
        summary: 'Whether this installation still needs its first run',
        response: { 200: SetupStatusResponse },
      },
    },
    async () => service.status(),
  );

  app.post(
    '/',
    {
      schema: {
        tags: ['setup'],
        summary: 'First run: create the organization and its first administrator, signed in',
        description:
          'Works once, while no organization exists; afterwards 409. Needs the one-time setup ' +
          'code the server prints in its log at start; a wrong or expired code is 403 and is ' +
          'throttled like a sign-in (429 with Retry-After). Answers 201 with a session token ' +
          'of the new administrator, like POST /api/auth/sessions.',
        body: CompleteSetupBody,
        response: {
          201: SessionResponse,
          400: ErrorResponse,
          403: ErrorResponse,
          409: ErrorResponse,
          413: ErrorResponse,
          429: ErrorResponse,
        },
      },
    },
    async (request, reply) => {
      const token = await service.complete(request.body, originOf(request));
      return reply.status(201).send({ token });
    },
  );
};
