// The setup both single sign-on test files share: a real provider on a loopback port with
// one client per configured provider, the app configured with them, and helpers that
// assert a failed sign-in left nothing behind.
import { randomBytes } from 'node:crypto';
import { afterEach, expect } from 'vitest';
import type { Database } from '../../src/db/client.ts';
import { createTestApp } from '../app.ts';
import { countRows, createOrganization } from '../factories.ts';
import { ssoErrorOf } from './sso-browser.ts';
import { closedPort, startTestProvider, type TestAccount } from './sso-provider.ts';

/**
 * A real provider on a loopback port with one client per configured provider, and the
 * settings that configure Signpost with them (`PUBLIC_URL`, `OIDC_PROVIDERS`): for the app
 * (`setUpSso`) and for the single sign-on service's own tests.
 */
export async function ssoProviders() {
  const PUBLIC_URL = 'http://signpost.test';
  const callbackOf = (id: string) => `${PUBLIC_URL}/api/auth/sso/${id}/callback`;

  const idp = await startTestProvider([
    { clientId: 'signpost', clientSecret: 'secret-one', redirectUri: callbackOf('acme') },
    { clientId: 'signpost-link', clientSecret: 'secret-two', redirectUri: callbackOf('acme-link') },
    { clientId: 'signpost-loose', clientSecret: 'secret-3', redirectUri: callbackOf('acme-loose') },
    { clientId: 'signpost-lost', clientSecret: 'secret-4', redirectUri: callbackOf('lost') },
  ]);
  const base = {
    issuer: idp.issuer,
    organization: 'Acme',
    allowedDomains: ['acme.test'],
  };
  const downPort = await closedPort();
  const env = {
    PUBLIC_URL,
    OIDC_PROVIDERS: JSON.stringify([
      {
        ...base,
        id: 'acme',
        name: 'Acme SSO',
        clientId: 'signpost',
        clientSecret: 'secret-one',
        logout: true,
      },
      {
        ...base,
        id: 'acme-link',
        name: 'Acme Trusted',
        clientId: 'signpost-link',
        clientSecret: 'secret-two',
        linkExistingAccounts: true,
        mfaAcrValues: ['urn:acme:mfa'],
      },
      {
        ...base,
        id: 'acme-loose',
        name: 'Acme Loose',
        clientId: 'signpost-loose',
        clientSecret: 'secret-3',
        linkExistingAccounts: true,
        requireVerifiedEmail: false,
      },
      {
        ...base,
        id: 'lost',
        name: 'Lost SSO',
        clientId: 'signpost-lost',
        clientSecret: 'secret-4',
        organization: 'No Such Organization',
      },
      {
        id: 'down',
        name: 'Down SSO',
        issuer: `http://127.0.0.1:${downPort}`,
        clientId: 'x',
        clientSecret: 'y',
        organization: 'Acme',
        allowedDomains: ['*'],
      },
    ]),
  };
  return { idp, env, PUBLIC_URL, callbackOf };
}

/** Everything a sign-in could leave behind for this account. */
export async function signInTraces(db: Database, who: { sub: string; email?: string }) {
  return {
    users: who.email ? await countRows(db, 'users', { column: 'email', value: who.email }) : 0,
    identities: await countRows(db, 'identities', { column: 'subject', value: who.sub }),
    sessions: await countRows(db, 'sessions'),
  };
}

export async function setUpSso() {
  const { idp, env, PUBLIC_URL, callbackOf } = await ssoProviders();
  const { app, db } = await createTestApp(env);
  const org = await createOrganization(db, { name: 'Acme' });

  let n = 0;
  function person(overrides: Partial<TestAccount> = {}): TestAccount & { email: string } {
    n += 1;
    const tag = randomBytes(3).toString('hex');
    return {
      sub: `subject-${n}-${tag}`,
      email: `person${n}-${tag}@acme.test`,
      email_verified: true,
      name: `Person ${n}`,
      ...overrides,
    } as TestAccount & { email: string };
  }

  const traces = (who: { sub: string; email?: string }) => signInTraces(db, who);

  /** Asserts a failed sign-in: the login screen with this code, and nothing created. */
  async function expectFailure(
    who: { sub: string; email?: string },
    run: () => Promise<string>,
    code: string,
    message: RegExp,
  ) {
    const before = await traces(who);
    const location = await run();
    const error = ssoErrorOf(location);
    expect(error, location).not.toBeNull();
    expect(error?.code).toBe(code);
    expect(error?.message).toMatch(message);
    expect(error?.message).not.toMatch(/\bat \w+ \(|Error:|undefined/);
    expect(await traces(who)).toEqual({ ...before, users: 0, identities: 0 });
    expect((await traces(who)).sessions).toBe(before.sessions);
    return error;
  }

  const me = (token: string) =>
    app.inject({
      method: 'GET',
      url: '/api/auth/sessions/current',
      headers: { authorization: `Bearer ${token}` },
    });

  afterEach(() => {
    idp.tokenEndpoint = null;
    idp.nextLogin = 'deny';
  });

  return { PUBLIC_URL, callbackOf, idp, app, db, org, person, expectFailure, me };
}
