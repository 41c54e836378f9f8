import { useEffect, useRef, type RefObject } from 'react';

/**
 * Closes a popup (the space info, a panel's header menu) as people expect: Escape closes it,
 * and so does a press outside `area` (the popup with the button that opens it). Escape is
 * taken before anything else sees it, so a popup inside a dialog closes alone and the dialog
 * stays open (decision 0056). When focus was inside, it goes back to `toggle`.
 */
export function useDismiss(
  open: boolean,
  onDismiss: () => void,
  area: RefObject<HTMLElement | null>,
  toggle?: RefObject<HTMLElement | null>,
) {
  const dismiss = useRef(onDismiss);
  useEffect(() => {
    dismiss.current = onDismiss;
  });
  useEffect(() => {
    if (!open) return undefined;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      event.preventDefault();
      event.stopPropagation();
      const hadFocus = area.current?.contains(document.activeElement) ?? false;
      dismiss.current();
      if (hadFocus) toggle?.current?.focus();
    };
    const onPointerDown = (event: PointerEvent) => {
      if (event.target instanceof Node && area.current?.contains(event.target)) return;
      dismiss.current();
    };
    document.addEventListener('keydown', onKeyDown, true);
    document.addEventListener('pointerdown', onPointerDown, true);
    return () => {
      document.removeEventListener('keydown', onKeyDown, true);
      document.removeEventListener('pointerdown', onPointerDown, true);
    };
  }, [open, area, toggle]);
}
