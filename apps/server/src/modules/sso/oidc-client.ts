import * as client from 'openid-client';
import { isAcceptableIssuer, type OidcProviderConfig } from '../../lib/oidc-providers.ts';
import { classifyOidcError, ssoFailures } from './sso-errors.ts';

/** A provider as the server uses it; the demo provider brings its own fetch. */
export interface SsoProvider extends OidcProviderConfig {
  /** How to reach the provider from the server; the global fetch when absent. */
  fetch?: client.CustomFetch;
  /** Plain http allowed whatever the host (the demo provider, reached in-process). */
  allowHttp?: boolean;
}

const DISCOVERY_TTL_MS = 60 * 60_000;
const TIMEOUT_SECONDS = 5;

/**
 * client_secret_basic, the default of OAuth 2.0, unless the provider says it supports only
 * client_secret_post.
 */
function secretAuth(secret: string): client.ClientAuth {
  const basic = client.ClientSecretBasic(secret);
  const post = client.ClientSecretPost(secret);
  return (as, metadata, body, headers) => {
    const methods = as.token_endpoint_auth_methods_supported;
    const usePost = Array.isArray(methods) && !methods.includes('client_secret_basic');
    (usePost ? post : basic)(as, metadata, body, headers);
  };
}

/**
 * Discovery documents, cached per provider for an hour. A provider that is down is asked
 * again at the next sign-in, not remembered as down.
 */
export class OidcClients {
  private readonly cache = new Map<string, { at: number; config: Promise<client.Configuration> }>();

  async configuration(provider: SsoProvider): Promise<client.Configuration> {
    const cached = this.cache.get(provider.id);
    if (cached && Date.now() - cached.at < DISCOVERY_TTL_MS) return cached.config;
    const config = this.discover(provider);
    this.cache.set(provider.id, { at: Date.now(), config });
    try {
      return await config;
    } catch (error) {
      this.cache.delete(provider.id);
      throw error;
    }
  }

  private async discover(provider: SsoProvider): Promise<client.Configuration> {
    const issuer = new URL(provider.issuer);
    const insecure =
      issuer.protocol === 'http:' && (provider.allowHttp === true || isAcceptableIssuer(issuer));
    try {
      const config = await client.discovery(
        issuer,
        provider.clientId,
        // An ID token signed any other way (or not at all: alg "none") is refused.
        { id_token_signed_response_alg: 'RS256' },
        secretAuth(provider.clientSecret),
        {
          timeout: TIMEOUT_SECONDS,
          ...(provider.fetch ? { [client.customFetch]: provider.fetch } : {}),
          // Plain http only for a provider on this machine (tests and the demo).
          execute: insecure ? [client.allowInsecureRequests] : [],
        },
      );
      config.timeout = TIMEOUT_SECONDS;
      if (provider.fetch) config[client.customFetch] = provider.fetch;
      // Check the signature of ID tokens from the token endpoint too, against the
      // provider's published keys, rather than trusting the TLS channel alone.
      client.enableNonRepudiationChecks(config);
      return config;
    } catch (error) {
      const failure = classifyOidcError(error, provider.name);
      throw failure.code === 'SSO_PROVIDER_UNAVAILABLE'
        ? failure
        : ssoFailures.unavailable(provider.name, `discovery: ${failure.detail ?? failure.message}`);
    }
  }

  forget(providerId: string) {
    this.cache.delete(providerId);
  }
}
