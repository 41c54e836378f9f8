// A real OpenID Connect provider (oidc-provider) on a loopback port, for the single sign-on
// tests (the browser that walks a sign-in through it is in sso-browser.ts).
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWTPayload } from 'jose';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import { afterAll } from 'vitest';

export interface TestAccount {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
  given_name?: string;
  family_name?: string;
  preferred_username?: string;
  /** How the provider says it signed the person in (RFC 8176), e.g. ['pwd', 'otp']. */
  amr?: string[];
  /** The authentication context class of the sign-in. */
  acr?: string;
  /** The person's groups, in whatever shape the test plays (a list, one string, …). */
  groups?: unknown;
  /** Microsoft Entra ID's overage indicator: the claims left out, and where to find them. */
  _claim_names?: Record<string, string>;
  hasgroups?: boolean;
}

export interface TestClient {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}

/** Rewrites the token endpoint's JSON answer, as a provider under test control would. */
type TokenTamper = (body: Record<string, unknown>) => Promise<Record<string, unknown>>;

export interface TestProvider {
  issuer: string;
  /** Who signs in at the next interaction; 'deny' declines consent (access_denied). */
  nextLogin: TestAccount | 'deny';
  /**
   * When set, the token endpoint's answer passes through this function before it leaves the
   * provider. This is how the tests play a provider that misbehaves: the real provider
   * issues a real token, then the test re-signs it with the provider's own key after
   * changing one claim (audience, issuer, expiry, nonce), or replaces it with an unsigned
   * `alg: none` token, or breaks its signature. 'down' answers 503 instead.
   */
  tokenEndpoint: TokenTamper | 'down' | null;
  /** Signs claims with the provider's real key (kid test-key, RS256). */
  sign(claims: JWTPayload): Promise<string>;
  stop(): Promise<void>;
}

export const decodeJwt = (jwt: string): Record<string, unknown> =>
  JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString()) as Record<
    string,
    unknown
  >;

/** An unsigned token: header `{"alg":"none"}` and an empty signature. */
export function unsignedJwt(claims: Record<string, unknown>): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'none', typ: 'JWT' })}.${part(claims)}.`;
}

function readBody(res: ServerResponse, transform: (text: string) => Promise<string>) {
  const end = res.end.bind(res) as (chunk?: unknown) => ServerResponse;
  res.end = ((chunk?: unknown) => {
    const text = chunk === undefined || typeof chunk === 'function' ? '' : String(chunk);
    void transform(text).then((out) => {
      res.setHeader('content-length', Buffer.byteLength(out));
      end(out);
    });
    return res;
  }) as typeof res.end;
}

export async function startTestProvider(clients: TestClient[]): Promise<TestProvider> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  const accounts = new Map<string, TestAccount>();
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const provider = new Provider(issuer, {
    clients: clients.map((c) => ({
      client_id: c.clientId,
      client_secret: c.clientSecret,
      redirect_uris: [c.redirectUri],
      post_logout_redirect_uris: [new URL('/', c.redirectUri).href],
      grant_types: ['authorization_code'],
      response_types: ['code'],
    })),
    jwks: { keys: [jwk] },
    cookies: { keys: ['test-provider-cookie-key'] },
    claims: {
      // How the person signed in, in every ID token, for the rules of decision 0048.
      openid: ['sub', 'acr', 'amr', 'auth_time', 'groups', '_claim_names', 'hasgroups'],
      email: ['email', 'email_verified'],
      profile: ['name', 'given_name', 'family_name', 'preferred_username'],
      amr: null,
    },
    acrValues: ['urn:acme:mfa', 'urn:acme:password'],
    features: { devInteractions: { enabled: false }, rpInitiatedLogout: { enabled: true } },
    pkce: { required: () => true },
    ttl: {
      AuthorizationCode: 60,
      AccessToken: 600,
      IdToken: 3600,
      Interaction: 600,
      Session: 8 * 3600,
      Grant: 8 * 3600,
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx, sub) => ({
      accountId: sub,
      claims: () => {
        const { amr: _amr, acr: _acr, ...claims } = accounts.get(sub) ?? { sub };
        return { ...claims, sub };
      },
    }),
  });
  const handle = provider.callback();

  const state: TestProvider = {
    issuer,
    nextLogin: 'deny',
    tokenEndpoint: null,
    sign: (claims) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256', kid: 'test-key' })
        .sign(privateKey as CryptoKey),
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };

  async function interaction(req: IncomingMessage, res: ServerResponse) {
    const details = await provider.interactionDetails(req, res);
    const who = state.nextLogin;
    if (who === 'deny') {
      await provider.interactionFinished(
        req,
        res,
        { error: 'access_denied', error_description: 'End-User aborted interaction' },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    accounts.set(who.sub, who);
    const grant = new provider.Grant({
      accountId: who.sub,
      clientId: String(details.params.client_id),
    });
    grant.addOIDCScope(String(details.params.scope));
    const grantId = await grant.save();
    await provider.interactionFinished(
      req,
      res,
      {
        login: {
          accountId: who.sub,
          ...(who.amr ? { amr: who.amr } : {}),
          ...(who.acr ? { acr: who.acr } : {}),
        },
        consent: { grantId },
      },
      { mergeWithLastSubmission: false },
    );
  }

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (req.url?.startsWith('/interaction/')) {
      interaction(req, res).catch(() => {
        res.statusCode = 500;
        res.end();
      });
      return;
    }
    const tamper = state.tokenEndpoint;
    if (req.method === 'POST' && req.url?.startsWith('/token') && tamper) {
      if (tamper === 'down') {
        res.statusCode = 503;
        res.setHeader('content-type', 'text/html');
        res.end('<h1>Service Unavailable</h1>');
        return;
      }
      readBody(res, async (text) => {
        const body = JSON.parse(text) as Record<string, unknown>;
        return body.id_token ? JSON.stringify(await tamper(body)) : text;
      });
    }
    void handle(req, res);
  });

  afterAll(() => state.stop());
  return state;
}

/** A free loopback port that nothing listens on: a provider that is down. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
