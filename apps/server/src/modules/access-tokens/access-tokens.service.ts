import { ACCESS_TOKEN_LIMITS, ACCESS_TOKEN_PREFIX, type AccessToken } from '@signpost/contract';
import { createHash, randomBytes } from 'node:crypto';
import type { Database } from '../../db/client.ts';
import type { accessTokens } from '../../db/schema/index.ts';
import { TOUCH_EVERY_MS, type AuthContext } from '../../lib/auth-context.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { auditContext, createAuditService } from '../audit/audit.service.ts';
import type { FastifyRequest } from 'fastify';
import { createAccessTokensRepository } from './access-tokens.repository.ts';

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

export function createAccessTokensService(db: Database) {
  const repository = createAccessTokensRepository(db);
  const audit = createAuditService(db);
  return {
    /** The person behind a live access token, or null (expired, revoked, unknown). */
    async authenticate(token: string): Promise<AuthContext | null> {
      const record = await repository.findLive(hashAccessToken(token));
      if (!record) return null;
      if (!record.lastUsedAt || Date.now() - record.lastUsedAt.getTime() > TOUCH_EVERY_MS) {
        await repository.touch(record.tokenId);
      }
      const { tokenId, lastUsedAt: _, ...person } = record;
      return {
        ...person,
        sessionId: null,
        accessTokenId: tokenId,
        menuVersion: Number(record.menuVersion),
      };
    },

    async create(
      request: FastifyRequest,
      me: AuthContext,
      input: { name: string; expiresInDays?: number | undefined },
    ) {
      const userId = me.userId;
      if ((await repository.countLive(userId)) >= ACCESS_TOKEN_LIMITS.perPerson) {
        throw conflict(
          `You have ${ACCESS_TOKEN_LIMITS.perPerson} access tokens; revoke one to make another.`,
        );
      }
      // 256 random bits after a recognizable prefix (secret scanners can spot it); only the
      // hash is stored.
      const token = `${ACCESS_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
      const row = await db.transaction(async (tx) => {
        const created = await createAccessTokensRepository(tx).insert({
          id: newId(),
          userId,
          name: input.name.trim() || 'Access token',
          tokenHash: hashAccessToken(token),
          tokenHint: token.slice(0, HINT_LENGTH),
          expiresAt: input.expiresInDays
            ? new Date(Date.now() + input.expiresInDays * 24 * 3600_000)
            : null,
        });
        await audit.record(
          {
            ...auditContext(request, me),
            action: 'access-token.created',
            target: { type: 'access-token', id: created.id, label: created.name },
            after: {
              name: created.name,
              hint: created.tokenHint,
              expiresAt: created.expiresAt?.toISOString() ?? null,
            },
          },
          tx,
        );
        return created;
      });
      return { token, accessToken: toWire(row) };
    },

    async list(userId: string) {
      return { items: (await repository.listLive(userId)).map(toWire) };
    },

    async revoke(request: FastifyRequest, me: AuthContext, tokenId: string) {
      await db.transaction(async (tx) => {
        const revoked = await createAccessTokensRepository(tx).revoke(me.userId, tokenId);
        if (!revoked) throw notFound('No such access token.');
        await audit.record(
          {
            ...auditContext(request, me),
            action: 'access-token.revoked',
            target: { type: 'access-token', id: tokenId, label: revoked.name },
            // Revoked with itself as the bearer, or from a session.
            details: { byItself: me.accessTokenId === tokenId },
          },
          tx,
        );
      });
    },
  };
}
export type AccessTokensService = ReturnType<typeof createAccessTokensService>;
