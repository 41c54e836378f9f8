import { createHash, randomBytes } from 'node:crypto';
import type { ChangePasswordBody, ReauthenticateBody } from '@signpost/contract';
import type { Config } from '../../config.ts';
import type { Database, Executor } from '../../db/client.ts';
import { TOUCH_EVERY_MS, type AuthContext } from '../../lib/auth-context.ts';
import {
  AppError,
  badRequest,
  conflict,
  forbidden,
  notFound,
  unauthorized,
} from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { isAccessToken, type AccessTokensService } from '../access-tokens/access-tokens.service.ts';
import { isScimToken } from '../scim/scim.service.ts';
import { auditOf, type AuditService } from '../audit/audit.service.ts';
import type { SecondFactorService } from '../second-factor/second-factor.service.ts';
import type { ThrottleService } from '../throttle/throttle.service.ts';
import { hashPassword, PasswordVerifier } from '../../lib/passwords.ts';
import type { SessionsRepository } from './sessions.repository.ts';
import { describeUserAgent } from './user-agent.ts';
import { type AuditOrigin } from '../../lib/request-context.ts';

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export interface PasswordCheckInput {
  email: string;
  password: string;
  ip: string;
}

export interface LoginInput extends PasswordCheckInput {
  userAgent: string | undefined;
  totp?: string | undefined;
  recoveryCode?: string | undefined;
}

export interface AuthDeps {
  db: Database;
  config: Config;
  sessions: SessionsRepository;
  accessTokens: Pick<AccessTokensService, 'authenticate' | 'refusal' | 'revokeAll'>;
  throttle: ThrottleService;
  secondFactor: Pick<SecondFactorService, 'check'>;
  audit: AuditService;
}

export function createAuthService({
  db,
  config,
  sessions,
  accessTokens: tokens,
  throttle,
  secondFactor,
  audit,
}: AuthDeps) {
  const verifier = new PasswordVerifier(config.argon2);
  const limits = config.login;
  const idle = config.sessionIdleMinutes;

  const throttleKeys = (account: string, ip: string) => ({
    pair: `pair:${account}|${ip}`,
    address: `ip:${ip}`,
    account: `account:${account}`,
  });

  const limitsFor = (keys: ReturnType<typeof throttleKeys>) => {
    const window = limits.windowSeconds;
    return [
      {
        key: keys.pair,
        max: limits.maxPerAccountAndAddress,
        windowSeconds: window,
        blockSeconds: window,
      },
      { key: keys.address, max: limits.maxPerAddress, windowSeconds: window, blockSeconds: window },
      {
        key: keys.account,
        max: limits.maxPerAccount,
        windowSeconds: window,
        blockSeconds: limits.accountBlockSeconds,
      },
    ];
  };

  /** Counts an attempt (see `admit`), or throws 429 while any of its keys is blocked. */
  const admitAttempt = (keys: ReturnType<typeof throttleKeys>) =>
    throttle.admit(limitsFor(keys), 'sign-in attempts');

  /**
   * Opens a session (in `executor`, so that it can join a larger transaction) and returns
   * the token and the session id.
   */
  async function startSession(
    executor: Executor,
    userId: string,
    ip: string,
    userAgent: string | undefined,
    sso?: { providerId: string; idToken: string },
  ) {
    // 256 random bits; only the hash is stored.
    const token = randomBytes(32).toString('base64url');
    const sessionId = newId();
    await sessions.insert(executor, {
      id: sessionId,
      userId,
      tokenHash: hashToken(token),
      expiresAt: new Date(Date.now() + config.sessionAbsoluteHours * 3600_000),
      ip,
      userAgent: userAgent?.slice(0, 500) ?? null,
    });
    // A session opened by single sign-on keeps its provider and ID token, for logging out there.
    if (sso) await sessions.insertSso(executor, { sessionId, ...sso });
    return { token, sessionId };
  }

  async function openSession(userId: string, ip: string, userAgent: string | undefined) {
    return (await startSession(db, userId, ip, userAgent)).token;
  }

  /**
   * Checks e-mail and password under the sign-in throttle, leaving the attempt counted:
   * the caller settles it once the whole sign-in has succeeded. Throws 429 (blocked) or 401
   * (wrong e-mail or password, the same answer for both).
   */
  async function verifyPassword(input: PasswordCheckInput & { userAgent?: string | undefined }) {
    const account = input.email.trim().toLowerCase();
    const keys = throttleKeys(account, input.ip);
    // Counted before the slow check, so attempts sent at once cannot pass the limit together.
    await admitAttempt(keys);
    const user = await sessions.findUserByEmail(db, account);
    const ok = await verifier.verify(user?.passwordHash ?? null, input.password);
    if (ok && user && user.status === 'active') return { user, keys };
    // Only a known person's failures are audited, in their organization: an unknown e-mail
    // belongs to no organization (decision 0045). Blocked attempts never get here.
    if (user) await signInFailed(user, input, ok ? `account ${user.status}` : 'wrong password');
    throw new AppError(401, 'INVALID_CREDENTIALS', 'The e-mail or password is not correct.');
  }

  type KnownPerson = { id: string; name: string; email: string; organizationId: string };

  /** A refused sign-in of a known person, in the audit log, with the way it was tried. */
  async function signInFailed(
    user: KnownPerson,
    input: { email: string; ip: string; userAgent?: string | undefined },
    reason: string,
    method: 'password' | 'sso' = 'password',
  ) {
    await audit.record(db, {
      organizationId: user.organizationId,
      actor: { id: null, email: input.email.trim().slice(0, 320) },
      action: 'sign-in.failed',
      target: { type: 'person', id: user.id, label: user.email },
      details: { method, reason },
      ip: input.ip,
      userAgent: input.userAgent?.slice(0, 500) ?? null,
    });
  }

  /**
   * Notes a successful sign-in on the person (`users.last_sign_in_at`). Every way of signing
   * in calls it, in the transaction that opens the session.
   */
  async function signedIn(executor: Executor, userId: string): Promise<void> {
    await sessions.markSignedIn(executor, userId);
  }

  /** An event of a signed-in person about themself (sign-out, password, sessions). */
  const ownEvent = auditOf;

  /** A sign-in succeeded: its attempt is no failure, and this address starts afresh. */
  async function settle(keys: ReturnType<typeof throttleKeys>) {
    await throttle.forgive([keys.address, keys.account]);
    await throttle.clear(keys.pair);
  }

  /**
   * Whether an e-mail and password would sign in now: an active person whose organization
   * allows password sign-in, and whose stored password is that one. Nothing is counted or
   * recorded: it is the server's own question (the start banner's demo sign-in), not an
   * attempt to sign in.
   */
  async function passwordSignsIn(email: string, password: string): Promise<boolean> {
    const user = await sessions.findUserByEmail(db, email.trim().toLowerCase());
    if (!user || user.status !== 'active' || !user.passwordSignIn || !user.passwordHash) {
      return false;
    }
    return verifier.verify(user.passwordHash, password);
  }

  /** A complete password check, for sign-ins that have no second step. */
  async function checkPassword(input: PasswordCheckInput) {
    const result = await verifyPassword(input);
    await settle(result.keys);
    return result;
  }

  /** Stamps the caller's session as recently authenticated, in the audit log too. */
  async function markReauthenticated(
    me: Pick<AuthContext, 'sessionId' | 'userId' | 'name' | 'email' | 'organizationId'>,
    origin: AuditOrigin,
    details: Record<string, string | boolean>,
  ) {
    const sessionId = me.sessionId;
    if (!sessionId) throw forbidden('An access token cannot confirm who you are.');
    await db.transaction(async (tx) => {
      if (!(await sessions.markReauthenticated(tx, sessionId, me.userId))) {
        throw new AppError(401, 'UNAUTHORIZED', 'Your session has ended. Sign in again.');
      }
      await audit.record(tx, {
        organizationId: me.organizationId,
        actor: { id: me.userId, name: me.name, email: me.email },
        ip: origin.ip ?? null,
        userAgent: origin.userAgent ?? null,
        action: 'session.reauthenticated',
        target: { type: 'session', id: sessionId, label: me.email },
        details,
      });
    });
  }

  /**
   * The throttle of sign-in for an account at an address, for sign-ins that check their
   * second step elsewhere (single sign-on's code): `admit` counts an attempt or throws 429,
   * `settle` forgives it once the sign-in succeeded.
   */
  const signInThrottle = (email: string, ip: string) => {
    const keys = throttleKeys(email.trim().toLowerCase(), ip);
    return {
      admit: () => admitAttempt(keys),
      settle: () => settle(keys),
    };
  };

  return {
    openSession,
    startSession,
    signedIn,
    checkPassword,
    passwordSignsIn,
    signInThrottle,
    signInFailed,

    /**
     * Re-authenticates the caller's session with the password, and the second factor when
     * it is on (decision 0048): the session counts as recently authenticated from now.
     * Throttled per person like sign-in; a wrong password or code is 400, never 401 (the
     * web app takes every 401 for a lost session).
     */
    async reauthenticate(me: AuthContext, body: ReauthenticateBody, origin: AuditOrigin) {
      const sessionId = me.sessionId;
      if (!sessionId) {
        throw forbidden('An access token cannot confirm who you are. Sign in to do this.');
      }
      const account = await sessions.findUserByEmail(db, me.email);
      const stored = account?.id === me.userId ? account.passwordHash : null;
      if (!stored) {
        throw conflict(
          'This account signs in by single sign-on; it has no password here. ' +
            'Sign in again with your provider.',
        );
      }
      // The organization's policy holds here too: no password where sign-in by password is off.
      if (!account?.passwordSignIn) {
        throw new AppError(
          403,
          'PASSWORD_SIGN_IN_OFF',
          'Your organization signs in with single sign-on only. Sign in again with its provider.',
        );
      }
      // The same key as changing the password: guesses through either count together.
      const key = `password:${me.userId}`;
      const window = limits.windowSeconds;
      await throttle.admit(
        [{ key, max: limits.maxPerAccountAndAddress, windowSeconds: window, blockSeconds: window }],
        'attempts',
      );
      const failed = async (reason: string, error: AppError) => {
        await signInFailed(
          { id: me.userId, name: me.name, email: me.email, organizationId: me.organizationId },
          { email: me.email, ip: origin.ip ?? '', userAgent: origin.userAgent ?? undefined },
          `re-authentication: ${reason}`,
        );
        return error;
      };
      if (!(await verifier.verify(stored, body.password))) {
        throw await failed(
          'wrong password',
          new AppError(400, 'INVALID_CREDENTIALS', 'The password is not correct.'),
        );
      }
      const check = await secondFactor.check(me.userId, body);
      if (check === 'required') {
        // The password was right; only the code is missing, which is no failed attempt.
        await throttle.forgive([key]);
        throw new AppError(
          400,
          'SECOND_FACTOR_REQUIRED',
          'Enter the 6-digit code from your authenticator app, or a recovery code.',
        );
      }
      if (check === 'refused') {
        throw await failed(
          'wrong second-factor code',
          new AppError(
            400,
            'SECOND_FACTOR_INVALID',
            'That code is not right, or was already used. Try the next one.',
          ),
        );
      }
      await throttle.forgive([key]);
      await markReauthenticated(me, origin, { method: 'password' });
    },

    markReauthenticated,

    /** Whether the caller may re-authenticate with a password (has one, and may use it). */
    async canReauthenticateWithPassword(me: AuthContext): Promise<boolean> {
      const account = await sessions.findUserByEmail(db, me.email);
      return Boolean(account?.id === me.userId && account.passwordHash && account.passwordSignIn);
    },

    /**
     * Signs in with e-mail and password, and the second factor when the account has one;
     * returns a new session token.
     */
    async login(input: LoginInput): Promise<string> {
      const { user, keys } = await verifyPassword(input);
      // Told only to whoever knows the password, so that it reveals no account (decision 0045).
      if (!user.passwordSignIn) {
        await throttle.forgive(Object.values(keys));
        await signInFailed(user, input, 'password sign-in is off');
        throw new AppError(
          403,
          'PASSWORD_SIGN_IN_OFF',
          'Your organization signs in with single sign-on only. Use its button to sign in.',
        );
      }
      const check = await secondFactor.check(user.id, input);
      if (check === 'required') {
        // The password was right: only the code is missing, which is no failed attempt.
        await throttle.forgive(Object.values(keys));
        throw new AppError(
          401,
          'SECOND_FACTOR_REQUIRED',
          'Enter the 6-digit code from your authenticator app, or a recovery code.',
        );
      }
      if (check === 'refused') {
        // A wrong or replayed code counts like a wrong password: the attempt stays counted.
        await signInFailed(user, input, 'wrong second-factor code');
        throw new AppError(
          401,
          'SECOND_FACTOR_INVALID',
          'That code is not right, or was already used. Try the next one.',
        );
      }
      await settle(keys);
      return db.transaction(async (tx) => {
        const { token, sessionId } = await startSession(tx, user.id, input.ip, input.userAgent);
        await signedIn(tx, user.id);
        await audit.record(tx, {
          organizationId: user.organizationId,
          actor: { id: user.id, name: user.name, email: user.email },
          action: 'sign-in.succeeded',
          target: { type: 'session', id: sessionId, label: user.email },
          details: { method: 'password', secondFactor: check === 'accepted' },
          ip: input.ip,
          userAgent: input.userAgent?.slice(0, 500) ?? null,
        });
        return token;
      });
    },

    /** The caller behind a bearer token (session or access token), or null when not live. */
    async authenticate(
      token: string,
      withMenu = false,
      withPeople = false,
    ): Promise<AuthContext | null> {
      if (isAccessToken(token)) return tokens.authenticate(token, withMenu, withPeople);
      const record = await sessions.findLive(db, hashToken(token), idle, withMenu, withPeople);
      if (!record) return null;
      if (Date.now() - record.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
        await sessions.touch(db, record.sessionId);
      }
      const { lastSeenAt: _, ...rest } = record;
      return { ...rest, accessTokenId: null };
    },

    /**
     * The 401 for a bearer token that `authenticate` refused, worded for its holder (decision
     * 0054). A session token that ended and a string that never was one are not told apart:
     * only the web app holds session tokens, and it signs in again either way.
     */
    async refusal(token: string): Promise<AppError> {
      if (isAccessToken(token)) return tokens.refusal(token);
      // A SCIM token is the identity system's, for /scim/v2 alone (decision 0084).
      if (isScimToken(token)) return unauthorized('A SCIM token opens /scim/v2 and nothing else.');
      return unauthorized('This token is not valid, or its session has ended. Sign in again.');
    },

    /** Signs the caller out: their session ends. */
    async logout(me: AuthContext, origin: AuditOrigin): Promise<void> {
      const sessionId = me.sessionId;
      if (!sessionId) return;
      await db.transaction(async (tx) => {
        await sessions.revoke(tx, sessionId);
        await audit.record(tx, {
          ...ownEvent(me, origin),
          action: 'sign-out',
          target: { type: 'session', id: sessionId, label: me.email },
        });
      });
    },

    /** The provider and ID token of a session opened by single sign-on, or null. */
    ssoSessionOf: (sessionId: string) => sessions.findSso(db, sessionId),

    /** "Where you're signed in": the person's live sessions. */
    async listSessions(me: AuthContext) {
      const rows = await sessions.listLive(db, me.userId, idle);
      return {
        items: rows.map((row) => ({
          id: row.id,
          current: row.id === me.sessionId,
          ...describeUserAgent(row.userAgent),
          userAgent: row.userAgent,
          method: row.ssoProviderId ? ('sso' as const) : ('password' as const),
          createdAt: row.createdAt.toISOString(),
          lastActiveAt: row.lastSeenAt.toISOString(),
          expiresAt: row.expiresAt.toISOString(),
        })),
      };
    },

    async endSession(me: AuthContext, sessionId: string, origin: AuditOrigin) {
      await db.transaction(async (tx) => {
        if (!(await sessions.revokeOwn(tx, me.userId, sessionId, idle))) {
          throw notFound('No such session.');
        }
        await audit.record(tx, {
          ...ownEvent(me, origin),
          action: 'session.ended',
          target: { type: 'session', id: sessionId, label: me.email },
        });
      });
    },

    /** Ends every session but the caller's own (all of them for an access token). */
    async endOtherSessions(me: AuthContext, origin: AuditOrigin): Promise<void> {
      await db.transaction(async (tx) => {
        const ended = await sessions.revokeOthers(tx, me.userId, me.sessionId);
        await audit.record(tx, {
          ...ownEvent(me, origin),
          action: 'sessions.ended-everywhere',
          target: { type: 'person', id: me.userId, label: me.email },
          details: { ended, keptCurrent: Boolean(me.sessionId) },
        });
      });
    },

    /**
     * Changes the caller's password after checking the current one (throttled like sign-in;
     * a wrong one is 400, not 401, which the app would take for a lost session), and on
     * request ends every other session and revokes every access token, in its transaction.
     */
    async changePassword(
      me: AuthContext,
      body: ChangePasswordBody,
      origin: AuditOrigin,
    ): Promise<void> {
      if (!me.sessionId) throw forbidden('Sign in to change your password; a token cannot.');
      const stored = await sessions.findPasswordHash(db, me.userId);
      if (!stored) {
        throw conflict('This account signs in by single sign-on; it has no password here.');
      }
      const key = `password:${me.userId}`;
      const window = limits.windowSeconds;
      await throttle.admit([
        { key, max: limits.maxPerAccountAndAddress, windowSeconds: window, blockSeconds: window },
      ]);
      if (!(await verifier.verify(stored, body.currentPassword))) {
        throw badRequest('The current password is not correct.');
      }
      await throttle.forgive([key]);
      const hash = await hashPassword(body.newPassword, config.argon2);
      // Access tokens follow "sign out everywhere else" unless asked for on their own
      // (decision 0047): a client that asks to sign out everywhere else means every token.
      const revokeTokens = body.revokeAccessTokens ?? body.signOutOtherSessions ?? false;
      await db.transaction(async (tx) => {
        await sessions.setPasswordHash(tx, me.userId, hash);
        const ended = body.signOutOtherSessions
          ? await sessions.revokeOthers(tx, me.userId, me.sessionId)
          : 0;
        const revoked = revokeTokens ? await tokens.revokeAll(tx, me.userId) : 0;
        await audit.record(tx, {
          ...ownEvent(me, origin),
          action: 'password.changed',
          target: { type: 'person', id: me.userId, label: me.email },
          details: { otherSessionsEnded: ended, accessTokensRevoked: revoked },
        });
      });
    },
  };
}
export type AuthService = ReturnType<typeof createAuthService>;
