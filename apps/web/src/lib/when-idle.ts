/**
 * Runs `run` when the browser is idle, at the latest after `timeoutMs`; where the browser
 * cannot say (no `requestIdleCallback`), after a short wait. Returns a function that cancels
 * it.
 */
export function whenIdle(run: () => void, timeoutMs: number): () => void {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(run, { timeout: timeoutMs });
    return () => cancelIdleCallback(id);
  }
  const timer = setTimeout(run, 200);
  return () => clearTimeout(timer);
}
