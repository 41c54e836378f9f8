import { useEffect } from 'react';

/** The User Timing mark set once per page load when the portal's menu is first painted. */
export const MENU_PAINTED_MARK = 'signpost:menu-painted';

let marked = false;

/**
 * Marks the first paint of the menu: after the render that shows it is committed, the next
 * animation frame runs just before that frame is painted, and a task queued from it runs
 * after the paint. The mark is set there, once per page load, for the performance benchmark
 * and for anyone watching the page with the browser's performance tools; `afterPaint` runs
 * right after it.
 */
export function useMenuPaintedMark(ready: boolean, afterPaint?: () => void) {
  useEffect(() => {
    if (!ready || marked || typeof performance.mark !== 'function') return;
    marked = true;
    requestAnimationFrame(() => {
      setTimeout(() => {
        performance.mark(MENU_PAINTED_MARK);
        afterPaint?.();
      }, 0);
    });
  }, [ready, afterPaint]);
}

/** For tests: allows the next render to mark again. */
export function resetMenuPaintedMark() {
  marked = false;
}
