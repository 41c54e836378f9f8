// Personal access tokens against their service on the test database (decisions 0047, 0048,
// 0054): making one, what it is worth as a bearer, revoking, expiry, and who may do what.
import { ACCESS_TOKEN_LIMITS } from '@signpost/contract';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { accessTokens as accessTokensTable, auditLog, users } from '../../db/schema/index.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { newId } from '../../lib/ids.ts';
import { createTestServices } from '../../../test/app.ts';
import { countRows, createOrganization, createUser, PASSWORD } from '../../../test/factories.ts';
import { hashAccessToken } from './access-tokens.service.ts';
import { refusal } from '../../../test/support/refusal.ts';

const { services, db } = await createTestServices();
const { auth, accessTokens } = services;
const org = await createOrganization(db);
const origin = { ip: '10.0.0.9', userAgent: 'curl/8.5.0' };

let address = 0;
const nextIp = () => `10.5.${Math.floor(address / 250)}.${(address++ % 250) + 1}`;

/** The caller behind a token, which must be live. */
async function callerOf(token: string): Promise<AuthContext> {
  const me = await auth.authenticate(token);
  if (!me) throw new Error('the token does not authenticate');
  return me;
}

/** A new person, signed in a moment ago. */
async function signedIn(name?: string) {
  const user = await createUser(db, org.id, name ? { name } : {});
  const token = await auth.login({
    email: user.email,
    password: PASSWORD,
    ip: nextIp(),
    userAgent: undefined,
  });
  return { user, token, me: await callerOf(token) };
}

const row = async (id: string) =>
  (await db.select().from(accessTokensTable).where(eq(accessTokensTable.id, id)))[0];

const entries = (action: string, targetId: string) =>
  db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.targetId, targetId)));

const expire = (id: string) =>
  db
    .update(accessTokensTable)
    .set({ expiresAt: sql`now() - interval '1 second'` })
    .where(eq(accessTokensTable.id, id));

const disable = (userId: string) =>
  db.update(users).set({ status: 'disabled' }).where(eq(users.id, userId));

const NOT_VALID = {
  statusCode: 401,
  code: 'UNAUTHORIZED',
  message: 'This access token is not valid.',
};

describe('making an access token', () => {
  it('shows it once, stores only its hash, with a prefix and 256 random bits, audited', async () => {
    const { user, me } = await signedIn();
    const { token, accessToken } = await accessTokens.create(me, origin, { name: 'CI script' });
    expect(token).toMatch(/^spat_[\w-]{43}$/);
    expect(accessToken).toEqual({
      id: expect.any(String),
      name: 'CI script',
      hint: token.slice(0, 9),
      createdAt: expect.any(String),
      lastUsedAt: null,
      expiresAt: null,
    });
    const stored = await row(accessToken.id);
    expect(stored).toMatchObject({ userId: user.id, tokenHash: hashAccessToken(token) });
    expect(JSON.stringify(stored)).not.toContain(token);
    expect(await entries('access-token.created', accessToken.id)).toMatchObject([
      {
        actorId: user.id,
        targetType: 'access-token',
        targetLabel: 'CI script',
        ip: origin.ip,
        after: { name: 'CI script', hint: token.slice(0, 9), expiresAt: null },
      },
    ]);
  });

  it('expires it after the days asked for, and names it when the name is blank', async () => {
    const { me } = await signedIn();
    const { accessToken } = await accessTokens.create(me, origin, {
      name: '   ',
      expiresInDays: 30,
    });
    expect(accessToken.name).toBe('Access token');
    const days = (Date.parse(accessToken.expiresAt!) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
  });

  it('is refused past the cap of live tokens a person may have: 409', async () => {
    const { user, me } = await signedIn();
    const cap = ACCESS_TOKEN_LIMITS.perPerson;
    await db.insert(accessTokensTable).values(
      Array.from({ length: cap - 1 }, (_, i) => ({
        id: newId(),
        userId: user.id,
        name: `Token ${i}`,
        tokenHash: `hash-${newId()}`,
        tokenHint: 'spat_xxxx',
      })),
    );
    const last = await accessTokens.create(me, origin, { name: 'the last one' });
    expect(await refusal(accessTokens.create(me, origin, { name: 'one too many' }))).toEqual({
      statusCode: 409,
      code: 'CONFLICT',
      message: `You have ${cap} access tokens; revoke one to make another.`,
    });
    // A revoked token no longer counts: one more can be made.
    await accessTokens.revoke(me, origin, last.accessToken.id);
    expect((await accessTokens.create(me, origin, { name: 'again' })).token).toMatch(/^spat_/);
    expect((await accessTokens.list(user.id)).items).toHaveLength(cap);
  });

  it('needs a session that signed in or confirmed who it is in the last 5 minutes: else 403', async () => {
    const { user, token } = await signedIn();
    await db.execute(
      sql`UPDATE sessions SET reauthenticated_at = now() - interval '6 minutes' WHERE user_id = ${user.id}`,
    );
    const stale = await callerOf(token);
    expect(await refusal(accessTokens.create(stale, origin, { name: 'script' }))).toEqual({
      statusCode: 403,
      code: 'REAUTHENTICATION_REQUIRED',
      message:
        "To make an access token, confirm it's you: enter your password, or sign in again " +
        'with your provider. This is asked when you last did so more than 5 minutes ago.',
    });
    expect(await countRows(db, 'access_tokens', { column: 'user_id', value: user.id })).toBe(0);
    await auth.reauthenticate(stale, { password: PASSWORD }, origin);
    const made = await accessTokens.create(await callerOf(token), origin, { name: 'script' });
    expect(made.accessToken.name).toBe('script');
  });

  it('is no way to make further tokens: a token gets 403 and stores nothing, though it may list them', async () => {
    const { user, me } = await signedIn();
    const made = await accessTokens.create(me, origin, { name: 'x' });
    const bearer = await callerOf(made.token);
    expect(await refusal(accessTokens.create(bearer, origin, { name: 'y' }))).toEqual({
      statusCode: 403,
      code: 'FORBIDDEN',
      message: 'Sign in to make an access token; an access token cannot.',
    });
    expect(await countRows(db, 'access_tokens', { column: 'user_id', value: user.id })).toBe(1);
    expect((await accessTokens.list(bearer.userId)).items).toHaveLength(1);
  });
});

describe('the tokens of a person', () => {
  it('lists their live tokens, newest first, with name, dates and hint, never the token', async () => {
    const { user, me } = await signedIn();
    const first = await accessTokens.create(me, origin, { name: 'first' });
    const second = await accessTokens.create(me, origin, { name: 'second', expiresInDays: 30 });
    const revoked = await accessTokens.create(me, origin, { name: 'revoked' });
    await accessTokens.revoke(me, origin, revoked.accessToken.id);
    const { items } = await accessTokens.list(user.id);
    expect(items).toEqual([second.accessToken, first.accessToken]);
    expect(JSON.stringify(items)).not.toContain(first.token);
    expect(JSON.stringify(items)).not.toContain(second.token);
    // Another person sees none of them.
    expect((await accessTokens.list((await signedIn()).user.id)).items).toEqual([]);
  });

  it("revokes every live token of a person at once, for the change that asks, and no one else's", async () => {
    const { user, me } = await signedIn();
    const mine = [
      await accessTokens.create(me, origin, { name: 'a' }),
      await accessTokens.create(me, origin, { name: 'b' }),
    ];
    const other = await signedIn();
    const theirs = await accessTokens.create(other.me, origin, { name: 'theirs' });
    expect(await accessTokens.revokeAll(db, user.id)).toBe(2);
    for (const { token } of mine) expect(await auth.authenticate(token)).toBeNull();
    expect(await auth.authenticate(theirs.token)).not.toBeNull();
    expect(await accessTokens.revokeAll(db, user.id)).toBe(0);
  });
});

describe('a token as a bearer', () => {
  it('authenticates as its person, as a token and not a session, noting its last use', async () => {
    const { user, me } = await signedIn('Token User');
    const { token, accessToken } = await accessTokens.create(me, origin, { name: 'script' });
    const bearer = await callerOf(token);
    expect(bearer).toMatchObject({
      sessionId: null,
      accessTokenId: accessToken.id,
      userId: user.id,
      name: 'Token User',
      organizationId: org.id,
      expiresAt: null,
    });
    expect(bearer.recentlyAuthenticated).toBe(false);
    expect((await accessTokens.list(user.id)).items[0]?.lastUsedAt).toEqual(expect.any(String));
  });

  it('notes its use at most once a minute', async () => {
    const { me } = await signedIn();
    const { token, accessToken } = await accessTokens.create(me, origin, { name: 'script' });
    const used = async (ago: string) => {
      await db
        .update(accessTokensTable)
        .set({ lastUsedAt: sql`now() - ${ago}::interval` })
        .where(eq(accessTokensTable.id, accessToken.id));
      const before = (await row(accessToken.id))!.lastUsedAt!;
      await callerOf(token);
      return (await row(accessToken.id))!.lastUsedAt!.getTime() - before.getTime();
    };
    expect(await used('30 seconds')).toBe(0);
    expect(await used('2 minutes')).toBeGreaterThan(100_000);
  });

  it('revoked, no longer authenticates and reads as never issued; the revocation is audited', async () => {
    const { user, me } = await signedIn();
    const { token, accessToken } = await accessTokens.create(me, origin, { name: 'to revoke' });
    await accessTokens.revoke(me, origin, accessToken.id);
    expect(await auth.authenticate(token)).toBeNull();
    expect(await auth.refusal(token)).toMatchObject(NOT_VALID);
    expect((await accessTokens.list(user.id)).items).toEqual([]);
    expect(await entries('access-token.revoked', accessToken.id)).toMatchObject([
      { actorId: user.id, targetLabel: 'to revoke', details: { byItself: false } },
    ]);
    expect(await refusal(accessTokens.revoke(me, origin, accessToken.id))).toEqual({
      statusCode: 404,
      code: 'NOT_FOUND',
      message: 'No such access token.',
    });
  });

  it('may revoke itself, which the audit entry says', async () => {
    const { me } = await signedIn();
    const { token, accessToken } = await accessTokens.create(me, origin, { name: 'self' });
    await accessTokens.revoke(await callerOf(token), origin, accessToken.id);
    expect(await auth.authenticate(token)).toBeNull();
    expect(await entries('access-token.revoked', accessToken.id)).toMatchObject([
      { details: { byItself: true } },
    ]);
  });

  it('cannot be revoked by another person: 404, and it goes on working', async () => {
    const owner = await signedIn();
    const { token, accessToken } = await accessTokens.create(owner.me, origin, { name: 'mine' });
    const stranger = await signedIn();
    expect(await refusal(accessTokens.revoke(stranger.me, origin, accessToken.id))).toEqual({
      statusCode: 404,
      code: 'NOT_FOUND',
      message: 'No such access token.',
    });
    expect(await auth.authenticate(token)).not.toBeNull();
    expect(await entries('access-token.revoked', accessToken.id)).toEqual([]);
  });

  it('stops working once expired, and says so until it is revoked', async () => {
    const { user, me } = await signedIn();
    const { token, accessToken } = await accessTokens.create(me, origin, {
      name: 'short',
      expiresInDays: 1,
    });
    expect(await auth.authenticate(token)).not.toBeNull();
    await expire(accessToken.id);
    expect(await auth.authenticate(token)).toBeNull();
    expect(await auth.refusal(token)).toMatchObject({
      statusCode: 401,
      code: 'ACCESS_TOKEN_EXPIRED',
      message: 'This access token has expired. Make a new one in your settings.',
    });
    expect((await accessTokens.list(user.id)).items).toEqual([]);
    await db
      .update(accessTokensTable)
      .set({ revokedAt: sql`now()` })
      .where(eq(accessTokensTable.id, accessToken.id));
    expect(await auth.refusal(token)).toMatchObject(NOT_VALID);
  });

  it.each([
    ['live', false],
    ['expired', true],
  ])('of a disabled person, %s, is only not valid', async (_, expired) => {
    const { user, me } = await signedIn();
    const { token, accessToken } = await accessTokens.create(me, origin, { name: 'x' });
    if (expired) await expire(accessToken.id);
    await disable(user.id);
    expect(await auth.authenticate(token)).toBeNull();
    expect(await auth.refusal(token)).toMatchObject(NOT_VALID);
  });

  it('that never was one is not valid', async () => {
    const token = `spat_${'a'.repeat(43)}`;
    expect(await auth.authenticate(token)).toBeNull();
    expect(await auth.refusal(token)).toMatchObject(NOT_VALID);
  });
});
