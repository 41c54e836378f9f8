import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { logoutPage, messagePage } from './demo-idp.pages.ts';

/** Where the demo provider is mounted; it sees its own paths without this prefix. */
export const MOUNT = '/demo-idp';
/** Signpost, the provider's one client. */
export const CLIENT_ID = 'signpost-demo';

/** Who the provider signs in: a demo person or a new hire, by subject. */
export interface DemoAccount {
  id: string;
  email: string;
  name: string;
  /** The groups claim; absent for the demo people, whose teams the demo data made. */
  groups?: string[];
}

export interface DemoProviderOptions {
  issuer: string;
  publicUrl: string;
  providerId: string;
  clientSecret: string;
  trustProxy: boolean;
  findAccount: (sub: string) => Promise<DemoAccount | null>;
}

/**
 * The OpenID provider itself (oidc-provider): one client, a signing key and cookie keys of
 * this process only, PKCE required, and the demo's own pages for sign-out and errors.
 * Loaded on demand, so that a demo that never uses single sign-on never pays for it.
 */
export async function createDemoProvider(options: DemoProviderOptions) {
  const { issuer, publicUrl, providerId, clientSecret } = options;
  const { default: Provider } = await import('oidc-provider');
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: clientSecret,
        client_name: 'Signpost',
        redirect_uris: [`${publicUrl}/api/auth/sso/${providerId}/callback`],
        post_logout_redirect_uris: [`${publicUrl}/`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    // A signing key of this process only: the demo's sessions end when it restarts anyway.
    jwks: {
      keys: [
        {
          ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
            format: 'jwk',
          }),
          kid: 'demo',
          alg: 'RS256',
          use: 'sig',
        },
      ],
    },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    // `groups` with the subject: the ID token carries it without a scope to ask for.
    claims: { openid: ['sub', 'groups'], email: ['email', 'email_verified'], profile: ['name'] },
    // The ID token carries the e-mail and name itself.
    conformIdTokenClaims: false,
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: (ctx, form) => {
          ctx.type = 'html';
          ctx.body = logoutPage(form);
        },
        postLogoutSuccessSource: (ctx) => {
          ctx.type = 'html';
          ctx.body = messagePage('Signed out', 'You are signed out of Northwind SSO.');
        },
      },
    },
    pkce: { required: () => true },
    ttl: {
      AuthorizationCode: 60,
      AccessToken: 600,
      IdToken: 3600,
      Interaction: 600,
      Session: 8 * 3600,
      Grant: 8 * 3600,
    },
    interactions: { url: (_ctx, interaction) => `${MOUNT}/interaction/${interaction.uid}` },
    renderError: (ctx, out) => {
      ctx.type = 'html';
      ctx.body = messagePage('Sign-in problem', String(out.error_description ?? out.error));
    },
    findAccount: async (_ctx, sub) => {
      const person = await options.findAccount(sub);
      if (!person) return undefined;
      return {
        accountId: person.id,
        claims: () => ({
          sub: person.id,
          email: person.email,
          email_verified: true,
          name: person.name,
          // New hires carry their department groups; the demo people none (no claim).
          ...(person.groups ? { groups: person.groups } : {}),
        }),
      };
    },
  });
  provider.proxy = options.trustProxy;
  return { provider, handle: provider.callback() };
}

export type DemoProvider = Awaited<ReturnType<typeof createDemoProvider>>;
