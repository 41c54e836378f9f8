import type { SsoErrorCode } from '@signpost/contract';

/** A single sign-on that ends on the login screen with this code and message. */
export class SsoFailure extends Error {
  /** Set when the provider vouched for the person: the refusal goes to the audit log. */
  refusal?: { organizationId: string; person: { id: string; label: string } | null };

  constructor(
    readonly code: SsoErrorCode,
    message: string,
    /** Why, for the log only; never shown to the person. */
    readonly detail?: string,
  ) {
    super(message);
  }
}

const TRY_AGAIN = 'Try again, or sign in another way.';

export const ssoFailures = {
  reauthentication: (message: string, detail?: string) =>
    new SsoFailure('SSO_REAUTHENTICATION_FAILED', message, detail),
  unknownProvider: () =>
    new SsoFailure('SSO_UNKNOWN_PROVIDER', 'This single sign-on is not set up here.'),
  unavailable: (provider: string, detail?: string) =>
    new SsoFailure(
      'SSO_PROVIDER_UNAVAILABLE',
      `${provider} cannot be reached right now. Try again in a moment, or sign in another way.`,
      detail,
    ),
  denied: (provider: string) =>
    new SsoFailure(
      'SSO_ACCESS_DENIED',
      `Signing in with ${provider} was cancelled. Nothing was shared with Signpost.`,
    ),
  providerError: (provider: string, detail?: string) =>
    new SsoFailure(
      'SSO_PROVIDER_ERROR',
      `${provider} could not complete the sign-in. ${TRY_AGAIN}`,
      detail,
    ),
  state: (detail: string) =>
    new SsoFailure(
      'SSO_STATE_INVALID',
      `This sign-in link has expired or was already used, or it was started in another browser. ${TRY_AGAIN}`,
      detail,
    ),
  codeRejected: (provider: string, detail?: string) =>
    new SsoFailure(
      'SSO_CODE_REJECTED',
      `${provider} did not accept this sign-in (it may have been used already). ${TRY_AGAIN}`,
      detail,
    ),
  token: (provider: string, why: string, detail?: string) =>
    new SsoFailure(
      'SSO_TOKEN_INVALID',
      `The sign-in answer from ${provider} could not be trusted (${why}). ${TRY_AGAIN}`,
      detail,
    ),
  nonce: (provider: string) =>
    new SsoFailure(
      'SSO_NONCE_MISMATCH',
      `The sign-in answer from ${provider} was not made for this sign-in. ${TRY_AGAIN}`,
    ),
  emailMissing: (provider: string, why: string) =>
    new SsoFailure(
      'SSO_EMAIL_MISSING',
      `${provider} did not give ${why}, which Signpost needs to sign you in.`,
    ),
  domain: (provider: string, domain: string) =>
    new SsoFailure(
      'SSO_DOMAIN_NOT_ALLOWED',
      `Addresses at ${domain} cannot sign in with ${provider}. Use your work account.`,
    ),
  accountExists: (provider: string) =>
    new SsoFailure(
      'SSO_ACCOUNT_EXISTS',
      `An account with this e-mail already exists. Sign in with your e-mail and password; it cannot be joined to ${provider} automatically.`,
    ),
  noAccount: (domain: string) =>
    new SsoFailure(
      'SSO_NO_ACCOUNT',
      `There is no account for this e-mail, and single sign-on does not create accounts for addresses at ${domain}. Ask your administrator to invite you.`,
    ),
  disabled: () =>
    new SsoFailure(
      'SSO_ACCOUNT_DISABLED',
      'Your account is disabled. Ask your administrator to enable it.',
    ),
  rateLimited: (seconds: number) =>
    new SsoFailure(
      'SSO_RATE_LIMITED',
      `Too many sign-ins were started from your address. Try again in ${seconds} seconds.`,
    ),
  misconfigured: (provider: string, detail: string) =>
    new SsoFailure(
      'SSO_MISCONFIGURED',
      `Signing in with ${provider} is not set up completely on this server. Tell your administrator.`,
      detail,
    ),
  failed: (detail: string) =>
    new SsoFailure('SSO_FAILED', `The sign-in did not work. ${TRY_AGAIN}`, detail),
};

function findInCauses(error: unknown, key: string): unknown {
  let current: unknown = error;
  for (let depth = 0; current && typeof current === 'object' && depth < 6; depth += 1) {
    const value = (current as Record<string, unknown>)[key];
    if (value !== undefined) return value;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Every message along the chain of causes, for telling failures apart. */
function messagesOf(error: unknown): string {
  const messages: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current && typeof current === 'object' && depth < 6; depth += 1) {
    const { message } = current as { message?: unknown };
    if (typeof message === 'string') messages.push(message);
    current = (current as { cause?: unknown }).cause;
  }
  return messages.join(' | ');
}

/** Turns what openid-client throws during the code exchange into a failure for the person. */
export function classifyOidcError(error: unknown, provider: string): SsoFailure {
  if (error instanceof SsoFailure) return error;
  const e = error as { name?: string; code?: string; error?: string; message?: string };
  const detail = `${e.code ?? e.name ?? 'Error'}: ${e.message ?? String(error)}`;
  // The token endpoint answered with an OAuth error (RFC 6749 §5.2).
  if (typeof e.error === 'string') {
    return e.error === 'invalid_grant'
      ? ssoFailures.codeRejected(provider, detail)
      : ssoFailures.providerError(provider, detail);
  }
  if (
    e.name === 'TimeoutError' ||
    e.name === 'AbortError' ||
    (error instanceof TypeError && /fetch failed|network/i.test(e.message ?? '')) ||
    e.code === 'OAUTH_RESPONSE_IS_NOT_CONFORM' ||
    e.code === 'OAUTH_RESPONSE_IS_NOT_JSON'
  ) {
    return ssoFailures.unavailable(provider, detail);
  }
  if (e.code === 'OAUTH_JWT_CLAIM_COMPARISON_FAILED') {
    const claim = findInCauses(error, 'claim');
    if (claim === 'nonce') return ssoFailures.nonce(provider);
    if (claim === 'iss') return ssoFailures.token(provider, 'wrong issuer', detail);
    if (claim === 'aud' || claim === 'azp') {
      return ssoFailures.token(provider, 'wrong audience', detail);
    }
    return ssoFailures.token(provider, `unexpected ${String(claim ?? 'claim')}`, detail);
  }
  if (e.code === 'OAUTH_JWT_TIMESTAMP_CHECK_FAILED') {
    return ssoFailures.token(provider, 'expired or not yet valid', detail);
  }
  const message = messagesOf(error);
  if (/alg/i.test(message)) return ssoFailures.token(provider, 'signing algorithm refused', detail);
  if (/signature/i.test(message)) return ssoFailures.token(provider, 'bad signature', detail);
  if (e.code?.startsWith('OAUTH_') || e.code?.startsWith('ERR_J')) {
    return ssoFailures.token(provider, 'malformed', detail);
  }
  return ssoFailures.failed(detail);
}
