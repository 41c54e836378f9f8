import { createHash, randomBytes } from 'node:crypto';
import { INVITATION_FRAGMENT, PEOPLE_LIMITS } from '@signpost/contract';
import type { Config } from '../../config.ts';
import type { MailOutcome } from '../../jobs/queue.ts';
import type { Database, Executor } from '../../db/client.ts';
import { AppError, conflict } from '../../lib/errors.ts';
import { hashPassword } from '../../lib/passwords.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { AuthService } from '../auth/auth.service.ts';
import type { ThrottleService } from '../throttle/throttle.service.ts';
import type { InvitationsRepository } from './invitations.repository.ts';
import { type AuditOrigin } from '../../lib/request-context.ts';

export const hashInvitationToken = (token: string) =>
  createHash('sha256').update(token).digest('hex');

/** One answer for every link that cannot be used, so that a token reveals nothing. */
export const INVITATION_GONE =
  'This invitation link is no longer valid: it was used, it expired or it was replaced. ' +
  'Ask your administrator for a new one.';
const gone = () => new AppError(410, 'GONE', INVITATION_GONE);

/** Accepting with a password, in an organization that signs in with single sign-on only. */
export const SSO_ONLY =
  'Your organization signs in with single sign-on only: use its button on the sign-in ' +
  'screen. Your invitation stays valid for it.';

/** Lookups and accepts allowed per address in the throttle's window. */
const THROTTLE = { max: 30, windowSeconds: 15 * 60 };

/** The link of an invitation: the token travels in the fragment, never to a server. */
export const invitationLink = (config: Config, token: string) =>
  `${config.publicUrl}/#${INVITATION_FRAGMENT}=${token}`;

export interface InvitationsDeps {
  db: Database;
  config: Config;
  invitations: InvitationsRepository;
  throttle: ThrottleService;
  audit: AuditService;
  auth: Pick<AuthService, 'startSession' | 'signedIn'>;
}

export function createInvitationsService({
  db,
  config,
  invitations: repository,
  throttle,
  audit,
  auth,
}: InvitationsDeps) {
  const admit = (ip: string) =>
    throttle.admit(
      [{ key: `invitation:${ip}`, ...THROTTLE, blockSeconds: THROTTLE.windowSeconds }],
      'invitation attempts',
    );

  async function usable(token: string) {
    const invitation = await repository.find(db, hashInvitationToken(token));
    if (!invitation || !invitation.usable) throw gone();
    return invitation;
  }

  return {
    /**
     * Makes a new invitation for a person (revoking any earlier one) in `executor`, and
     * returns its token (256 random bits; only its hash is stored) and link.
     */
    async issue(
      executor: Executor,
      values: {
        organizationId: string;
        userId: string;
        createdBy: string | null;
        /** A mail with the link is to be queued once the transaction commits. */
        mail?: boolean;
      },
    ) {
      const { mail = false, ...rest } = values;
      const token = randomBytes(32).toString('base64url');
      const expiresAt = new Date(Date.now() + PEOPLE_LIMITS.invitationDays * 24 * 3600_000);
      const id = await repository.replace(executor, {
        ...rest,
        tokenHash: hashInvitationToken(token),
        expiresAt,
        mailState: mail ? 'queued' : null,
      });
      return { id, token, expiresAt, link: invitationLink(config, token) };
    },

    /**
     * The mail of an invitation issued with one could not be put on the queue: none goes
     * out, and its link was handed to the administrator instead (decision 0079).
     */
    async mailNotQueued(id: string): Promise<void> {
      await repository.setMailState(db, id, null, 'queued');
    },

    /** What the mail queue's worker found when it tried to send an invitation's mail. */
    async mailOutcome(id: string, outcome: MailOutcome): Promise<void> {
      await repository.setMailState(db, id, outcome);
    },

    /**
     * A person's open invitation for their page in the console: when it was made, until
     * when it works, and what became of its mail (null: none was queued).
     */
    async openOf(organizationId: string, userId: string) {
      const open = await repository.open(db, organizationId, userId);
      if (!open) return null;
      return {
        createdAt: new Date(open.createdAt).toISOString(),
        expiresAt: new Date(open.expiresAt).toISOString(),
        mail: open.mailState,
        mailAt: open.mailStateAt ? new Date(open.mailStateAt).toISOString() : null,
      };
    },

    /** Who an invitation is for, while it can be used; 410 otherwise. */
    async lookup(token: string, ip: string) {
      await admit(ip);
      const invitation = await usable(token);
      return {
        person: { name: invitation.name, email: invitation.email },
        organization: { name: invitation.organizationName },
        expiresAt: new Date(invitation.expiresAt).toISOString(),
      };
    },

    /**
     * Accepts an invitation with a chosen password: the person becomes active and is
     * signed in. Single use: of accepts at once, one wins; the others get 410.
     */
    async accept(input: { token: string; password: string } & Required<AuditOrigin>) {
      await admit(input.ip ?? '');
      const invitation = await usable(input.token);
      if (!invitation.passwordSignIn) {
        // A password would be of no use there; the invitation stays open for single sign-on.
        throw conflict(SSO_ONLY);
      }
      const passwordHash = await hashPassword(input.password, config.argon2);
      return db.transaction(async (tx) => {
        if (!(await repository.use(tx, invitation.id))) throw gone();
        if (!(await repository.activate(tx, invitation.userId, passwordHash))) throw gone();
        await audit.record(tx, {
          organizationId: invitation.organizationId,
          actor: { id: invitation.userId, name: invitation.name, email: invitation.email },
          ip: input.ip,
          userAgent: input.userAgent,
          action: 'person.invitation-accepted',
          target: { type: 'person', id: invitation.userId, label: invitation.email },
          before: { status: 'invited' },
          after: { status: 'active' },
        });
        const session = await auth.startSession(
          tx,
          invitation.userId,
          input.ip ?? '',
          input.userAgent ?? undefined,
        );
        await auth.signedIn(tx, invitation.userId);
        return { token: session.token };
      });
    },
  };
}
export type InvitationsService = ReturnType<typeof createInvitationsService>;
