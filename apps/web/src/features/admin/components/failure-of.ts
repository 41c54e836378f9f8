import { errorMessage, ApiError } from '../../../lib/api-client';

/**
 * The server's sentence for a refusal, else a general one. Its own module, so that the
 * teams tab, its detail and its members can all use it without importing one another.
 */
export function failureOf(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.status < 500) return errorMessage(error.data) ?? fallback;
  return fallback;
}
