import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { LiveHub } from './live.hub.ts';
import { createListener } from './live.listener.ts';
import { createLiveRepository } from './live.repository.ts';

/**
 * A write that may have ended sessions: any answered write of the auth or administration API
 * but a sign-in (signing out, revoking a session or token, a password or second-factor
 * change, disabling a person). The streams of this instance check their sessions at once;
 * other instances find out at their next periodic check.
 */
function mayEndSessions(request: FastifyRequest, reply: FastifyReply): boolean {
  if (request.method === 'GET' || request.method === 'HEAD' || request.method === 'OPTIONS') {
    return false;
  }
  if (reply.statusCode < 200 || reply.statusCode >= 300) return false;
  const route = request.routeOptions.url ?? '';
  if (request.method === 'POST' && route === '/api/auth/sessions') return false;
  return route.startsWith('/api/auth/') || route.startsWith('/api/admin/');
}

/**
 * Live updates of the menu (decision 0062): the hub of this instance, fed by the database's
 * announcements (LISTEN on PostgreSQL, PGlite's own listen on the embedded database).
 */
export const livePlugin = fp(async (app: FastifyInstance) => {
  const hub = new LiveHub(
    createLiveRepository(app.database.db, app.config.sessionIdleMinutes),
    app.config.live,
    app.log,
  );
  const listener = createListener(
    app.database,
    { notification: (payload) => hub.handle(payload), resync: () => hub.resync() },
    app.log,
  );
  app.decorate('live', hub);
  app.addHook('onReady', async () => {
    hub.start();
    await listener.start();
  });
  // Before the server stops accepting and waits for its connections: open streams would
  // otherwise hold the shutdown until its limit (decision 0050).
  app.addHook('preClose', async () => hub.close());
  app.addHook('onClose', async () => listener.stop());
  app.addHook('onResponse', async (request, reply) => {
    if (mayEndSessions(request, reply)) hub.checkSessionsSoon();
  });
});

declare module 'fastify' {
  interface FastifyInstance {
    live: LiveHub;
  }
}
