import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { compile } from '@fastify/proxy-addr';
import {
  LogController,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import fp from 'fastify-plugin';
import type { TrustProxy } from '../config.ts';

export const REQUEST_ID_HEADER = 'x-request-id';

/** What a request id may look like when a proxy gives one: no spaces, quotes or controls. */
const GIVEN_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

/**
 * Whether the connection's peer is a proxy TRUST_PROXY names: only then is its X-Request-Id
 * taken, so that a client cannot write other requests' ids into the log (decision 0064).
 */
export function trustsPeer(trust: TrustProxy): (address: string) => boolean {
  if (trust === false) return () => false;
  // A number of hops: the nearest n hops are proxies, the peer first among them.
  if (typeof trust === 'number') return () => trust > 0;
  const trusted = compile(trust);
  return (address) => trusted(address, 0);
}

/**
 * Fastify's `genReqId`: the trusted proxy's X-Request-Id when it sends a well-formed one,
 * else a new UUID.
 */
export function requestIdFor(trust: TrustProxy) {
  const peerTrusted = trustsPeer(trust);
  return (request: IncomingMessage): string => {
    const given = request.headers[REQUEST_ID_HEADER];
    if (
      typeof given === 'string' &&
      GIVEN_ID.test(given) &&
      peerTrusted(request.socket.remoteAddress ?? '')
    ) {
      return given;
    }
    return randomUUID();
  };
}

/**
 * Fastify's request lines, as Signpost writes them (decision 0064): one JSON line per request,
 * when it is answered: its id (also sent back as X-Request-Id), method, path without the
 * query string (which may carry a one-time code or search words), route, status, time taken
 * in milliseconds, and the signed-in person's id when there is one. Never a header, a token
 * or a body. "incoming request" only at debug level. Fastify's other lines (stream and
 * serializer errors) are kept as they are.
 */
export class RequestLogController extends LogController {
  constructor() {
    super({ requestIdLogLabel: 'requestId' });
  }

  override incomingRequest(request: FastifyRequest): void {
    request.log.debug({ method: request.method, path: pathOf(request.url) }, 'incoming request');
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const line = {
      method: request.method,
      path: pathOf(request.url),
      route: request.routeOptions.url ?? null,
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
      ...(request.authContext ? { userId: request.authContext.userId } : {}),
    };
    // An error here is the answer's own (its stream broke); a route's error has its line
    // from the errors plugin.
    if (error) request.log.error({ ...line, err: error }, 'request');
    else request.log.info(line, 'request');
  }
}

/** Sends every request's id back, errors included. */
export const requestIdPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
  });
});

/** A request's path, without its query string (which may hold one-time codes). */
export function pathOf(url: string): string {
  const at = url.indexOf('?');
  return at === -1 ? url : url.slice(0, at);
}
