import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  CreatedScimTokenResponse,
  CreateScimTokenBody,
  ErrorResponse,
  IdParams,
  NoContent,
  ScimTokensResponse,
} from '@signpost/contract';
import { caller, originOf } from '../../lib/request-context.ts';
import type { ScimService } from './scim.service.ts';

const bearer = [{ bearer: [] }];

/** The organization's SCIM tokens, under /api/admin/scim-tokens (administrators). */
export const adminScimTokensRoutes: FastifyPluginAsyncTypebox<{ scim: ScimService }> = async (
  app,
  { scim },
) => {
  app.get(
    '/scim-tokens',
    {
      schema: {
        tags: ['admin'],
        summary: "The organization's SCIM tokens (never the tokens themselves)",
        security: bearer,
        response: { 200: ScimTokensResponse, 401: ErrorResponse, 403: ErrorResponse },
      },
    },
    async (request) => scim.listTokens(caller(request)),
  );

  app.post(
    '/scim-tokens',
    {
      schema: {
        tags: ['admin'],
        summary: 'Make a SCIM token for the identity system; the answer shows it this once',
        description:
          'Administrators, from a session that signed in or re-authenticated in the last 5 ' +
          'minutes (else 403 REAUTHENTICATION_REQUIRED). The token opens /scim/v2 of the ' +
          'organization and nothing else; 409 when the organization has 20 live tokens.',
        security: bearer,
        body: CreateScimTokenBody,
        response: {
          201: CreatedScimTokenResponse,
          400: ErrorResponse,
          401: ErrorResponse,
          403: ErrorResponse,
          409: ErrorResponse,
        },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await scim.createToken(caller(request), originOf(request), request.body.name)),
  );

  app.delete(
    '/scim-tokens/:id',
    {
      schema: {
        tags: ['admin'],
        summary: 'Revoke a SCIM token; the identity system gets 401 from then on',
        security: bearer,
        params: IdParams,
        response: {
          204: NoContent,
          400: ErrorResponse,
          401: ErrorResponse,
          403: ErrorResponse,
          404: ErrorResponse,
        },
      },
    },
    async (request, reply) => {
      await scim.revokeToken(caller(request), originOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
};
