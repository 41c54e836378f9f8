import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AccessTokensResponse,
  CreateAccessTokenBody,
  CreatedAccessTokenResponse,
  ErrorResponse,
  IdParams,
  NoContent,
} from '@signpost/contract';
import type { AccessTokensService } from './access-tokens.service.ts';
import { caller, originOf } from '../../lib/request-context.ts';

const bearer = [{ bearer: [] }];

/** Personal access tokens, under /api/auth/tokens. */
export const accessTokensRoutes: FastifyPluginAsyncTypebox<{
  accessTokens: AccessTokensService;
}> = async (app, { accessTokens: service }) => {
  app.get(
    '/tokens',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['auth'],
        summary: 'Your personal access tokens (never the tokens themselves)',
        security: bearer,
        response: { 200: AccessTokensResponse, 401: ErrorResponse },
      },
    },
    async (request) => service.list(caller(request).userId),
  );

  app.post(
    '/tokens',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['auth'],
        summary: 'Make a personal access token; the answer shows it this once',
        description:
          'Needs a sign-in session: a token cannot make further tokens. The session must have ' +
          'signed in or re-authenticated in the last 5 minutes (else 403 ' +
          'REAUTHENTICATION_REQUIRED). The token works as a bearer for every call and for ' +
          'token sign-in, until it expires or is revoked.',
        security: bearer,
        body: CreateAccessTokenBody,
        response: {
          201: CreatedAccessTokenResponse,
          400: ErrorResponse,
          401: ErrorResponse,
          403: ErrorResponse,
          409: ErrorResponse,
        },
      },
    },
    async (request, reply) => {
      return reply
        .status(201)
        .send(await service.create(caller(request), originOf(request), request.body));
    },
  );

  app.delete(
    '/tokens/:id',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['auth'],
        summary: 'Revoke a personal access token; it gets 401 from then on',
        security: bearer,
        params: IdParams,
        response: { 204: NoContent, 400: ErrorResponse, 401: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (request, reply) => {
      await service.revoke(caller(request), originOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
};
