import type { FastifyBaseLogger } from 'fastify';

/** Work this process does on its own every so often: retention, mostly. */
export interface PeriodicTask {
  /** Says what failed in the log. */
  name: string;
  everyMs: number;
  run(log: FastifyBaseLogger): Promise<void>;
}

/**
 * Runs each task at once and then every `everyMs`, in this process; a run still going is not
 * started again. The timers never keep the process alive. `stop` clears them and waits for
 * the runs in progress.
 */
export function startPeriodic(tasks: readonly PeriodicTask[], log: FastifyBaseLogger) {
  const timers: NodeJS.Timeout[] = [];
  const running = new Map<PeriodicTask, Promise<void>>();
  const run = (task: PeriodicTask) => {
    if (running.has(task)) return;
    running.set(
      task,
      task
        .run(log)
        .catch((error: unknown) => log.error({ err: error }, `${task.name} failed`))
        .finally(() => running.delete(task)),
    );
  };
  for (const task of tasks) {
    run(task);
    const timer = setInterval(() => run(task), task.everyMs);
    timer.unref();
    timers.push(timer);
  }
  return {
    async stop(): Promise<void> {
      for (const timer of timers) clearInterval(timer);
      await Promise.all(running.values());
    },
  };
}
