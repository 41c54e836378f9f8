import { ACCESS_TOKEN_LIMITS, ACCESS_TOKEN_PREFIX, type AccessToken } from '@signpost/contract';
import { createHash, randomBytes } from 'node:crypto';
import type { Database, Executor } from '../../db/client.ts';
import type { accessTokens } from '../../db/schema/index.ts';
import { TOUCH_EVERY_MS, type AuthContext } from '../../lib/auth-context.ts';
import { AppError, conflict, notFound, unauthorized } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { assertRecentlyAuthenticated } from '../../lib/reauthentication.ts';
import { auditOf, type AuditService } from '../audit/audit.service.ts';
import type { AuditOrigin } from '../../lib/request-context.ts';
import type { AccessTokensRepository } from './access-tokens.repository.ts';

const HINT_LENGTH = ACCESS_TOKEN_PREFIX.length + 4;

export const hashAccessToken = (token: string) => createHash('sha256').update(token).digest('hex');

export const isAccessToken = (token: string) => token.startsWith(ACCESS_TOKEN_PREFIX);

function toWire(row: typeof accessTokens.$inferSelect): AccessToken {
  return {
    id: row.id,
    name: row.name,
    hint: row.tokenHint,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
  };
}

export interface AccessTokensDeps {
  db: Database;
  accessTokens: AccessTokensRepository;
  audit: AuditService;
}

export function createAccessTokensService({
  db,
  accessTokens: repository,
  audit,
}: AccessTokensDeps) {
  return {
    /** The person behind a live access token, or null (expired, revoked, unknown). */
    async authenticate(
      token: string,
      withMenu = false,
      withPeople = false,
    ): Promise<AuthContext | null> {
      const record = await repository.findLive(db, hashAccessToken(token), withMenu, withPeople);
      if (!record) return null;
      if (!record.lastUsedAt || Date.now() - record.lastUsedAt.getTime() > TOUCH_EVERY_MS) {
        await repository.touch(db, record.tokenId);
      }
      const { tokenId, lastUsedAt: _, ...person } = record;
      return {
        ...person,
        sessionId: null,
        accessTokenId: tokenId,
        // A token cannot re-authenticate (decision 0048).
        recentlyAuthenticated: false,
      };
    },

    /**
     * Why a token that `authenticate` refused does not work, in words for its holder
     * (decision 0054): expired, when only its expiry stops it; else not valid — unknown,
     * revoked and a disabled person's are told apart from nothing.
     */
    async refusal(token: string): Promise<AppError> {
      if (await repository.isExpired(db, hashAccessToken(token))) {
        return new AppError(
          401,
          'ACCESS_TOKEN_EXPIRED',
          'This access token has expired. Make a new one in your settings.',
        );
      }
      return unauthorized('This access token is not valid.');
    },

    async create(
      me: AuthContext,
      origin: AuditOrigin,
      input: { name: string; expiresInDays?: number | undefined },
    ) {
      // A leaked token must not be able to mint itself a longer-lived successor, nor a
      // session left open at someone else's desk (decision 0048).
      const userId = assertRecentlyAuthenticated(me, 'make an access token').userId;
      // 256 random bits after a recognizable prefix (secret scanners can spot it); only the
      // hash is stored.
      const token = `${ACCESS_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
      const row = await db.transaction(async (tx) => {
        // Counted under a lock, so that creations sent at once cannot pass the cap together.
        if ((await repository.lockAndCountLive(tx, userId)) >= ACCESS_TOKEN_LIMITS.perPerson) {
          throw conflict(
            `You have ${ACCESS_TOKEN_LIMITS.perPerson} access tokens; revoke one to make another.`,
          );
        }
        const created = await repository.insert(tx, {
          id: newId(),
          userId,
          name: input.name.trim() || 'Access token',
          tokenHash: hashAccessToken(token),
          tokenHint: token.slice(0, HINT_LENGTH),
          expiresAt: input.expiresInDays
            ? new Date(Date.now() + input.expiresInDays * 24 * 3600_000)
            : null,
        });
        await audit.record(tx, {
          ...auditOf(me, origin),
          action: 'access-token.created',
          target: { type: 'access-token', id: created.id, label: created.name },
          after: {
            name: created.name,
            hint: created.tokenHint,
            expiresAt: created.expiresAt?.toISOString() ?? null,
          },
        });
        return created;
      });
      return { token, accessToken: toWire(row) };
    },

    async list(userId: string) {
      return { items: (await repository.listLive(db, userId)).map(toWire) };
    },

    /**
     * Revokes every token of a person, in `executor` so that it joins the transaction of
     * the change that calls for it (a password change, a reset); how many were revoked.
     * The caller writes the audit entry of that change.
     */
    revokeAll: (executor: Executor, userId: string) => repository.revokeAll(executor, userId),

    async revoke(me: AuthContext, origin: AuditOrigin, tokenId: string) {
      await db.transaction(async (tx) => {
        const revoked = await repository.revoke(tx, me.userId, tokenId);
        if (!revoked) throw notFound('No such access token.');
        await audit.record(tx, {
          ...auditOf(me, origin),
          action: 'access-token.revoked',
          target: { type: 'access-token', id: tokenId, label: revoked.name },
          // Revoked with itself as the bearer, or from a session.
          details: { byItself: me.accessTokenId === tokenId },
        });
      });
    },
  };
}
export type AccessTokensService = ReturnType<typeof createAccessTokensService>;
