import {
  DIALOG_ANIMATION_MS,
  DIALOG_ANIMATION_SLOW_MS,
  OVERLAY_ENTER_MS,
  OVERLAY_EXIT_MS,
} from './constants';

/** The animation timings of spec §9, as the custom properties the stylesheet reads. */
export const MOTION_PROPERTIES: Record<string, string> = {
  '--overlay-enter': `${OVERLAY_ENTER_MS}ms`,
  '--overlay-exit': `${OVERLAY_EXIT_MS}ms`,
  '--dialog-animation': `${DIALOG_ANIMATION_MS}ms`,
  '--dialog-animation-slow': `${DIALOG_ANIMATION_SLOW_MS}ms`,
};

/** Sets the timings once, at start: the constants are their only source. */
export function applyMotion(style: CSSStyleDeclaration): void {
  for (const [name, value] of Object.entries(MOTION_PROPERTIES)) style.setProperty(name, value);
}

/** True when the person asked for less motion: closing then happens at once. */
export function prefersReducedMotion(): boolean {
  return window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
}
