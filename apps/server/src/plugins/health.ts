import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { sql } from 'drizzle-orm';
import { selectRows } from '../db/client.ts';
import { MIGRATIONS_DIR, sqlFiles } from '../db/migrate.ts';

/** How long /readyz waits for the database before it says it does not answer. */
export const READY_CHECK_MS = 2000;

export interface Health {
  /** From now on /readyz answers 503: the instance is about to stop (decision 0064). */
  drain(): void;
  readonly draining: boolean;
}

type Readiness = { ready: true } | { ready: false; reason: string };

/**
 * `GET /healthz`: the process is alive and its event loop turns; it asks nothing of the
 * database, so that a database outage never gets every instance restarted.
 * `GET /readyz`: this instance should get requests: the database answers, every migration
 * this version knows is applied, and it is not shutting down. Both outside `/api`, never
 * cached, and not written to the request log unless they fail (decision 0064).
 */
export const healthPlugin = fp(async (app: FastifyInstance) => {
  const expected = await sqlFiles(MIGRATIONS_DIR);
  let draining = false;
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  const health: Health = {
    drain: () => {
      draining = true;
    },
    get draining() {
      return draining;
    },
  };
  app.decorate('health', health);

  async function readiness(): Promise<Readiness> {
    if (draining || closing) return { ready: false, reason: 'shutting down' };
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), READY_CHECK_MS);
    });
    try {
      const rows = await Promise.race([
        selectRows<{ name: string }>(app.database.db, sql`SELECT name FROM schema_migrations`),
        late,
      ]);
      if (rows === 'late') {
        return { ready: false, reason: `the database did not answer within ${READY_CHECK_MS} ms` };
      }
      const applied = new Set(rows.map((row) => row.name));
      const missing = expected.filter((name) => !applied.has(name));
      if (missing.length > 0) {
        return { ready: false, reason: `migrations not applied: ${missing.join(', ')}` };
      }
      return { ready: true };
    } catch {
      return { ready: false, reason: 'the database does not answer' };
    } finally {
      clearTimeout(timer);
    }
  }

  const probe = (reply: FastifyReply) => reply.header('Cache-Control', 'no-store');
  // Probes come every few seconds from every balancer: logged only when they fail.
  const quiet = { logLevel: 'warn' as const, schema: { hide: true } };

  app.get('/healthz', quiet, async (_request, reply) => {
    probe(reply);
    return { status: 'ok' };
  });

  app.get('/readyz', quiet, async (request, reply) => {
    probe(reply);
    const state = await readiness();
    if (state.ready) return { status: 'ready' };
    request.log.warn({ reason: state.reason }, 'not ready');
    return reply.status(503).send({ status: 'unavailable', reason: state.reason });
  });
});

declare module 'fastify' {
  interface FastifyInstance {
    health: Health;
  }
}
