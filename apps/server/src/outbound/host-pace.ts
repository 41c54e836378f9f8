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
  /** Stops taking new work, and ends the waits between requests (what runs finishes). */
  signal?: AbortSignal;
  /** For tests: the clock and the wait. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** Waits `ms`, or less when `signal` aborts: a round's time running out ends its pauses. */
export const wait = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    timer.unref();
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });

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
        if (index > 0 && intervalMs > 0) await sleep(intervalMs, signal);
        if (signal?.aborted) return;
        await work(item);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(hosts, pending.length)) }, worker));
}

/** What a round takes and works on: an address, by which its host is paced. */
export interface RoundBatches<T> {
  /** Aborts when the round's time is up or the server stops. */
  signal: AbortSignal;
  /** Takes up to `size` due items for this round (and marks them taken). */
  take: (size: number) => Promise<T[]>;
  addressOf: (item: T) => string;
  /** Works on one item; false when the round ended before it was really worked on. */
  work: (item: T) => Promise<boolean>;
  /** After a batch, before what it did not get to is given back. */
  afterBatch?: () => Promise<void>;
  /** Gives back items taken and not worked on. */
  release: (items: T[]) => Promise<void>;
  size: number;
  pace: PaceOptions;
}

/**
 * A round of work on due items (icon rounds, link checks; decisions 0068, 0069, 0082): takes
 * them in batches while its time lasts, works on each batch host by host, and gives back what
 * it took and did not get to. Answers how many it gave back.
 */
export async function runInBatches<T>({
  signal,
  take,
  addressOf,
  work,
  afterBatch,
  release,
  size,
  pace,
}: RoundBatches<T>): Promise<number> {
  let released = 0;
  while (!signal.aborted) {
    const due = await take(size);
    if (due.length === 0) break;
    const done = new Set<T>();
    await runPacedByHost(
      due,
      addressOf,
      async (item) => {
        done.add(item);
        if (!(await work(item))) done.delete(item);
      },
      { ...pace, signal },
    );
    await afterBatch?.();
    const left = due.filter((item) => !done.has(item));
    if (left.length > 0) {
      await release(left);
      released += left.length;
    }
    if (due.length < size) break;
  }
  return released;
}

/**
 * A round's clock: a signal that aborts when `budgetMs` have passed or `stopping` aborts
 * (the server closing). `end` clears it when the round is over.
 */
export function roundClock(budgetMs: number, stopping?: AbortSignal) {
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), budgetMs);
  timer.unref();
  const onAbort = () => stop.abort();
  stopping?.addEventListener('abort', onAbort, { once: true });
  if (stopping?.aborted) stop.abort();
  return {
    signal: stop.signal,
    end() {
      clearTimeout(timer);
      stopping?.removeEventListener('abort', onAbort);
    },
  };
}
