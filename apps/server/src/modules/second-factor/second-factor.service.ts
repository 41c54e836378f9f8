import { createHash, randomBytes } from 'node:crypto';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { AppError, conflict, forbidden } from '../../lib/errors.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { PasswordVerifier } from '../../lib/passwords.ts';
import { assertRecentlyAuthenticated } from '../../lib/reauthentication.ts';
import { auditOf, type AuditService } from '../audit/audit.service.ts';
import type { ThrottleService } from '../throttle/throttle.service.ts';
import type { SecondFactorRepository } from './second-factor.repository.ts';
import { base32Encode, matchTotp, newTotpSecret, normalizeCode, otpauthUrl } from './totp.ts';
import { type AuditOrigin } from '../../lib/request-context.ts';

const RECOVERY_CODES = 10;
const ISSUER = 'Signpost';

const invalid = (message: string) => new AppError(400, 'SECOND_FACTOR_INVALID', message);

/** `abcde-fghij`: 50 random bits, easy to read out and type. */
function newRecoveryCode(): string {
  const text = base32Encode(randomBytes(7)).slice(0, 10).toLowerCase();
  return `${text.slice(0, 5)}-${text.slice(5)}`;
}

// Recovery codes carry 50 random bits and are single-use, so a fast hash is enough.
const hashRecoveryCode = (code: string) =>
  createHash('sha256').update(normalizeCode(code).toLowerCase()).digest('hex');

export type SecondFactorCheck = 'not-enabled' | 'required' | 'accepted' | 'refused';

/**
 * Changing the second factor needs a sign-in session, not an access token, that proved who
 * the person is within the last few minutes (decision 0048).
 */
const signedIn = (me: AuthContext, doing: string) => assertRecentlyAuthenticated(me, doing);

export interface SecondFactorDeps {
  db: Database;
  config: Config;
  secondFactor: SecondFactorRepository;
  throttle: ThrottleService;
  audit: AuditService;
}

export function createSecondFactorService({
  db,
  config,
  secondFactor: repository,
  throttle,
  audit,
}: SecondFactorDeps) {
  const verifier = new PasswordVerifier(config.argon2);
  const event = (me: AuthContext, origin: AuditOrigin) => ({
    ...auditOf(me, origin),
    target: { type: 'person' as const, id: me.userId, label: me.email },
  });

  /** A code of the enabled secret that has not been accepted before. */
  async function acceptCode(userId: string, secret: string, code: string): Promise<boolean> {
    const step = matchTotp(secret, code);
    return step !== null && repository.useStep(db, userId, step);
  }

  /** Guessing codes or passwords here is limited like sign-in. */
  async function guarded<T>(userId: string, work: () => Promise<T | null>): Promise<T> {
    const key = `second-factor:${userId}`;
    const window = config.login.windowSeconds;
    // Counted before the check and forgiven on success: guesses sent at once are limited too.
    await throttle.admit([
      {
        key,
        max: config.login.maxPerAccountAndAddress,
        windowSeconds: window,
        blockSeconds: window,
      },
    ]);
    const result = await work();
    if (result === null) {
      throw invalid('That code is not right, or was already used. Try the next one.');
    }
    await throttle.forgive([key]);
    return result;
  }

  return {
    async status(userId: string) {
      const [account, factor] = await Promise.all([
        repository.findAccount(db, userId),
        repository.find(db, userId),
      ]);
      const enabled = Boolean(factor?.enabledAt);
      return {
        available: Boolean(account?.passwordHash),
        enabled,
        recoveryCodesLeft: enabled ? await repository.recoveryCodesLeft(db, userId) : 0,
      };
    },

    /** A new secret to confirm; replaces an unconfirmed one, never an enabled one. */
    async setup(me: AuthContext) {
      const userId = signedIn(me, 'set up the second factor').userId;
      const account = await repository.findAccount(db, userId);
      if (!account?.passwordHash) {
        throw forbidden(
          'Your account signs in by single sign-on; its second factor is set at your provider.',
        );
      }
      const secret = newTotpSecret();
      if (!(await repository.savePending(db, userId, secret))) {
        throw conflict('The second factor is already on. Turn it off first to set up a new one.');
      }
      return { secret, otpauthUrl: otpauthUrl(secret, ISSUER, account.email) };
    },

    /**
     * Confirms the pending secret with a current code, and ends the person's other
     * sessions; returns the recovery codes once.
     */
    async enable(me: AuthContext, code: string, origin: AuditOrigin) {
      const userId = signedIn(me, 'turn the second factor on').userId;
      const factor = await repository.find(db, userId);
      if (!factor) throw conflict('Set up the second factor first.');
      if (factor.enabledAt) throw conflict('The second factor is already on.');
      const step = await guarded(userId, async () => matchTotp(factor.secret, code));
      const codes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
      await db.transaction(async (tx) => {
        if (!(await repository.enable(tx, userId, step))) {
          throw conflict('The second factor is already on.');
        }
        await repository.replaceRecoveryCodes(tx, userId, codes.map(hashRecoveryCode));
        // Sessions opened before the factor never passed it: only this one, which proved it
        // with the code just now, stays. Access tokens stay (decision 0047).
        const ended = await repository.endOtherSessions(tx, userId, me.sessionId);
        await audit.record(tx, {
          ...event(me, origin),
          action: 'second-factor.enabled',
          before: { secondFactor: false },
          after: { secondFactor: true },
          details: { otherSessionsEnded: ended },
        });
      });
      return { recoveryCodes: codes };
    },

    /** Turns the second factor off after a current code or the password. */
    async disable(
      me: AuthContext,
      proof: { code?: string; password?: string },
      origin: AuditOrigin,
    ) {
      const userId = signedIn(me, 'turn the second factor off').userId;
      const factor = await repository.find(db, userId);
      if (!factor?.enabledAt) throw conflict('The second factor is not on.');
      if (!proof.code && !proof.password) {
        throw invalid('Enter a current code or your password to turn the second factor off.');
      }
      const by = await guarded(userId, async () => {
        if (proof.code && (await acceptCode(userId, factor.secret, proof.code))) return 'code';
        if (proof.password) {
          const account = await repository.findAccount(db, userId);
          if (await verifier.verify(account?.passwordHash ?? null, proof.password)) {
            return 'password';
          }
        }
        return null;
      });
      await db.transaction(async (tx) => {
        await repository.remove(tx, userId);
        await audit.record(tx, {
          ...event(me, origin),
          action: 'second-factor.disabled',
          before: { secondFactor: true },
          after: { secondFactor: false },
          details: { provedWith: by },
        });
      });
    },

    /** The second step of a password sign-in. */
    async check(
      userId: string,
      proof: { totp?: string | undefined; recoveryCode?: string | undefined },
    ): Promise<SecondFactorCheck> {
      const factor = await repository.find(db, userId);
      if (!factor?.enabledAt) return 'not-enabled';
      if (!proof.totp && !proof.recoveryCode) return 'required';
      if (proof.totp && (await acceptCode(userId, factor.secret, proof.totp))) return 'accepted';
      if (
        proof.recoveryCode &&
        (await repository.useRecoveryCode(db, userId, hashRecoveryCode(proof.recoveryCode)))
      ) {
        return 'accepted';
      }
      return 'refused';
    },

    async isEnabled(userId: string): Promise<boolean> {
      return Boolean((await repository.find(db, userId))?.enabledAt);
    },
  };
}
export type SecondFactorService = ReturnType<typeof createSecondFactorService>;
