import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

const keycloak = {
  id: 'keycloak',
  name: 'Acme Keycloak',
  issuer: 'https://sso.acme.example/realms/acme',
  clientId: 'signpost',
  clientSecret: 's3cret',
  organization: 'Acme',
  allowedDomains: ['acme.example', '@Acme.Example.org'],
};
const load = (providers: unknown) => loadConfig({ OIDC_PROVIDERS: JSON.stringify(providers) });

describe('single sign-on configuration', () => {
  it('has no providers and the local public address by default', () => {
    const config = loadConfig({ PORT: '8080' });
    expect(config.oidcProviders).toEqual([]);
    expect(config.publicUrl).toBe('http://localhost:8080');
  });

  it('reads providers with their defaults', () => {
    const config = load([keycloak]);
    expect(config.oidcProviders).toEqual([
      {
        ...keycloak,
        allowedDomains: ['acme.example', 'acme.example.org'],
        requireVerifiedEmail: true,
        linkExistingAccounts: false,
        logout: false,
        scopes: ['openid', 'email', 'profile'],
        mfaAcrValues: [],
      },
    ]);
  });

  it('reads the acr values that mean multi-factor', () => {
    const acr = 'http://schemas.openid.net/pape/policies/2007/06/multi-factor';
    expect(
      load([{ ...keycloak, mfaAcrValues: [` ${acr} `] }]).oidcProviders[0]?.mfaAcrValues,
    ).toEqual([acr]);
  });

  it('reads them from a file too', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'signpost-oidc-'));
    const file = path.join(dir, 'providers.json');
    writeFileSync(
      file,
      JSON.stringify([{ ...keycloak, logout: true, linkExistingAccounts: true }]),
    );
    const config = loadConfig({ OIDC_PROVIDERS_FILE: file });
    expect(config.oidcProviders[0]).toMatchObject({
      id: 'keycloak',
      logout: true,
      linkExistingAccounts: true,
    });
  });

  it('reads PUBLIC_URL as an origin', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://links.acme.example/' }).publicUrl).toBe(
      'https://links.acme.example',
    );
  });

  it.each([
    [{ OIDC_PROVIDERS: '{not json' }, /OIDC_PROVIDERS is not valid JSON/],
    [{ OIDC_PROVIDERS: '{}' }, /OIDC_PROVIDERS must be a JSON list of providers/],
    [
      { OIDC_PROVIDERS_FILE: '/nonexistent/providers.json' },
      /OIDC_PROVIDERS_FILE cannot be read: ENOENT/,
    ],
    [{ OIDC_PROVIDERS: '[]', OIDC_PROVIDERS_FILE: 'x' }, /not both/],
    [{ PUBLIC_URL: 'links.example' }, /PUBLIC_URL is not a URL/],
    [
      { PUBLIC_URL: 'https://links.example/portal' },
      /PUBLIC_URL must be an http:\/\/ or https:\/\/ origin/,
    ],
    [{ PUBLIC_URL: 'ftp://links.example' }, /PUBLIC_URL must be/],
  ])('refuses %j with one clear sentence', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it.each([
    [{ ...keycloak, issuer: 'http://sso.acme.example' }, /\[0\]\.issuer must be an https:\/\/ URL/],
    [{ ...keycloak, issuer: 'not a url' }, /\[0\]\.issuer is not a URL/],
    [{ ...keycloak, issuer: 'https://sso.acme.example/?x=1' }, /\[0\]\.issuer must be an https/],
    [{ ...keycloak, id: 'Bad Id' }, /\[0\]\.id must be lower-case letters/],
    [{ ...keycloak, clientSecret: '' }, /\[0\]\.clientSecret must be a non-empty text/],
    [{ ...keycloak, organization: undefined }, /\[0\]\.organization must be a non-empty text/],
    [{ ...keycloak, allowedDomains: [] }, /\[0\]\.allowedDomains must list the e-mail domains/],
    [
      { ...keycloak, allowedDomains: ['not a domain'] },
      /\[0\]\.allowedDomains\[0\] is not a domain/,
    ],
    [{ ...keycloak, allowedDomains: ['*', 'acme.example'] }, /either \["\*"\] or a list/],
    [
      { ...keycloak, allowedDomains: ['*'], linkExistingAccounts: true },
      /linkExistingAccounts needs allowedDomains/,
    ],
    [{ ...keycloak, logout: 'yes' }, /\[0\]\.logout must be true or false/],
    [{ ...keycloak, scopes: ['email'] }, /scopes must be a list of scopes that includes "openid"/],
    [{ ...keycloak, clientID: 'typo' }, /\[0\] has an unknown setting "clientID"/],
    [{ ...keycloak, mfaAcrValues: 'mfa' }, /\[0\]\.mfaAcrValues must be a list of acr values/],
    [{ ...keycloak, mfaAcrValues: [''] }, /\[0\]\.mfaAcrValues must be a list of acr values/],
  ])('refuses a bad provider: %j', (provider, message) => {
    expect(() => load([provider])).toThrow(ConfigError);
    expect(() => load([provider])).toThrow(message);
  });

  it('refuses the same provider id twice', () => {
    expect(() => load([keycloak, keycloak])).toThrow(/names the provider id "keycloak" twice/);
  });

  it('allows plain http only for a provider on this machine', () => {
    for (const issuer of ['http://localhost:8080/realms/dev', 'http://127.0.0.1:9000']) {
      expect(load([{ ...keycloak, issuer }]).oidcProviders[0]?.issuer).toBe(issuer);
    }
  });
});
