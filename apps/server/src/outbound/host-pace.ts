/**
 * Runs work on addresses grouped by host (decision 0068): one request at a time to a host,
 * at least `intervalMs` apart, and up to `hosts` hosts at once. A big organization's round
 * then asks any one site at most once per interval, however many of its links point there,
 * while slow sites do not hold up the others.
 */
export interface PaceOptions {
  intervalMs: number;
  /** How many hosts are worked on at once. */
  hosts: number;
  /** Stops taking new work (what runs finishes). */
  signal?: AbortSignal;
  /** For tests: the clock and the wait. */
  sleep?: (ms: number) => Promise<void>;
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/** The host an address is paced by: its host name and port, lower case; '' when none. */
export function hostOf(url: string): string {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return '';
  }
}

export async function runPacedByHost<T>(
  items: readonly T[],
  addressOf: (item: T) => string,
  work: (item: T) => Promise<void>,
  { intervalMs, hosts, signal, sleep = wait }: PaceOptions,
): Promise<void> {
  const queues = new Map<string, T[]>();
  for (const item of items) {
    const host = hostOf(addressOf(item));
    const queue = queues.get(host);
    if (queue) queue.push(item);
    else queues.set(host, [item]);
  }
  const pending = [...queues.values()];
  const worker = async () => {
    for (let queue = pending.shift(); queue; queue = pending.shift()) {
      for (const [index, item] of queue.entries()) {
        if (signal?.aborted) return;
        if (index > 0 && intervalMs > 0) await sleep(intervalMs);
        if (signal?.aborted) return;
        await work(item);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(hosts, pending.length)) }, worker));
}
