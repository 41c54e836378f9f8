import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  CreateSessionBody,
  CurrentSessionResponse,
  ErrorResponse,
  LoginMethodsResponse,
  NoContent,
  SessionResponse,
} from '@signpost/contract';
import { caller } from '../../plugins/auth.ts';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 429: ErrorResponse };

export const authRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/methods',
    {
      schema: {
        tags: ['auth'],
        summary: 'The ways to sign in',
        response: { 200: LoginMethodsResponse },
      },
    },
    async () => [{ type: 'email-password' as const, name: 'E-mail and password' }],
  );

  app.post(
    '/sessions',
    {
      schema: {
        tags: ['auth'],
        summary: 'Sign in with e-mail and password',
        body: CreateSessionBody,
        response: { 201: SessionResponse, ...errors },
      },
    },
    async (request, reply) => {
      const token = await app.auth.login({
        email: request.body.email,
        password: request.body.password,
        ip: request.ip,
        userAgent: request.headers['user-agent'],
      });
      return reply.status(201).send({ token });
    },
  );

  app.get(
    '/sessions/current',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['auth'],
        summary: 'Sign in by token: the person behind the bearer token',
        security: [{ bearer: [] }],
        response: { 200: CurrentSessionResponse, 401: ErrorResponse },
      },
    },
    async (request) => {
      const me = caller(request);
      return {
        user: { id: me.userId, name: me.name, email: me.email, role: me.role },
        organization: { id: me.organizationId, name: me.organizationName },
        session: { expiresAt: me.expiresAt.toISOString() },
      };
    },
  );

  app.delete(
    '/sessions/current',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['auth'],
        summary: 'Sign out: the token stops working everywhere',
        security: [{ bearer: [] }],
        response: { 204: NoContent, 401: ErrorResponse },
      },
    },
    async (request, reply) => {
      await app.auth.logout(caller(request).sessionId);
      return reply.status(204).send(null);
    },
  );
};
