import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AcceptInvitationBody,
  ErrorResponse,
  InvitationResponse,
  InvitationTokenBody,
  SessionResponse,
} from '@signpost/contract';
import type { InvitationsService } from './invitations.service.ts';
import { originOf } from '../../lib/request-context.ts';

const answers = { 400: ErrorResponse, 410: ErrorResponse, 413: ErrorResponse, 429: ErrorResponse };

/**
 * Invitation links: `/api/invitations` (look one up, accept it). Public; the token goes in
 * the body, never in an address that logs could keep.
 */
export const invitationsRoutes: FastifyPluginAsyncTypebox<{
  invitations: InvitationsService;
}> = async (app, { invitations: service }) => {
  app.post(
    '/lookup',
    {
      schema: {
        tags: ['auth'],
        summary: 'Who an invitation link is for, while it can be used',
        description: 'Used, expired, revoked and unknown links all answer 410 with one message.',
        body: InvitationTokenBody,
        response: { 200: InvitationResponse, ...answers },
      },
    },
    async (request) => service.lookup(request.body.token, request.ip),
  );

  app.post(
    '/accept',
    {
      schema: {
        tags: ['auth'],
        summary: 'Accept an invitation by choosing a password; answers a signed-in session',
        description:
          'Single use: once accepted (or when two accepts race, for the one that lost) the ' +
          'link answers 410.',
        body: AcceptInvitationBody,
        response: { 201: SessionResponse, ...answers },
      },
    },
    async (request, reply) => {
      const session = await service.accept({ ...request.body, ...originOf(request) });
      return reply.status(201).send(session);
    },
  );
};
