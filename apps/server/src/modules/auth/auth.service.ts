import { createHash, randomBytes } from 'node:crypto';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { AppError } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { createLoginThrottleRepository } from './login-throttle.repository.ts';
import { PasswordVerifier } from './passwords.ts';
import { createSessionsRepository } from './sessions.repository.ts';

/** Sessions are touched at most once a minute, not on every request. */
const TOUCH_EVERY_MS = 60_000;

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export interface LoginInput {
  email: string;
  password: string;
  ip: string;
  userAgent: string | undefined;
}

export function createAuthService(db: Database, config: Config) {
  const sessions = createSessionsRepository(db);
  const throttle = createLoginThrottleRepository(db);
  const verifier = new PasswordVerifier(config.argon2);
  const limits = config.login;

  async function openSession(userId: string, ip: string, userAgent: string | undefined) {
    // 256 random bits; only the hash is stored.
    const token = randomBytes(32).toString('base64url');
    await sessions.insert({
      id: newId(),
      userId,
      tokenHash: hashToken(token),
      expiresAt: new Date(Date.now() + config.sessionAbsoluteHours * 3600_000),
      ip,
      userAgent: userAgent?.slice(0, 500) ?? null,
    });
    return token;
  }

  return {
    openSession,

    /** Signs in with e-mail and password; returns a new session token. */
    async login({ email, password, ip, userAgent }: LoginInput): Promise<string> {
      const account = email.trim().toLowerCase();
      const keys = {
        pair: `pair:${account}|${ip}`,
        address: `ip:${ip}`,
        account: `account:${account}`,
      };
      const wait = await throttle.blockedFor(Object.values(keys));
      if (wait > 0) {
        throw new AppError(
          429,
          'RATE_LIMITED',
          `Too many sign-in attempts. Try again in ${wait} seconds.`,
          { 'Retry-After': String(wait) },
        );
      }

      const user = await sessions.findUserByEmail(account);
      const ok = await verifier.verify(user?.passwordHash ?? null, password);
      if (ok && user && user.status === 'active') {
        await throttle.clear(keys.pair);
        return openSession(user.id, ip, userAgent);
      }

      const window = limits.windowSeconds;
      await throttle.recordFailure(keys.pair, limits.maxPerAccountAndAddress, window, window);
      await throttle.recordFailure(keys.address, limits.maxPerAddress, window, window);
      await throttle.recordFailure(
        keys.account,
        limits.maxPerAccount,
        window,
        limits.accountBlockSeconds,
      );
      throw new AppError(401, 'INVALID_CREDENTIALS', 'The e-mail or password is not correct.');
    },

    /** The caller behind a bearer token, or null when the token is not live. */
    async authenticate(token: string): Promise<AuthContext | null> {
      const record = await sessions.findLive(hashToken(token), config.sessionIdleMinutes);
      if (!record) return null;
      if (Date.now() - record.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
        await sessions.touch(record.sessionId);
      }
      return {
        sessionId: record.sessionId,
        userId: record.userId,
        name: record.name,
        email: record.email,
        role: record.role,
        organizationId: record.organizationId,
        organizationName: record.organizationName,
        menuVersion: Number(record.menuVersion),
        expiresAt: record.expiresAt,
      };
    },

    logout: (sessionId: string) => sessions.revoke(sessionId),
  };
}
export type AuthService = ReturnType<typeof createAuthService>;
