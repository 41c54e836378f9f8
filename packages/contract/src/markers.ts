// Plain values of the contract, without schemas: what the web app's first screen needs
// (the address fragments it reads, the shared-root id) costs it no schema library. The
// modules of each call re-export them.

/**
 * Why a single sign-on ended on the login screen. The callback redirects the browser to
 * `/#sso-error?code=<CODE>&message=<text>`; the message is written for the person.
 */
export const SSO_ERROR_CODES = [
  /** The person declined at the provider (`error=access_denied`). */
  'SSO_ACCESS_DENIED',
  /** The provider answered the sign-in with another error. */
  'SSO_PROVIDER_ERROR',
  /** The provider could not be reached, or answered what is not OpenID Connect. */
  'SSO_PROVIDER_UNAVAILABLE',
  /** No such provider is configured. */
  'SSO_UNKNOWN_PROVIDER',
  /** The sign-in was not started in this browser, was already used, or took too long. */
  'SSO_STATE_INVALID',
  /** The provider refused the authorization code (already used or expired). */
  'SSO_CODE_REJECTED',
  /** The ID token failed a check: signature, algorithm, issuer, audience or expiry. */
  'SSO_TOKEN_INVALID',
  /** The ID token was not made for this sign-in attempt (nonce). */
  'SSO_NONCE_MISMATCH',
  /** The provider gave no e-mail address, or one it has not verified. */
  'SSO_EMAIL_MISSING',
  /** The e-mail's domain is not allowed for this provider. */
  'SSO_DOMAIN_NOT_ALLOWED',
  /** An account with this e-mail exists and may not be linked to this provider. */
  'SSO_ACCOUNT_EXISTS',
  /** No account has this e-mail, and the organization does not let single sign-on create one. */
  'SSO_NO_ACCOUNT',
  /** The account is disabled. */
  'SSO_ACCOUNT_DISABLED',
  /**
   * A sign-in again, to confirm who the person is before a sensitive change, did not prove
   * it: not fresh, another account at the provider, or a second factor missing (decision 0048).
   */
  'SSO_REAUTHENTICATION_FAILED',
  /** Too many sign-ins started from this address; wait a minute. */
  'SSO_RATE_LIMITED',
  /** The provider's configuration on this server is incomplete. */
  'SSO_MISCONFIGURED',
  /** Anything else; nothing was created. */
  'SSO_FAILED',
] as const;
export type SsoErrorCode = (typeof SSO_ERROR_CODES)[number];

/** The address fragment markers the web app reads after a single sign-on. */
export const SESSION_FRAGMENT = 'session';
/**
 * A single sign-on's session comes back as `#session?token=…&handover=<value>`, and the same
 * value in a short-lived cookie of this origin that the page can read (decision 0080): a link
 * made by anyone else carries no such cookie, so the web app asks before it signs in with it.
 * Over https the cookie's name has the `__Host-` prefix, which no other site can set.
 */
export const SESSION_HANDOVER_PARAM = 'handover';
export const SESSION_HANDOVER_COOKIE = 'signpost_handover';
export const SESSION_HANDOVER_SECURE_COOKIE = `__Host-${SESSION_HANDOVER_COOKIE}`;
/** How long the hand-over cookie lives: the redirect to the portal and its first page. */
export const SESSION_HANDOVER_SECONDS = 120;
export const SSO_ERROR_FRAGMENT = 'sso-error';
/**
 * A single sign-on of a person with a second factor: `#sso-second-factor?ticket=…`; the
 * login screen asks for the code and sends it with the ticket (decision 0048).
 */
export const SSO_SECOND_FACTOR_FRAGMENT = 'sso-second-factor';
/** A single sign-on that re-authenticated the current session: `#reauthenticated`. */
export const REAUTHENTICATED_FRAGMENT = 'reauthenticated';

export const INVITATION_FRAGMENT = 'invitation';

/** The id of the personal space's collection that holds the shares a person takes part in. */
export const SHARED_ROOT_ID = 'shared-root';

/**
 * The headers in which a deletion that can be undone names its undo (decision 0052).
 */
export const UNDO_HEADERS = {
  /** The id of the snapshot, for `POST /undo/{id}`. */
  id: 'signpost-undo-id',
  /** When it can no longer be restored, ISO 8601 (UTC). */
  expires: 'signpost-undo-expires',
} as const;

/** How long after a deletion it can be undone, in seconds. */
export const UNDO_WINDOW_SECONDS = 60;
