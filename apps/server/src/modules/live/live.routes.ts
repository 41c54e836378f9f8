import type { ServerResponse } from 'node:http';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorResponse, IdParams } from '@signpost/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { LiveHub } from './live.hub.ts';
import { scopeKeys, type Credential } from './live.types.ts';
import type { MenuService } from '../menu/menu.service.ts';
import { adminRoute } from '../../lib/route-schemas.ts';
import { caller } from '../../lib/request-context.ts';

/** The stream's headers: never cached, compressed or buffered on the way (decision 0062). */
const STREAM_HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-store, no-transform',
  // nginx buffers answers unless told not to; other proxies read the content type.
  'X-Accel-Buffering': 'no',
  // The connection ends with the stream (a sign-out, a shutdown): nothing waits on it after.
  Connection: 'close',
};

/** A client's socket error ends its stream through `close`; nothing more to do. */
const ignore = () => {};

/** The last head kept, shared by the streams that open within the same second. */
let lastHead = '';

/**
 * Node keeps the head it sent as `_header`, built by appending every field: a rope of some
 * 70 small strings, about 2 KB a stream. Once sent it is only tested for being there; it is
 * replaced by one flat copy, shared with the previous stream's when equal (the same headers,
 * the same Date).
 */
function compactHead(res: ServerResponse) {
  const raw = res as unknown as { _header?: unknown; _headerSent?: boolean };
  if (typeof raw._header !== 'string' || !raw._headerSent) return;
  if (raw._header !== lastHead) lastHead = Buffer.from(raw._header, 'latin1').toString('latin1');
  raw._header = lastHead;
}

/** The answer of a stream, as the OpenAPI document describes it. */
const STREAM_ANSWER = {
  description: 'The stream',
  content: { 'text/event-stream': { schema: { type: 'string' } } },
};

/**
 * Opens the caller's stream on this request (the limits checked first), hearing their menu's
 * scopes and, with `team`, that team's space, which the caller was found to run.
 */
async function openStream(
  request: FastifyRequest,
  reply: FastifyReply,
  live: LiveHub,
  team?: string,
): Promise<void> {
  const me = caller(request);
  const credential: Credential = me.sessionId
    ? { kind: 'session', id: me.sessionId }
    : { kind: 'token', id: me.accessTokenId ?? '' };
  // This instance's limits, then the caps per session and person across all (decision 0082).
  const counted = await live.admit(me.userId, credential);

  // From here the response is written by hand: no serializer, no onSend hook (so no
  // compression), and the answer never ends by itself.
  reply.hijack();
  const res = reply.raw;
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined) res.setHeader(name, value);
  }
  res.writeHead(200, STREAM_HEADERS);
  res.on('error', ignore);
  const stream = live.open(
    res,
    {
      userId: me.userId,
      credential,
      scopes: scopeKeys(me.menuScopes),
      ...(team ? { team } : {}),
    },
    counted,
  );
  // The head went out with the first frame; what the response keeps of it is trimmed.
  compactHead(res);
  res.on('close', stream.close);
  // Gone while the stream opened: no close event will come.
  if (res.destroyed || request.raw.destroyed) stream.close();
}

export const liveRoutes: FastifyPluginAsyncTypebox<{ live: LiveHub }> = async (app, { live }) => {
  app.get(
    '/menu/events',
    {
      // A HEAD would open a stream without a body to read.
      exposeHeadRoute: false,
      schema: {
        tags: ['consumer'],
        summary: "Live updates of the signed-in person's menu (server-sent events)",
        description:
          'A text/event-stream that stays open. `event: ready` when it opens; `event: menu` ' +
          'when something the menu shows changed (the event says nothing of what: read ' +
          'GET /api/consumer/menu again with If-None-Match); `event: session-ended` before ' +
          'it closes because the session ended (do not reconnect); a comment line every ' +
          '25 s. Any other end: reconnect with back-off. Authenticated with the bearer ' +
          'header like every call (read it with fetch: EventSource cannot send it).',
        security: [{ bearer: [] }],
        response: {
          200: STREAM_ANSWER,
          401: ErrorResponse,
          429: ErrorResponse,
          503: ErrorResponse,
        },
      },
      config: { menuScopes: true },
    },
    async (request, reply) => await openStream(request, reply, live),
  );
};

/**
 * `GET /teams/{id}/space/events` (admin): the stream of the menu for the console's view of a
 * team's space (decision 0077), which also hears that team's space while the caller runs it
 * (an administrator outside the team included).
 */
export const adminTeamSpaceEventsRoutes: FastifyPluginAsyncTypebox<{
  live: LiveHub;
  menu: MenuService;
}> = async (app, { live, menu }) => {
  app.get(
    '/teams/:id/space/events',
    {
      exposeHeadRoute: false,
      schema: {
        ...adminRoute,
        summary: "Live updates of a team's space in the console (server-sent events)",
        description:
          'The frames of GET /api/consumer/menu/events, for what the menu shows and for the ' +
          "team's space: `event: menu` when either changed (read GET /api/admin/teams/{id}/space " +
          'and the menu again). For the people who may read that space: a member who is not an ' +
          'editor gets 403; anyone outside the team but an administrator, 404. Checked again ' +
          "whenever the person's memberships or role change: who no longer runs the team stops " +
          'hearing it (one more `menu`, whose read of the space is then refused).',
        params: IdParams,
        response: {
          200: STREAM_ANSWER,
          400: ErrorResponse,
          401: ErrorResponse,
          403: ErrorResponse,
          404: ErrorResponse,
          429: ErrorResponse,
          503: ErrorResponse,
        },
      },
      config: { menuScopes: true },
    },
    async (request, reply) => {
      await menu.assertRunsTeam(caller(request), request.params.id);
      await openStream(request, reply, live, request.params.id);
    },
  );
};
