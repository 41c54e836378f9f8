import type { ServerResponse } from 'node:http';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorResponse } from '@signpost/contract';
import type { LiveHub } from './live.hub.ts';
import { scopeKeys, type Credential } from './live.types.ts';
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
          200: {
            description: 'The stream',
            content: { 'text/event-stream': { schema: { type: 'string' } } },
          },
          401: ErrorResponse,
          429: ErrorResponse,
          503: ErrorResponse,
        },
      },
      config: { menuScopes: true },
    },
    async (request, reply) => {
      const me = caller(request);
      const credential: Credential = me.sessionId
        ? { kind: 'session', id: me.sessionId }
        : { kind: 'token', id: me.accessTokenId ?? '' };
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
        { userId: me.userId, credential, scopes: scopeKeys(me.menuScopes) },
        counted,
      );
      // The head went out with the first frame; what the response keeps of it is trimmed.
      compactHead(res);
      res.on('close', stream.close);
      // Gone while the stream opened: no close event will come.
      if (res.destroyed || request.raw.destroyed) stream.close();
    },
  );
};
