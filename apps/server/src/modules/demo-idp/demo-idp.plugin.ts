import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { AuthService } from '../auth/auth.service.ts';
import type { SsoService } from '../sso/sso.service.ts';
import type { DemoIdpService } from './demo-idp.service.ts';
import { CLIENT_ID, createDemoProvider, MOUNT, type DemoProvider } from './demo-idp.provider.ts';
import { injectFetch } from './inject-fetch.ts';
import { findNewHireBySub } from './new-hires.ts';
import { signInFormRoutes } from './sign-in-form.routes.ts';

export const DEMO_PROVIDER_ID = 'northwind-demo';
export const DEMO_PROVIDER_NAME = 'Northwind SSO (demo)';

/**
 * A small OpenID provider (oidc-provider) inside the server at /demo-idp, whose accounts
 * are the demo people, so that the demo offers a working single sign-on button. It is
 * mounted only with demo data on, no provider configured, and the demo organization
 * present; its keys, client secret and sessions live in this process's memory.
 */
export async function demoIdpPlugin(
  app: FastifyInstance,
  {
    demoIdp,
    sso,
    auth,
  }: {
    demoIdp: DemoIdpService;
    sso: Pick<SsoService, 'addProvider'>;
    auth: Pick<AuthService, 'checkPassword'>;
  },
) {
  const found = await demoIdp.findDemoOrganization();
  if (!found) return;
  const organizationId: string = found;
  const { publicUrl } = app.config;
  const issuer = `${publicUrl}${MOUNT}`;
  const clientSecret = randomBytes(32).toString('base64url');

  // The provider is made at its first use, so that the server starts without loading it.
  let created: Promise<DemoProvider> | null = null;
  const demo = () =>
    (created ??= createDemoProvider({
      issuer,
      publicUrl,
      providerId: DEMO_PROVIDER_ID,
      clientSecret,
      // Only its own links' scheme and host come from the proxy; addresses are not used.
      trustProxy: app.config.trustProxy !== false,
      findAccount: async (sub) => {
        const hire = findNewHireBySub(sub);
        if (hire) return { id: hire.sub, email: hire.email, name: hire.name, groups: hire.groups };
        return demoIdp.findDemoPerson(organizationId, sub);
      },
    }));

  /** Passes a request to the provider, which sees paths without the /demo-idp prefix. */
  async function forward(request: FastifyRequest, reply: FastifyReply) {
    const { handle } = await demo();
    reply.hijack();
    const raw = request.raw as IncomingMessage & { originalUrl?: string };
    raw.originalUrl = raw.url;
    raw.url = (raw.url ?? '/').slice(MOUNT.length) || '/';
    await handle(raw, reply.raw);
  }

  // The provider's own endpoints read their bodies themselves.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    scope.route({
      method: ['GET', 'POST', 'OPTIONS'],
      url: `${MOUNT}/*`,
      schema: { hide: true },
      handler: forward,
    });
  });

  await app.register(signInFormRoutes, {
    demo,
    auth,
    isDemoPerson: async (userId) => (await demoIdp.findDemoPerson(organizationId, userId)) !== null,
  });

  sso.addProvider({
    id: DEMO_PROVIDER_ID,
    name: DEMO_PROVIDER_NAME,
    issuer,
    clientId: CLIENT_ID,
    clientSecret,
    organization: organizationId,
    allowedDomains: ['example.com'],
    requireVerifiedEmail: true,
    // The demo people have password accounts; this provider vouches for them.
    linkExistingAccounts: true,
    logout: true,
    scopes: ['openid', 'email', 'profile'],
    // It checks a password only (its ID tokens carry no amr): a person with a second
    // factor is asked for Signpost's code after it (decision 0048).
    mfaAcrValues: [],
    fetch: injectFetch(app, publicUrl),
    // Its requests never leave the process (see injectFetch).
    allowHttp: true,
  });
}
