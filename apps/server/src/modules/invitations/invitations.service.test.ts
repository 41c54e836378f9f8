// The rules of an invitation link, against the service on the test database: who it is for,
// that it works once, that a new one replaces it, and what accepting it writes.
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, invitations, organizations, users } from '../../db/schema/index.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { createTestServices } from '../../../test/app.ts';
import { createOrganization, createUser, type TestUser } from '../../../test/factories.ts';
import { INVITATION_GONE, SSO_ONLY } from './invitations.service.ts';
import { refusal } from '../../../test/support/refusal.ts';

const { services, db } = await createTestServices();

const org = await createOrganization(db, { name: 'Acme' });
const admin = await createUser(db, org.id, { name: 'Ada Admin', role: 'admin' });
const origin = { ip: '10.1.0.1', userAgent: 'Test browser' };

/** A signed-in caller, as the app would authenticate them. */
async function signedIn(person: TestUser): Promise<AuthContext> {
  const { token } = await services.auth.startSession(db, person.id, origin.ip, origin.userAgent);
  const me = await services.auth.authenticate(token);
  if (!me) throw new Error('the session did not authenticate');
  return me;
}
const me = await signedIn(admin);

const GONE = { statusCode: 410, code: 'GONE', message: INVITATION_GONE };

let count = 0;
/** Invites a new person through the console; the invitation's token and the person's id. */
async function invite(name = 'Nora New') {
  count += 1;
  const sent = await services.people.invite(
    me,
    { name, email: `invited-${count}@acme.test` },
    origin,
  );
  const token = /#invitation=([\w-]{43})$/.exec(sent.link ?? '')?.[1];
  if (!token) throw new Error(`no token in ${String(sent.link)}`);
  return { token, id: sent.person.id, email: sent.person.email };
}

const accept = (token: string, password = 'my new password', ip = '10.1.0.2') =>
  services.invitations.accept({ token, password, ip, userAgent: 'Invited browser' });

describe('looking up an invitation', () => {
  it('says who it is for, where, and until when', async () => {
    const { token, email } = await invite('Nora New');
    const seen = await services.invitations.lookup(token, '10.1.0.1');
    expect(seen).toEqual({
      person: { name: 'Nora New', email },
      organization: { name: 'Acme' },
      expiresAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(Date.parse(seen.expiresAt)).toBeGreaterThan(Date.now() + 24 * 3600_000);
  });

  it('stores only the hash of the token', async () => {
    const { token, id } = await invite();
    const [row] = await db.select().from(invitations).where(eq(invitations.userId, id));
    expect(row?.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(row?.tokenHash).not.toContain(token);
  });

  it('answers an unknown link with the one message of every unusable link: 410', async () => {
    expect(await refusal(services.invitations.lookup('x'.repeat(43), '10.1.0.1'))).toEqual(GONE);
  });
});

describe('accepting an invitation', () => {
  it('makes the person active with their password, signs them in and audits it', async () => {
    const { token, id, email } = await invite();
    const { token: session } = await accept(token);

    const caller = await services.auth.authenticate(session);
    expect(caller).toMatchObject({ userId: id, email, organizationId: org.id });
    const [row] = await db.select().from(users).where(eq(users.id, id));
    // Active, and accepting was their first sign-in.
    expect(row).toMatchObject({ status: 'active', lastSignInAt: expect.any(Date) });
    const [used] = await db.select().from(invitations).where(eq(invitations.userId, id));
    expect(used?.usedAt).toBeInstanceOf(Date);
    const entries = await db
      .select()
      .from(auditLog)
      .where(eq(auditLog.targetId, id))
      .orderBy(auditLog.occurredAt);
    expect(entries.map((entry) => entry.action)).toEqual([
      'person.invited',
      'person.invitation-accepted',
    ]);
    expect(entries[1]).toMatchObject({
      organizationId: org.id,
      actorId: id,
      actorEmail: email,
      ip: '10.1.0.2',
      userAgent: 'Invited browser',
      before: { status: 'invited' },
      after: { status: 'active' },
    });
    // The password they chose signs them in.
    const again = await services.auth.login({
      email,
      password: 'my new password',
      ip: '10.1.0.9',
      userAgent: undefined,
    });
    expect(await services.auth.authenticate(again)).toMatchObject({ userId: id });
  });

  it('works once: a second accept and a lookup are 410', async () => {
    const { token } = await invite();
    await accept(token);
    expect(await refusal(accept(token, 'another password'))).toEqual(GONE);
    expect(await refusal(services.invitations.lookup(token, '10.1.0.1'))).toEqual(GONE);
  });

  it('lets one of two accepts at once win; the other is 410', async () => {
    const { token, id } = await invite();
    const answers = await Promise.allSettled([
      accept(token, 'password one'),
      accept(token, 'password two'),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual(['fulfilled', 'rejected']);
    const lost = answers.find(
      (answer): answer is PromiseRejectedResult => answer.status === 'rejected',
    );
    expect(await refusal(Promise.reject(lost?.reason))).toEqual(GONE);
    const accepted = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetId, id), eq(auditLog.action, 'person.invitation-accepted')));
    expect(accepted).toHaveLength(1);
  });

  it('is refused once the person is no longer invited', async () => {
    const { token, id } = await invite();
    await db.update(users).set({ status: 'active' }).where(eq(users.id, id));
    expect(await refusal(accept(token))).toEqual(GONE);
  });

  it('in an organization that signs in with single sign-on only, sets no password: 409, still invited', async () => {
    const sso = await createOrganization(db, { name: 'SSO Only' });
    await db
      .update(organizations)
      .set({ passwordSignIn: false })
      .where(eq(organizations.id, sso.id));
    const person = await createUser(db, sso.id, { status: 'invited', password: null });
    const { token } = await services.invitations.issue(db, {
      organizationId: sso.id,
      userId: person.id,
      createdBy: null,
    });
    expect(await refusal(accept(token))).toEqual({
      statusCode: 409,
      code: 'CONFLICT',
      message: SSO_ONLY,
    });
    const [row] = await db.select().from(users).where(eq(users.id, person.id));
    expect(row).toMatchObject({ status: 'invited', passwordHash: null });
    const [open] = await db.select().from(invitations).where(eq(invitations.userId, person.id));
    expect(open?.usedAt).toBeNull();
    // The link stays valid, for single sign-on.
    expect((await services.invitations.lookup(token, '10.1.0.3')).person.email).toBe(person.email);
  });
});

describe('a new invitation for the same person', () => {
  it('revokes the earlier link; replaced and expired links get the one message', async () => {
    const first = await invite();
    const resent = await services.people.resendInvitation(me, first.id, origin);
    const second = /#invitation=([\w-]{43})$/.exec(resent.link ?? '')?.[1] ?? '';
    expect(second).not.toBe(first.token);
    expect(await refusal(services.invitations.lookup(first.token, '10.1.0.1'))).toEqual(GONE);
    expect((await services.invitations.lookup(second, '10.1.0.1')).person.email).toBe(first.email);
    const rows = await db.select().from(invitations).where(eq(invitations.userId, first.id));
    expect(rows.filter((row) => row.revokedAt === null)).toHaveLength(1);

    await db
      .update(invitations)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(invitations.userId, first.id));
    expect(await refusal(services.invitations.lookup(second, '10.1.0.1'))).toEqual(GONE);
    expect(await refusal(accept(second))).toEqual(GONE);
  });
});

describe('guessing links', () => {
  it('counts lookups per address: past thirty it is 429, another address still gets an answer', async () => {
    const guess = (n: number, ip: string) =>
      services.invitations.lookup(`guess${'y'.repeat(36)}${String(n).padStart(2, '0')}`, ip);
    for (let n = 0; n < 30; n += 1) {
      expect((await refusal(guess(n, '10.9.9.9'))).statusCode).toBe(410);
    }
    expect(await refusal(guess(30, '10.9.9.9'))).toEqual({
      statusCode: 429,
      code: 'RATE_LIMITED',
      message: expect.stringMatching(/^Too many invitation attempts\. Try again in \d+ seconds\.$/),
    });
    expect((await refusal(guess(31, '10.9.9.8'))).statusCode).toBe(410);
  });
});
