import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  DisableSecondFactorBody,
  EnableSecondFactorBody,
  ErrorResponse,
  NoContent,
  RecoveryCodesResponse,
  SecondFactorSetupResponse,
  SecondFactorStatus,
} from '@signpost/contract';
import { caller, originOf } from '../../lib/request-context.ts';
import type { SecondFactorService } from './second-factor.service.ts';

const bearer = [{ bearer: [] }];
const errors = {
  400: ErrorResponse,
  401: ErrorResponse,
  403: ErrorResponse,
  409: ErrorResponse,
  429: ErrorResponse,
};

/** The optional second factor (TOTP), under /api/auth/second-factor. */
export const secondFactorRoutes: FastifyPluginAsyncTypebox<{
  secondFactor: SecondFactorService;
}> = async (app, { secondFactor: service }) => {
  app.get(
    '/second-factor',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['auth'],
        summary: 'Whether the second factor is on, and recovery codes left',
        security: bearer,
        response: { 200: SecondFactorStatus, 401: ErrorResponse },
      },
    },
    async (request) => service.status(caller(request).userId),
  );

  app.post(
    '/second-factor/setup',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['auth'],
        summary: 'Start setting up the second factor: a new secret to scan',
        description:
          'Nothing changes at sign-in until a code confirms it (…/enable). Needs a session ' +
          'that signed in or re-authenticated in the last 5 minutes (else 403 ' +
          'REAUTHENTICATION_REQUIRED), like …/enable and …/disable.',
        security: bearer,
        response: { 200: SecondFactorSetupResponse, ...errors },
      },
    },
    async (request) => service.setup(caller(request)),
  );

  app.post(
    '/second-factor/enable',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['auth'],
        summary: 'Turn the second factor on with a current code; answers the recovery codes',
        description:
          'A wrong code answers 400 SECOND_FACTOR_INVALID. Turning it on ends every other ' +
          'session of the person (this one goes on); access tokens stay.',
        security: bearer,
        body: EnableSecondFactorBody,
        response: { 200: RecoveryCodesResponse, ...errors },
      },
    },
    async (request) => service.enable(caller(request), request.body.code, originOf(request)),
  );

  app.post(
    '/second-factor/disable',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['auth'],
        summary: 'Turn the second factor off with a current code or the password',
        description: 'A wrong code or password answers 400 SECOND_FACTOR_INVALID.',
        security: bearer,
        body: DisableSecondFactorBody,
        response: { 204: NoContent, ...errors },
      },
    },
    async (request, reply) => {
      await service.disable(caller(request), request.body, originOf(request));
      return reply.status(204).send(null);
    },
  );
};
