import type { FastifyInstance } from 'fastify';

/**
 * Runs `work` once the server is ready and then every `everyMs`, in this process; a run
 * still going is not started again. The timer never keeps the process alive and stops when
 * the app closes (after the run in progress). Failures are logged as `failure`.
 */
export function startPeriodic(
  app: FastifyInstance,
  everyMs: number,
  work: () => Promise<void>,
  failure: string,
): void {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  const run = () => {
    running ??= work()
      .catch((error: unknown) => app.log.error({ err: error }, failure))
      .finally(() => {
        running = null;
      });
  };
  app.addHook('onReady', async () => {
    run();
    timer = setInterval(run, everyMs);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
    await running;
  });
}
