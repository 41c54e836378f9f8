import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SCIM_BASE_PATH } from '@signpost/contract';
import { isDatabaseUnavailable } from '../../plugins/errors.ts';
import { acceptJsonAs } from '../../plugins/body-parsers.ts';
import { AppError } from '../../lib/errors.ts';
import { originOf } from '../../lib/request-context.ts';
import { listOf, resourceTypes, schemas, serviceProviderConfig } from './scim-discovery.ts';
import {
  errorBody,
  invalidSyntax,
  invalidValue,
  notFound,
  SCIM_LIMITS,
  SCIM_MEDIA_TYPE,
  ScimProblem,
} from './scim-protocol.ts';
import type { ScimCaller, ScimListQuery, ScimService, ScimWrite } from './scim.service.ts';

// The scheme is case-insensitive (RFC 9110 §11.1); the token is a token68.
const BEARER = /^Bearer +([A-Za-z0-9._~+/=-]{16,512}) *$/i;

function send(reply: FastifyReply, status: number, body: unknown) {
  const resource = body as { meta?: { version?: string; location?: string } };
  if (resource.meta?.version && status < 300) reply.header('ETag', resource.meta.version);
  if (status === 201 && resource.meta?.location) reply.header('Location', resource.meta.location);
  return reply
    .status(status)
    .header('Content-Type', `${SCIM_MEDIA_TYPE}; charset=utf-8`)
    .send(JSON.stringify(body));
}

function sendProblem(reply: FastifyReply, problem: ScimProblem) {
  if (problem.status === 401) reply.header('WWW-Authenticate', 'Bearer realm="SCIM"');
  return send(reply, problem.status, errorBody(problem));
}

/** Any error of the scope as SCIM's error message (RFC 7644 §3.12). */
function asProblem(error: FastifyError, request: FastifyRequest): ScimProblem {
  if (error instanceof ScimProblem) return error;
  if (error instanceof AppError) {
    if (error.statusCode === 400) return invalidValue(error.message);
    return new ScimProblem(error.statusCode, error.message);
  }
  if (error.validation) return invalidValue(error.message);
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return new ScimProblem(415, `Send the body as ${SCIM_MEDIA_TYPE} (or application/json).`);
  }
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return new ScimProblem(
      413,
      `A request body takes at most ${SCIM_LIMITS.bodyBytes / 1024 / 1024} MB.`,
    );
  }
  if (error.statusCode === 400) return invalidSyntax(`The body is not JSON: ${error.message}`);
  if (isDatabaseUnavailable(error)) {
    return new ScimProblem(
      503,
      'The database is not reachable right now. Nothing was changed; try again shortly.',
    );
  }
  request.log.error({ err: error }, 'SCIM request failed');
  return new ScimProblem(500, 'Something went wrong on our side.');
}

declare module 'fastify' {
  interface FastifyRequest {
    scimCaller: ScimCaller | null;
  }
}

const callerOf = (request: FastifyRequest) => request.scimCaller!;

/**
 * SCIM 2.0 at /scim/v2 (decision 0084): Users and Groups for the organization's identity
 * system. Its own scope: SCIM's media type, its error format, and its tokens only — a
 * session or a personal access token opens nothing here, as a SCIM token opens nothing
 * elsewhere.
 */
export async function scimRoutes(app: FastifyInstance, { scim }: { scim: ScimService }) {
  acceptJsonAs(app, SCIM_MEDIA_TYPE);
  app.decorateRequest('scimCaller', null);
  // SCIM describes itself (ServiceProviderConfig, ResourceTypes, Schemas; RFC 7644 §4): its
  // routes are not part of the API's OpenAPI document, whose errors and tokens are others.
  app.addHook('onRoute', (route) => {
    route.schema = { ...(route.schema ?? {}), hide: true };
  });
  const base = `${app.config.publicUrl.replace(/\/$/, '')}${SCIM_BASE_PATH}`;

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const problem = asProblem(error, request);
    for (const [name, value] of Object.entries(error instanceof AppError ? error.headers : {})) {
      reply.header(name, value);
    }
    return sendProblem(reply, problem);
  });
  app.setNotFoundHandler((request, reply) =>
    sendProblem(
      reply,
      notFound(`There is no ${request.method} ${request.url.split('?')[0]} in SCIM.`),
    ),
  );

  app.addHook('onRequest', async (request) => {
    const header = request.headers.authorization;
    if (header === undefined) {
      throw new ScimProblem(401, 'Send the SCIM token as "Authorization: Bearer <token>".');
    }
    const token = BEARER.exec(header)?.[1];
    const found = token ? await scim.authenticate(token) : null;
    if (!found)
      throw new ScimProblem(401, 'This SCIM token is not valid: it is unknown or revoked.');
    request.scimCaller = found;
  });

  const write = (request: FastifyRequest): ScimWrite => ({
    ifMatch: request.headers['if-match'],
    origin: originOf(request),
    base,
  });
  const bodyLimit = SCIM_LIMITS.bodyBytes;
  type WithId = { Params: { id: string }; Querystring: ScimListQuery };
  type List = { Querystring: ScimListQuery };

  app.get('/ServiceProviderConfig', async (_request, reply) =>
    send(reply, 200, serviceProviderConfig(base)),
  );
  app.get('/ResourceTypes', async (_request, reply) =>
    send(reply, 200, listOf(resourceTypes(base))),
  );
  app.get<{ Params: { id: string } }>('/ResourceTypes/:id', async (request, reply) => {
    const found = resourceTypes(base).find((type) => type.id === request.params.id);
    if (!found) throw notFound(`There is no resource type ${request.params.id}.`);
    return send(reply, 200, found);
  });
  app.get('/Schemas', async (_request, reply) => send(reply, 200, listOf(schemas(base))));
  app.get<{ Params: { id: string } }>('/Schemas/:id', async (request, reply) => {
    const found = schemas(base).find((schema) => schema.id === request.params.id);
    if (!found) throw notFound(`There is no schema ${request.params.id}.`);
    return send(reply, 200, found);
  });

  /** The six routes of a resource type (RFC 7644 §3), each one call of its service. */
  function resource(
    path: '/Users' | '/Groups',
    on: {
      list: typeof scim.listUsers;
      get: typeof scim.getUser;
      create: typeof scim.createUser;
      replace: typeof scim.replaceUser;
      patch: typeof scim.patchUser;
      remove: typeof scim.deleteUser;
    },
  ) {
    app.get<List>(path, async (request, reply) =>
      send(reply, 200, await on.list(callerOf(request), request.query, base)),
    );
    app.get<WithId>(`${path}/:id`, async (request, reply) =>
      send(reply, 200, await on.get(callerOf(request), request.params.id, request.query, base)),
    );
    app.post(path, { bodyLimit }, async (request, reply) =>
      send(reply, 201, await on.create(callerOf(request), request.body, write(request))),
    );
    app.put<WithId>(`${path}/:id`, { bodyLimit }, async (request, reply) =>
      send(
        reply,
        200,
        await on.replace(callerOf(request), request.params.id, request.body, write(request)),
      ),
    );
    app.patch<WithId>(`${path}/:id`, { bodyLimit }, async (request, reply) =>
      send(
        reply,
        200,
        await on.patch(callerOf(request), request.params.id, request.body, write(request)),
      ),
    );
    app.delete<WithId>(`${path}/:id`, async (request, reply) => {
      await on.remove(callerOf(request), request.params.id, write(request));
      return reply.status(204).send();
    });
  }

  resource('/Users', {
    list: scim.listUsers,
    get: scim.getUser,
    create: scim.createUser,
    replace: scim.replaceUser,
    patch: scim.patchUser,
    remove: scim.deleteUser,
  });
  resource('/Groups', {
    list: scim.listGroups,
    get: scim.getGroup,
    create: scim.createGroup,
    replace: scim.replaceGroup,
    patch: scim.patchGroup,
    remove: scim.deleteGroup,
  });
}
