import type { ErrorCode, ErrorResponse } from '@signpost/contract';
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { STATUS_CODES } from 'node:http';
import { errorChain, isFromDatabase } from '../db/errors.ts';
import { AppError } from '../lib/errors.ts';
import {
  pathMessageInWords,
  schemaProblem,
  type FieldProblem,
  type RequestPart,
  type SchemaError,
} from '../lib/field-words.ts';
import { pathOf } from './request-log.ts';

const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: 'VALIDATION_ERROR',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'VALIDATION_ERROR',
  429: 'RATE_LIMITED',
  503: 'DATABASE_UNAVAILABLE',
};

// Errors of node-postgres and PGlite that mean the database cannot be reached now. Socket
// codes (ECONNRESET…) are also what an HTTP client that hangs up produces, so they count
// only for errors that came out of the database layer (decision 0050).
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EPIPE',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '08000',
  '08003',
  '08006',
  '08001',
  '08004',
]);

export function isDatabaseUnavailable(error: unknown): boolean {
  if (!isFromDatabase(error)) return false;
  for (const e of errorChain(error)) {
    if (typeof e.code === 'string' && UNAVAILABLE_CODES.has(e.code)) return true;
    const message = typeof e.message === 'string' ? e.message : '';
    if (
      /Connection terminated|not queryable|timeout exceeded when trying to connect|PGlite is closed/i.test(
        message,
      )
    ) {
      return true;
    }
  }
  return false;
}

export function sendError(
  reply: FastifyReply,
  statusCode: number,
  code: ErrorCode,
  message: string,
  field: string | null = null,
) {
  const body: ErrorResponse = {
    statusCode,
    error: STATUS_CODES[statusCode] ?? 'Error',
    code,
    message,
    msg: message,
    ...(field ? { field } : {}),
  };
  return reply.status(statusCode).type('application/json; charset=utf-8').send(body);
}

/** The one place that turns errors into responses; details of 5xx stay in the log. */
export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    // A refused value is said in words, naming the field by its label (decision 0078).
    const schemaOf = (part: RequestPart): unknown =>
      (request.routeOptions.schema as Record<string, unknown> | undefined)?.[part];
    if (error instanceof AppError) {
      for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
      let problem: FieldProblem = { field: error.field, message: error.message };
      if (error.statusCode === 400 && !error.field) {
        problem = pathMessageInWords(error.message, schemaOf) ?? problem;
      }
      return sendError(reply, error.statusCode, error.code, problem.message, problem.field);
    }
    if (error.validation) {
      const part = (error.validationContext ?? 'body') as RequestPart;
      const problem = schemaProblem(error.validation as SchemaError[], part, schemaOf(part));
      return sendError(reply, 400, 'VALIDATION_ERROR', problem.message, problem.field);
    }
    if (isDatabaseUnavailable(error)) {
      request.log.error({ err: error }, 'database unavailable');
      reply.header('Retry-After', '5');
      return sendError(
        reply,
        503,
        'DATABASE_UNAVAILABLE',
        'The database is not reachable right now. Nothing was changed; try again shortly.',
      );
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return sendError(reply, status, CODE_BY_STATUS[status] ?? 'VALIDATION_ERROR', error.message);
    }
    request.log.error({ err: error }, 'request failed');
    return sendError(reply, 500, 'INTERNAL_ERROR', 'Something went wrong on our side.');
  });

  // Addresses an operator's tools ask for: never the web app's page, even when the metrics
  // are not served here (decision 0064).
  const OPERATOR_PATHS = new Set(['/healthz', '/readyz', '/metrics']);
  app.setNotFoundHandler((request, reply) => {
    const path = pathOf(request.url);
    // Only page addresses get the app; a missing file (an old asset after a new build) is a
    // 404, never index.html, which the browser would refuse as a script or a stylesheet.
    const page =
      request.method === 'GET' &&
      path !== '/api' &&
      !path.startsWith('/api/') &&
      !OPERATOR_PATHS.has(path.replace(/\/$/, '')) &&
      !path.startsWith('/assets/') &&
      !/\.[a-z0-9]+$/i.test(path);
    if (page && app.serveWebIndex) {
      // The web app has no routes of its own in the address: every page is index.html.
      return reply.header('Cache-Control', 'no-cache').sendFile('index.html');
    }
    return sendError(reply, 404, 'NOT_FOUND', `No route ${request.method} ${path}`);
  });
});

interface AjvErrorLike {
  keyword: string;
  instancePath: string;
  message?: string;
  params: Record<string, unknown>;
}

/**
 * The error of a failed check as Fastify keeps it (`body.name must NOT have more than 200
 * characters`): for the log only. The answer says it in words (`schemaProblem`, decision 0078).
 */
export function formatSchemaErrors(errors: AjvErrorLike[], dataVar: string): Error {
  const e = errors[0];
  if (!e) return new Error(`${dataVar} is not valid`);
  const path = e.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const where = path ? `${dataVar}.${path}` : dataVar;
  if (e.keyword === 'additionalProperties') {
    return new Error(`${where} has an unknown property "${String(e.params.additionalProperty)}"`);
  }
  if (e.keyword === 'required') {
    return new Error(`${where}.${String(e.params.missingProperty)} is required`);
  }
  return new Error(`${where} ${e.message ?? 'is not valid'}`);
}
