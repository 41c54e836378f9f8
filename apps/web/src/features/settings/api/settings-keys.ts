import { serverMessage } from '../../../lib/server-message';

/** Query keys of the settings panel; each carries the bearer token, so no data outlives it. */
export const settingsKeys = {
  tokens: (token: string | null) => ['settings', 'tokens', token] as const,
  sessions: (token: string | null) => ['settings', 'sessions', token] as const,
  secondFactor: (token: string | null) => ['settings', 'second-factor', token] as const,
};

/**
 * The text to show for a failed settings call: the server's own message for a refusal
 * (a wrong code, a token that may not do this, too many attempts; decision 0055), else
 * `fallback`.
 */
export function failureText(error: unknown, fallback: string): string {
  return serverMessage(error)?.text ?? fallback;
}
