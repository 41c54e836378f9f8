import type { FastifyInstance } from 'fastify';
import { purgeExpired } from './audit.service.ts';

/** How often expired audit entries are deleted. */
export const PURGE_EVERY_MS = 60 * 60_000;

/**
 * Deletes expired audit entries once the server is ready and then every hour, in this
 * process. The timer never keeps the process alive and stops when the app closes.
 */
export function startAuditRetention(app: FastifyInstance): void {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  const run = () => {
    running ??= purgeExpired(app.database.db)
      .then((deleted) => {
        if (deleted > 0) app.log.info({ deleted }, 'expired audit entries deleted');
      })
      .catch((error: unknown) => app.log.error({ err: error }, 'audit retention failed'))
      .finally(() => {
        running = null;
      });
  };
  app.addHook('onReady', async () => {
    run();
    timer = setInterval(run, PURGE_EVERY_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
    await running;
  });
}
