import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { LiveHub } from './live.hub.ts';

/**
 * A write that may have ended sessions: any answered write of the auth or administration API
 * but a sign-in (signing out, revoking a session or token, a password or second-factor
 * change, disabling a person, by the console or by SCIM). The streams of this instance check their sessions at once;
 * other instances find out at their next periodic check.
 */
function mayEndSessions(request: FastifyRequest, reply: FastifyReply): boolean {
  if (request.method === 'GET' || request.method === 'HEAD' || request.method === 'OPTIONS') {
    return false;
  }
  if (reply.statusCode < 200 || reply.statusCode >= 300) return false;
  const route = request.routeOptions.url ?? '';
  if (request.method === 'POST' && route === '/api/auth/sessions') return false;
  return (
    route.startsWith('/api/auth/') || route.startsWith('/api/admin/') || route.startsWith('/scim/')
  );
}

/**
 * Live updates of the menu (decision 0062): after a write that may have ended sessions, the
 * streams of this instance check theirs at once. The hub itself is built by the root.
 */
export const liveHooks = fp(async (app: FastifyInstance, { live }: { live: LiveHub }) => {
  app.addHook('onResponse', async (request, reply) => {
    if (mayEndSessions(request, reply)) live.checkSessionsSoon();
  });
});
