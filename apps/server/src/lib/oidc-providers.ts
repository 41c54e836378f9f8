/** One OpenID Connect provider, as configured in OIDC_PROVIDERS or OIDC_PROVIDERS_FILE. */
export interface OidcProviderConfig {
  /** Short name used in addresses: /api/auth/sso/<id>/start. */
  id: string;
  /** Shown on the sign-in button. */
  name: string;
  /** Compared exactly with the issuer of discovery and of every ID token. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The organization people sign into: its id, or its exact name. */
  organization: string;
  /** E-mail domains allowed to sign in (lower case); `['*']` allows every domain. */
  allowedDomains: string[];
  /** Refuse e-mail addresses the provider does not mark `email_verified: true`. */
  requireVerifiedEmail: boolean;
  /** Link an existing account with the same e-mail (decision 0021). */
  linkExistingAccounts: boolean;
  /** Signing out of Signpost also signs out of the provider (RP-initiated logout). */
  logout: boolean;
  scopes: string[];
  /**
   * ID-token `acr` values that mean the provider checked more than one factor (e.g.
   * `["http://schemas.openid.net/pape/policies/2007/06/multi-factor"]`); empty by default.
   * A person with a Signpost second factor signed in with one of them (or with an `amr`
   * that says multi-factor) is not asked for Signpost's code again (decision 0048).
   */
  mfaAcrValues: string[];
}

const KEYS = new Set([
  'id',
  'name',
  'issuer',
  'clientId',
  'clientSecret',
  'organization',
  'allowedDomains',
  'requireVerifiedEmail',
  'linkExistingAccounts',
  'logout',
  'scopes',
  'mfaAcrValues',
]);
const ID = /^[a-z0-9][a-z0-9-]{0,39}$/;
const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** True for an issuer Signpost may talk to: https, or http on this machine only. */
export function isAcceptableIssuer(url: URL): boolean {
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && LOOPBACK.has(url.hostname);
}

function text(where: string, value: unknown, max: number): string {
  if (typeof value !== 'string' || value.trim() === '' || value.length > max) {
    throw new Error(`${where} must be a non-empty text of at most ${max} characters`);
  }
  return value.trim();
}

function flag(where: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') throw new Error(`${where} must be true or false`);
  return value;
}

function provider(raw: unknown, where: string): OidcProviderConfig {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new Error(`${where} must be an object`);
  }
  const entry = raw as Record<string, unknown>;
  for (const key of Object.keys(entry)) {
    if (!KEYS.has(key)) {
      throw new Error(`${where} has an unknown setting "${key}"; known: ${[...KEYS].join(', ')}`);
    }
  }
  const id = text(`${where}.id`, entry.id, 40);
  if (!ID.test(id)) {
    throw new Error(`${where}.id must be lower-case letters, digits and dashes; got "${id}"`);
  }
  const issuerText = text(`${where}.issuer`, entry.issuer, 500);
  let issuer: URL;
  try {
    issuer = new URL(issuerText);
  } catch {
    throw new Error(`${where}.issuer is not a URL; got "${issuerText}"`);
  }
  if (!isAcceptableIssuer(issuer) || issuer.search || issuer.hash) {
    throw new Error(
      `${where}.issuer must be an https:// URL without query (http:// only on localhost); got "${issuerText}"`,
    );
  }
  const domains = entry.allowedDomains;
  if (!Array.isArray(domains) || domains.length === 0) {
    throw new Error(
      `${where}.allowedDomains must list the e-mail domains allowed to sign in, or be ["*"] for any`,
    );
  }
  const allowedDomains = domains.map((d, i) => {
    const domain = typeof d === 'string' ? d.trim().toLowerCase().replace(/^@/, '') : '';
    if (domain !== '*' && !DOMAIN.test(domain)) {
      throw new Error(`${where}.allowedDomains[${i}] is not a domain; got ${JSON.stringify(d)}`);
    }
    return domain;
  });
  if (allowedDomains.includes('*') && allowedDomains.length > 1) {
    throw new Error(`${where}.allowedDomains is either ["*"] or a list of domains, not both`);
  }
  const scopes = entry.scopes ?? ['openid', 'email', 'profile'];
  if (
    !Array.isArray(scopes) ||
    !scopes.every((s) => typeof s === 'string' && /^[\x21\x23-\x5b\x5d-\x7e]+$/.test(s)) ||
    !scopes.includes('openid')
  ) {
    throw new Error(`${where}.scopes must be a list of scopes that includes "openid"`);
  }
  const linkExistingAccounts = flag(
    `${where}.linkExistingAccounts`,
    entry.linkExistingAccounts,
    false,
  );
  if (linkExistingAccounts && allowedDomains.includes('*')) {
    throw new Error(
      `${where}.linkExistingAccounts needs allowedDomains to name the domains the provider is trusted for`,
    );
  }
  const acr = entry.mfaAcrValues ?? [];
  if (
    !Array.isArray(acr) ||
    !acr.every((v) => typeof v === 'string' && v.trim() !== '' && v.length <= 500)
  ) {
    throw new Error(`${where}.mfaAcrValues must be a list of acr values (texts)`);
  }
  return {
    id,
    name: text(`${where}.name`, entry.name, 100),
    // The exact text, so that a trailing slash stays as the provider publishes it.
    issuer: issuerText,
    clientId: text(`${where}.clientId`, entry.clientId, 500),
    clientSecret: text(`${where}.clientSecret`, entry.clientSecret, 2000),
    organization: text(`${where}.organization`, entry.organization, 200),
    allowedDomains,
    requireVerifiedEmail: flag(`${where}.requireVerifiedEmail`, entry.requireVerifiedEmail, true),
    linkExistingAccounts,
    logout: flag(`${where}.logout`, entry.logout, false),
    scopes: scopes as string[],
    mfaAcrValues: (acr as string[]).map((v) => v.trim()),
  };
}

/** Parses the JSON list of providers; throws with one sentence naming the bad setting. */
export function parseOidcProviders(json: string, source: string): OidcProviderConfig[] {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch (error) {
    throw new Error(`${source} is not valid JSON: ${(error as Error).message}`, {
      cause: error,
    });
  }
  if (!Array.isArray(raw)) throw new Error(`${source} must be a JSON list of providers`);
  const providers = raw.map((entry, i) => provider(entry, `${source}[${i}]`));
  const seen = new Set<string>();
  for (const p of providers) {
    if (seen.has(p.id)) throw new Error(`${source} names the provider id "${p.id}" twice`);
    seen.add(p.id);
  }
  return providers;
}
