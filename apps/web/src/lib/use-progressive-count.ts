import { startTransition, useEffect, useState } from 'react';

/** Items rendered at once when a long list opens: more than a large screen shows. */
export const PROGRESSIVE_FIRST = 60;
/** Items added per step after that, each step in its own task. */
export const PROGRESSIVE_STEP = 60;

/**
 * How many items of a long list to render now. The first PROGRESSIVE_FIRST render at once;
 * the rest follow PROGRESSIVE_STEP at a time, each step a low-priority update in a task of
 * its own, so that opening a panel of hundreds of tiles never blocks the page for long and
 * the first screenful shows without waiting for the rest. Short lists render whole.
 */
export function useProgressiveCount(
  total: number,
  first = PROGRESSIVE_FIRST,
  step = PROGRESSIVE_STEP,
) {
  const [count, setCount] = useState(() => Math.min(total, first));
  useEffect(() => {
    if (count >= total) return;
    const timer = setTimeout(() => {
      startTransition(() => setCount((shown) => Math.min(total, shown + step)));
    }, 0);
    return () => clearTimeout(timer);
  }, [count, total, step]);
  return Math.min(count, total);
}
