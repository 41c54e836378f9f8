import { and, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { InteractionResults } from 'oidc-provider';
import type { CustomFetch } from 'openid-client';
import { DEMO_EMAIL } from '../../db/seed/demo.ts';
import { ORGANIZATION_NAME } from '../../db/seed/demo-data.ts';
import { organizations, users } from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';
import { loginPage, logoutPage, messagePage } from './demo-idp.pages.ts';
import { checkNewHire, findNewHireBySub } from './new-hires.ts';

export const DEMO_PROVIDER_ID = 'northwind-demo';
export const DEMO_PROVIDER_NAME = 'Northwind SSO (demo)';
const MOUNT = '/demo-idp';
const CLIENT_ID = 'signpost-demo';

/** The demo organization and its demo person, when the demo data is in this database. */
async function findDemoOrganization(app: FastifyInstance): Promise<string | null> {
  const rows = await app.database.db
    .select({ id: organizations.id })
    .from(organizations)
    .innerJoin(users, eq(users.organizationId, organizations.id))
    .where(and(eq(organizations.name, ORGANIZATION_NAME), eq(users.email, DEMO_EMAIL)))
    .limit(1);
  return rows[0]?.id ?? null;
}

/**
 * A small OpenID provider (oidc-provider) inside the server at /demo-idp, whose accounts
 * are the demo people, so that the demo offers a working single sign-on button. It is
 * mounted only with demo data on, no provider configured, and the demo organization
 * present; its keys, client secret and sessions live in this process's memory.
 */
export async function demoIdpPlugin(app: FastifyInstance) {
  const found = await findDemoOrganization(app);
  if (!found) return;
  const organizationId: string = found;
  const { publicUrl } = app.config;
  const issuer = `${publicUrl}${MOUNT}`;
  const clientSecret = randomBytes(32).toString('base64url');

  /** An active person of the demo organization. */
  async function findDemoPerson(userId: string) {
    const rows = await app.database.db
      .select({ id: users.id, email: users.email, name: users.name })
      .from(users)
      .where(
        and(
          eq(users.id, userId),
          eq(users.organizationId, organizationId),
          eq(users.status, 'active'),
        ),
      )
      .limit(1);
    return rows[0] ?? null;
  }

  /**
   * The provider is made at its first use, so that the server starts without loading it
   * and a demo that never uses single sign-on never pays for it.
   */
  async function createProvider() {
    const { default: Provider } = await import('oidc-provider');
    const provider = new Provider(issuer, {
      clients: [
        {
          client_id: CLIENT_ID,
          client_secret: clientSecret,
          client_name: 'Signpost',
          redirect_uris: [`${publicUrl}/api/auth/sso/${DEMO_PROVIDER_ID}/callback`],
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
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
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
        const person = findNewHireBySub(sub) ?? (await findDemoPerson(sub));
        if (!person) return undefined;
        const id = 'sub' in person ? person.sub : person.id;
        return {
          accountId: id,
          claims: () => ({
            sub: id,
            email: person.email,
            email_verified: true,
            name: person.name,
          }),
        };
      },
    });
    provider.proxy = app.config.trustProxy;
    return { provider, handle: provider.callback() };
  }
  let created: ReturnType<typeof createProvider> | null = null;
  const demo = () => (created ??= createProvider());

  /** Passes a request to the provider, which sees paths without the /demo-idp prefix. */
  async function forward(request: FastifyRequest, reply: FastifyReply) {
    const { handle } = await demo();
    reply.hijack();
    const raw = request.raw as IncomingMessage & { originalUrl?: string };
    raw.originalUrl = raw.url;
    raw.url = (raw.url ?? '/').slice(MOUNT.length) || '/';
    await handle(raw, reply.raw);
  }

  async function finish(request: FastifyRequest, reply: FastifyReply, result: InteractionResults) {
    const { provider } = await demo();
    reply.hijack();
    await provider.interactionFinished(request.raw, reply.raw as ServerResponse, result, {
      mergeWithLastSubmission: false,
    });
  }

  /** Signs the account in at the provider and sends the browser back to Signpost. */
  async function grantAndFinish(
    request: FastifyRequest,
    reply: FastifyReply,
    details: { params: Record<string, unknown> },
    accountId: string,
  ) {
    const { provider } = await demo();
    const grant = new provider.Grant({ accountId, clientId: CLIENT_ID });
    grant.addOIDCScope(String(details.params.scope ?? 'openid'));
    const grantId = await grant.save();
    await finish(request, reply, { login: { accountId }, consent: { grantId } });
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

  // The sign-in form of the demo provider.
  await app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 4096 },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );
    const html = (reply: FastifyReply, body: string, status = 200) =>
      reply
        .status(status)
        .header('Cache-Control', 'no-store')
        .type('text/html; charset=utf-8')
        .send(body);

    scope.get<{ Params: { uid: string } }>(
      `${MOUNT}/interaction/:uid`,
      { schema: { hide: true } },
      async (request, reply) => {
        try {
          const { provider } = await demo();
          await provider.interactionDetails(request.raw, reply.raw);
        } catch {
          return html(reply, messagePage('Sign-in expired', 'Start again from Signpost.'), 400);
        }
        return html(reply, loginPage(request.params.uid));
      },
    );

    scope.post<{ Params: { uid: string }; Body: Record<string, string> }>(
      `${MOUNT}/interaction/:uid/login`,
      { schema: { hide: true } },
      async (request, reply) => {
        const { uid } = request.params;
        const email = String(request.body?.email ?? '').slice(0, 320);
        const password = String(request.body?.password ?? '').slice(0, 128);
        let details;
        try {
          const { provider } = await demo();
          details = await provider.interactionDetails(request.raw, reply.raw);
        } catch {
          return html(reply, messagePage('Sign-in expired', 'Start again from Signpost.'), 400);
        }
        // A new hire exists only here: their first sign-in creates them in Signpost.
        const hire = checkNewHire(email, password);
        if (hire) return grantAndFinish(request, reply, details, hire.sub);
        let userId: string;
        try {
          // The same check, throttle included, as signing in with e-mail and password.
          ({
            user: { id: userId },
          } = await app.auth.checkPassword({ email, password, ip: request.ip }));
        } catch (error) {
          const message = error instanceof AppError ? error.message : 'Something went wrong.';
          return html(reply, loginPage(uid, { email, error: message }), 401);
        }
        if (!(await findDemoPerson(userId))) {
          return html(
            reply,
            loginPage(uid, { email, error: 'Only Northwind demo people can sign in here.' }),
            403,
          );
        }
        // The provider must not become a way around a person's second factor.
        if (await app.auth.secondFactor.isEnabled(userId)) {
          return html(
            reply,
            loginPage(uid, {
              email,
              error:
                'This account has a second factor: sign in with e-mail and password in Signpost.',
            }),
            403,
          );
        }
        return grantAndFinish(request, reply, details, userId);
      },
    );

    scope.post<{ Params: { uid: string } }>(
      `${MOUNT}/interaction/:uid/abort`,
      { schema: { hide: true } },
      async (request, reply) =>
        finish(request, reply, {
          error: 'access_denied',
          error_description: 'The person cancelled the sign-in.',
        }),
    );
  });

  app.sso.addProvider({
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
    fetch: injectFetch(app, publicUrl),
    // Its requests never leave the process (see injectFetch).
    allowHttp: true,
  });
}

/**
 * The server reaches its own demo provider without the network: requests go through
 * `inject`, with the Host of the public address, so it works whatever address it listens on.
 */
function injectFetch(app: FastifyInstance, publicUrl: string): CustomFetch {
  const origin = new URL(publicUrl);
  return async (url, options) => {
    const target = new URL(url);
    if (target.origin !== origin.origin || !target.pathname.startsWith(MOUNT)) {
      throw new TypeError(`fetch failed: the demo provider does not reach ${target.origin}`);
    }
    const headers = Object.fromEntries(
      new Headers(options.headers as ConstructorParameters<typeof Headers>[0]),
    );
    const response = await app.inject({
      method: options.method as 'GET' | 'POST',
      url: `${target.pathname}${target.search}`,
      headers: {
        ...headers,
        host: origin.host,
        ...(origin.protocol === 'https:' ? { 'x-forwarded-proto': 'https' } : {}),
      },
      ...(options.body !== undefined && options.body !== null
        ? { payload: String(options.body) }
        : {}),
    });
    const out = new Headers();
    for (const [name, value] of Object.entries(response.headers)) {
      if (value === undefined) continue;
      for (const v of Array.isArray(value) ? value : [value]) out.append(name, String(v));
    }
    const empty = response.statusCode === 204 || response.statusCode === 304;
    return new Response(empty ? null : response.rawPayload, {
      status: response.statusCode,
      headers: out,
    });
  };
}
