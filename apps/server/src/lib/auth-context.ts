/** Sessions and tokens are touched at most once a minute, not on every request. */
export const TOUCH_EVERY_MS = 60_000;

/** Who is calling: set by the auth plugin from a live session or personal access token. */
export interface AuthContext {
  /** The sign-in session behind the bearer token; null for a personal access token. */
  sessionId: string | null;
  /** The personal access token used as the bearer; null for a session. */
  accessTokenId: string | null;
  userId: string;
  name: string;
  email: string;
  role: 'member' | 'admin';
  organizationId: string;
  organizationName: string;
  /**
   * The versions of every scope the person's menu is built from (migration 0013,
   * decision 0057), read with the session only for routes that ask for it (the menu and its
   * live updates); null elsewhere.
   */
  menuScopes: string | null;
  /**
   * The version of the organization's people as peer search shows them (`pe:`, decision
   * 0060), read only for routes that ask; null elsewhere.
   */
  peopleVersion: number | null;
  /** Absolute expiry of the session or token; null for a token that never expires. */
  expiresAt: Date | null;
  /**
   * The session's sign-in or last re-authentication was within the last few minutes
   * (decision 0048). Always false for a personal access token.
   */
  recentlyAuthenticated?: boolean;
}
