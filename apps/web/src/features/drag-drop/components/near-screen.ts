import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useRef,
  useState,
  type RefObject,
} from 'react';

/**
 * How far past its scrolling box an item still counts as near the screen: half the box's
 * height above it and below it. A mouse or a finger only reaches what is shown; the keyboard
 * steps to the next place, which is in this margin, and the box scrolls to it, bringing the
 * places after it near in turn (decision 0083).
 */
export const NEAR_SCREEN_MARGIN = '50% 0px';

/** Tells the items of one grid whether they are near the screen, with one observer for all. */
export interface NearScreen {
  /**
   * Calls `onChange` with whether the element is near the screen: soon after this call, then
   * whenever that changes. Returns the function that stops it.
   */
  observe(element: Element, onChange: (near: boolean) => void): () => void;
  disconnect(): void;
}

/** The closest ancestor that scrolls its content, or null for the page itself. */
function scrollingBoxOf(element: Element): Element | null {
  for (let node = element.parentElement; node; node = node.parentElement) {
    if (node === document.body || node === document.documentElement) return null;
    const { overflowY } = getComputedStyle(node);
    if (overflowY === 'auto' || overflowY === 'scroll' || overflowY === 'overlay') return node;
  }
  return null;
}

/**
 * One IntersectionObserver for a grid's items, made with the first item observed: its root is
 * that item's scrolling box (a margin around the page would not reach past the box's edge,
 * which clips what it holds). Null where the browser has no IntersectionObserver: every item
 * is then near.
 */
export function createNearScreen(margin = NEAR_SCREEN_MARGIN): NearScreen | null {
  if (typeof IntersectionObserver === 'undefined') return null;
  let observer: IntersectionObserver | null = null;
  const listeners = new Map<Element, (near: boolean) => void>();
  return {
    observe(element, onChange) {
      observer ??= new IntersectionObserver(
        (entries) => {
          for (const entry of entries) listeners.get(entry.target)?.(entry.isIntersecting);
        },
        { root: scrollingBoxOf(element), rootMargin: margin },
      );
      listeners.set(element, onChange);
      observer.observe(element);
      return () => {
        listeners.delete(element);
        observer?.unobserve(element);
      };
    },
    disconnect() {
      listeners.clear();
      observer?.disconnect();
      observer = null;
    },
  };
}

/** The grid's NearScreen; null (every item near) outside a grid or without the browser's API. */
export const NearScreenContext = createContext<NearScreen | null>(null);

/**
 * Whether the item whose outermost element `ref` holds is near the screen, so that it takes
 * part in drag and drop. It is near while the observer says so, while focus is in it (a
 * keyboard user can reach any item: focus brings it near before a key can pick it up) and
 * while it is `carried`: an item going far is never dropped from a drag in progress.
 */
export function useNearScreen(ref: RefObject<HTMLElement | null>, carried: boolean): boolean {
  const nearScreen = useContext(NearScreenContext);
  const [near, setNear] = useState(nearScreen === null);
  const state = useRef({ seen: false, focused: false, carried });
  const update = useCallback(() => {
    const { seen, focused, carried: held } = state.current;
    setNear(seen || focused || held);
  }, []);

  useEffect(() => {
    const element = ref.current;
    if (!nearScreen || !element) return;
    const focusIn = () => {
      state.current.focused = true;
      update();
    };
    const focusOut = (event: FocusEvent) => {
      if (event.relatedTarget instanceof Node && element.contains(event.relatedTarget)) return;
      state.current.focused = false;
      update();
    };
    element.addEventListener('focusin', focusIn);
    element.addEventListener('focusout', focusOut);
    const stop = nearScreen.observe(element, (seen) => {
      state.current.seen = seen;
      update();
    });
    return () => {
      stop();
      element.removeEventListener('focusin', focusIn);
      element.removeEventListener('focusout', focusOut);
    };
  }, [nearScreen, ref, update]);

  useEffect(() => {
    if (state.current.carried === carried) return;
    state.current.carried = carried;
    if (nearScreen) update();
  }, [carried, nearScreen, update]);

  return near;
}
