import { useCallback, useEffect, useRef, type PointerEvent, type MouseEvent } from 'react';
import { LONG_PRESS_MS } from './constants';

/** A press that moves further than this is a scroll or a drag, not a long press. */
const MOVE_TOLERANCE_PX = 8;

export interface LongPressOptions {
  /**
   * Open on release instead of when the time is up, so that in lists where a held item can
   * also be dragged (touch drag starts after the same delay) a drag never opens the menu.
   */
  onRelease?: boolean;
}

/**
 * Calls `onLongPress` when a pointer is held still on the element for LONG_PRESS_MS. The
 * click that ends a long press is swallowed, so a held link does not also open.
 */
export function useLongPress(
  onLongPress: (() => void) | undefined,
  options: LongPressOptions = {},
) {
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const start = useRef<{ x: number; y: number } | null>(null);
  const held = useRef(false);
  const swallowClick = useRef(false);
  const { onRelease = false } = options;

  const cancel = useCallback(() => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    start.current = null;
  }, []);
  useEffect(() => cancel, [cancel]);

  const onPointerDown = useCallback(
    (event: PointerEvent) => {
      if (!onLongPress || (event.pointerType === 'mouse' && event.button !== 0)) return;
      cancel();
      held.current = false;
      swallowClick.current = false;
      start.current = { x: event.clientX, y: event.clientY };
      timer.current = setTimeout(() => {
        timer.current = null;
        held.current = true;
        swallowClick.current = true;
        if (!onRelease) {
          start.current = null;
          onLongPress();
        }
      }, LONG_PRESS_MS);
    },
    [cancel, onLongPress, onRelease],
  );

  const onPointerMove = useCallback(
    (event: PointerEvent) => {
      const origin = start.current;
      if (!origin) return;
      const moved = Math.hypot(event.clientX - origin.x, event.clientY - origin.y);
      if (moved > MOVE_TOLERANCE_PX) {
        cancel();
        held.current = false;
      }
    },
    [cancel],
  );

  const onPointerUp = useCallback(() => {
    const fire = onRelease && held.current && start.current !== null;
    cancel();
    held.current = false;
    if (fire) onLongPress?.();
  }, [cancel, onLongPress, onRelease]);

  const onClickCapture = useCallback((event: MouseEvent) => {
    if (!swallowClick.current) return;
    swallowClick.current = false;
    event.preventDefault();
    event.stopPropagation();
  }, []);

  const onContextMenu = useCallback(
    (event: MouseEvent) => {
      // Touch browsers raise their own menu on a long press; ours replaces it.
      if (onLongPress && (held.current || timer.current)) event.preventDefault();
    },
    [onLongPress],
  );

  if (!onLongPress) return {};
  return {
    onPointerDown,
    onPointerMove,
    onPointerUp,
    onPointerCancel: cancel,
    onPointerLeave: onRelease ? undefined : cancel,
    onClickCapture,
    onContextMenu,
  };
}
