import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ServerResponse } from 'node:http';
import type { InteractionResults } from 'oidc-provider';
import { AppError } from '../../lib/errors.ts';
import { loginPage, messagePage } from './demo-idp.pages.ts';
import { CLIENT_ID, MOUNT, type DemoProvider } from './demo-idp.provider.ts';
import type { AuthService } from '../auth/auth.service.ts';
import { checkNewHire } from './new-hires.ts';

export interface SignInFormOptions {
  /** The provider, made at its first use. */
  demo: () => Promise<DemoProvider>;
  /** Whether this person of Signpost is an active demo person. */
  isDemoPerson: (userId: string) => Promise<boolean>;
  /** The password check of signing in with e-mail and password, throttle included. */
  auth: Pick<AuthService, 'checkPassword'>;
}

/**
 * The sign-in form of the demo provider: shown for an interaction of the provider, it checks
 * the e-mail and password (or a new hire's) and hands the account back to the provider.
 */
export async function signInFormRoutes(scope: FastifyInstance, options: SignInFormOptions) {
  const { demo, isDemoPerson, auth } = options;

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
        } = await auth.checkPassword({ email, password, ip: request.ip }));
      } catch (error) {
        const message = error instanceof AppError ? error.message : 'Something went wrong.';
        return html(reply, loginPage(uid, { email, error: message }), 401);
      }
      if (!(await isDemoPerson(userId))) {
        return html(
          reply,
          loginPage(uid, { email, error: 'Only Northwind demo people can sign in here.' }),
          403,
        );
      }
      // A person with a second factor is asked for Signpost's code when the browser comes
      // back to Signpost: this provider checks a password only (decision 0048).
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
}
