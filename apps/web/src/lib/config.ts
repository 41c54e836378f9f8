import { DEFAULT_BRAND } from './constants';

/**
 * Deployment configuration, read at build time from VITE_* variables (the CSP forbids inline
 * scripts, so nothing is injected into the page at run time).
 */
export interface WebConfig {
  /** The product name shown as {brand}. */
  brand: string;
  /** The external feedback form; null hides the link in the feedback dialog. */
  feedbackUrl: string | null;
  /** Where consented tracking events are posted; null keeps the do-nothing sink. */
  trackingUrl: string | null;
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

export const config: WebConfig = {
  brand: text(import.meta.env.VITE_BRAND) ?? DEFAULT_BRAND,
  feedbackUrl: text(import.meta.env.VITE_FEEDBACK_URL),
  trackingUrl: text(import.meta.env.VITE_TRACKING_URL),
};
