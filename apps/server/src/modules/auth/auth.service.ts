import { createHash, randomBytes } from 'node:crypto';
import type { ChangePasswordBody } from '@signpost/contract';
import type { Config } from '../../config.ts';
import type { Database, Executor } from '../../db/client.ts';
import { TOUCH_EVERY_MS, type AuthContext } from '../../lib/auth-context.ts';
import { AppError, badRequest, conflict, notFound } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import {
  createAccessTokensService,
  isAccessToken,
} from '../access-tokens/access-tokens.service.ts';
import { createSecondFactorService } from '../second-factor/second-factor.service.ts';
import { createThrottleService } from '../throttle/throttle.service.ts';
import { hashPassword, PasswordVerifier } from '../../lib/passwords.ts';
import { createSessionsRepository } from './sessions.repository.ts';
import { describeUserAgent } from './user-agent.ts';

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

export function createAuthService(db: Database, config: Config) {
  const sessions = createSessionsRepository(db);
  const tokens = createAccessTokensService(db);
  const throttle = createThrottleService(db);
  const secondFactor = createSecondFactorService(db, config);
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
    userId: string,
    ip: string,
    userAgent: string | undefined,
    executor: Executor = db,
    sso?: { providerId: string; idToken: string },
  ) {
    // 256 random bits; only the hash is stored.
    const token = randomBytes(32).toString('base64url');
    const sessionId = newId();
    await createSessionsRepository(executor).insert({
      id: sessionId,
      userId,
      tokenHash: hashToken(token),
      expiresAt: new Date(Date.now() + config.sessionAbsoluteHours * 3600_000),
      ip,
      userAgent: userAgent?.slice(0, 500) ?? null,
    });
    // A session opened by single sign-on keeps its provider and ID token, for logging out there.
    if (sso) await createSessionsRepository(executor).insertSso({ sessionId, ...sso });
    return { token, sessionId };
  }

  async function openSession(userId: string, ip: string, userAgent: string | undefined) {
    return (await startSession(userId, ip, userAgent)).token;
  }

  /**
   * Checks e-mail and password under the sign-in throttle, leaving the attempt counted:
   * the caller settles it once the whole sign-in has succeeded. Throws 429 (blocked) or 401
   * (wrong e-mail or password, the same answer for both).
   */
  async function verifyPassword({ email, password, ip }: PasswordCheckInput) {
    const account = email.trim().toLowerCase();
    const keys = throttleKeys(account, ip);
    // Counted before the slow check, so attempts sent at once cannot pass the limit together.
    await admitAttempt(keys);
    const user = await sessions.findUserByEmail(account);
    const ok = await verifier.verify(user?.passwordHash ?? null, password);
    if (ok && user && user.status === 'active') return { user, keys };
    throw new AppError(401, 'INVALID_CREDENTIALS', 'The e-mail or password is not correct.');
  }

  /** A sign-in succeeded: its attempt is no failure, and this address starts afresh. */
  async function settle(keys: ReturnType<typeof throttleKeys>) {
    await throttle.forgive([keys.address, keys.account]);
    await throttle.clear(keys.pair);
  }

  /** A complete password check, for sign-ins that have no second step. */
  async function checkPassword(input: PasswordCheckInput) {
    const result = await verifyPassword(input);
    await settle(result.keys);
    return result;
  }

  return {
    openSession,
    startSession,
    checkPassword,
    secondFactor,

    /**
     * Signs in with e-mail and password, and the second factor when the account has one;
     * returns a new session token.
     */
    async login(input: LoginInput): Promise<string> {
      const { user, keys } = await verifyPassword(input);
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
        throw new AppError(
          401,
          'SECOND_FACTOR_INVALID',
          'That code is not right, or was already used. Try the next one.',
        );
      }
      await settle(keys);
      return openSession(user.id, input.ip, input.userAgent);
    },

    /** The caller behind a bearer token (session or access token), or null when not live. */
    async authenticate(token: string): Promise<AuthContext | null> {
      if (isAccessToken(token)) return tokens.authenticate(token);
      const record = await sessions.findLive(hashToken(token), idle);
      if (!record) return null;
      if (Date.now() - record.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
        await sessions.touch(record.sessionId);
      }
      const { lastSeenAt: _, ...rest } = record;
      return { ...rest, accessTokenId: null, menuVersion: Number(record.menuVersion) };
    },

    logout: (sessionId: string) => sessions.revoke(sessionId),

    /** The provider and ID token of a session opened by single sign-on, or null. */
    ssoSessionOf: (sessionId: string) => sessions.findSso(sessionId),

    /** "Where you're signed in": the person's live sessions. */
    async listSessions(me: AuthContext) {
      const rows = await sessions.listLive(me.userId, idle);
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

    async endSession(me: AuthContext, sessionId: string) {
      if (!(await sessions.revokeOwn(me.userId, sessionId, idle))) {
        throw notFound('No such session.');
      }
    },

    /** Ends every session but the caller's own (all of them for an access token). */
    endOtherSessions: (me: AuthContext) => sessions.revokeOthers(me.userId, me.sessionId),

    /**
     * Changes the caller's password after checking the current one (throttled like sign-in;
     * a wrong one is 400, not 401, which the app would take for a lost session), and on
     * request ends every other session.
     */
    async changePassword(me: AuthContext, body: ChangePasswordBody): Promise<void> {
      const stored = await sessions.findPasswordHash(me.userId);
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
      await sessions.setPasswordHash(
        me.userId,
        await hashPassword(body.newPassword, config.argon2),
      );
      if (body.signOutOtherSessions) await sessions.revokeOthers(me.userId, me.sessionId);
    },
  };
}
export type AuthService = ReturnType<typeof createAuthService>;
