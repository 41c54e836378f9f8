import { and, eq, gt, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { insertPerson } from '../../db/people.ts';
import {
  identities,
  organizations,
  secondFactors,
  sessions,
  ssoAttempts,
  ssoSecondFactorTickets,
  users,
} from '../../db/schema/index.ts';
import { newId } from '../../lib/ids.ts';

export function createSsoRepository() {
  return {
    async insertAttempt(db: Executor, values: typeof ssoAttempts.$inferInsert): Promise<void> {
      await db.insert(ssoAttempts).values(values);
    },

    /** Attempts are kept a day after they expire, then removed. */
    async deleteOldAttempts(db: Executor): Promise<void> {
      await db.delete(ssoAttempts).where(lt(ssoAttempts.expiresAt, sql`now() - interval '1 day'`));
    },

    /**
     * Takes the attempt of this state once: only from the browser that started it (the hash
     * of its cookie), before it expires, never twice.
     */
    async consumeAttempt(db: Executor, providerId: string, state: string, browserHash: string) {
      const rows = await db
        .update(ssoAttempts)
        .set({ usedAt: sql`now()` })
        .where(
          and(
            eq(ssoAttempts.state, state),
            eq(ssoAttempts.providerId, providerId),
            eq(ssoAttempts.browserHash, browserHash),
            isNull(ssoAttempts.usedAt),
            gt(ssoAttempts.expiresAt, sql`now()`),
          ),
        )
        .returning();
      return rows[0] ?? null;
    },

    /** The organization a provider signs into, by id or else by its one exact name. */
    async findOrganization(db: Executor, idOrName: string) {
      const byId = await db
        .select({ id: organizations.id })
        .from(organizations)
        .where(eq(organizations.id, idOrName))
        .limit(1);
      if (byId[0]) return byId[0].id;
      const byName = await db
        .select({ id: organizations.id })
        .from(organizations)
        .where(eq(organizations.name, idOrName))
        .limit(2);
      return byName.length === 1 ? (byName[0]?.id ?? null) : null;
    },

    /** The e-mail domains for which single sign-on may create people in this organization. */
    async ssoDomains(db: Executor, organizationId: string): Promise<string[]> {
      const rows = await db
        .select({ domains: organizations.ssoDomains })
        .from(organizations)
        .where(eq(organizations.id, organizationId))
        .limit(1);
      return rows[0]?.domains ?? [];
    },

    async findIdentity(db: Executor, issuer: string, subject: string) {
      const rows = await db
        .select({
          identityId: identities.id,
          userId: users.id,
          name: users.name,
          email: users.email,
          status: users.status,
        })
        .from(identities)
        .innerJoin(users, eq(users.id, identities.userId))
        .where(and(eq(identities.issuer, issuer), eq(identities.subject, subject)))
        .limit(1);
      return rows[0] ?? null;
    },

    async touchIdentity(db: Executor, identityId: string, email: string): Promise<void> {
      await db
        .update(identities)
        .set({ lastSignInAt: sql`now()`, email })
        .where(eq(identities.id, identityId));
    },

    async findUserByEmail(db: Executor, email: string) {
      const rows = await db
        .select({
          id: users.id,
          organizationId: users.organizationId,
          name: users.name,
          email: users.email,
          status: users.status,
        })
        .from(users)
        .where(eq(sql`lower(${users.email})`, email.toLowerCase()))
        .limit(1);
      return rows[0] ?? null;
    },

    /**
     * An invited person signs in by single sign-on: they become active and their open
     * invitation is used. False when they were no longer invited.
     */
    async acceptInvitation(db: Executor, userId: string): Promise<boolean> {
      const activated = await db
        .update(users)
        .set({ status: 'active', updatedAt: sql`now()` })
        .where(and(eq(users.id, userId), eq(users.status, 'invited')))
        .returning({ id: users.id });
      if (activated.length === 0) return false;
      await db.execute(
        sql`UPDATE invitations SET used_at = now()
            WHERE user_id = ${userId} AND used_at IS NULL AND revoked_at IS NULL`,
      );
      return true;
    },

    async hasIdentityFromIssuer(db: Executor, userId: string, issuer: string): Promise<boolean> {
      const rows = await db
        .select({ id: identities.id })
        .from(identities)
        .where(and(eq(identities.userId, userId), eq(identities.issuer, issuer)))
        .limit(1);
      return rows.length > 0;
    },

    async insertIdentity(
      db: Executor,
      values: Omit<typeof identities.$inferInsert, 'id'>,
    ): Promise<void> {
      await db.insert(identities).values({ id: newId(), ...values });
    },

    /** Whether the person has a Signpost second factor turned on. */
    async hasSecondFactor(db: Executor, userId: string): Promise<boolean> {
      const rows = await db
        .select({ userId: secondFactors.userId })
        .from(secondFactors)
        .where(and(eq(secondFactors.userId, userId), isNotNull(secondFactors.enabledAt)))
        .limit(1);
      return rows.length > 0;
    },

    /** The providers (ids) a person has signed in with. */
    async providersOf(db: Executor, userId: string): Promise<string[]> {
      const rows = await db
        .selectDistinct({ providerId: identities.providerId })
        .from(identities)
        .where(eq(identities.userId, userId));
      return rows.map((row) => row.providerId);
    },

    /** The person of a session that is not revoked and not expired, or null. */
    async findSessionPerson(db: Executor, sessionId: string) {
      const rows = await db
        .select({
          userId: users.id,
          name: users.name,
          email: users.email,
          organizationId: users.organizationId,
        })
        .from(sessions)
        .innerJoin(users, eq(users.id, sessions.userId))
        .where(
          and(
            eq(sessions.id, sessionId),
            isNull(sessions.revokedAt),
            gt(sessions.expiresAt, sql`now()`),
            eq(users.status, 'active'),
          ),
        )
        .limit(1);
      return rows[0] ?? null;
    },

    async insertTicket(
      db: Executor,
      values: typeof ssoSecondFactorTickets.$inferInsert,
    ): Promise<void> {
      await db
        .delete(ssoSecondFactorTickets)
        .where(lt(ssoSecondFactorTickets.expiresAt, sql`now() - interval '1 day'`));
      await db.insert(ssoSecondFactorTickets).values(values);
    },

    /**
     * Counts one try of a ticket, in this browser, while it is unused, unexpired and has
     * tries left; returns it with its person, or null.
     */
    async tryTicket(db: Executor, ticketHash: string, browserHash: string, maxAttempts: number) {
      const rows = await db
        .update(ssoSecondFactorTickets)
        .set({ attempts: sql`${ssoSecondFactorTickets.attempts} + 1` })
        .where(
          and(
            eq(ssoSecondFactorTickets.ticketHash, ticketHash),
            eq(ssoSecondFactorTickets.browserHash, browserHash),
            isNull(ssoSecondFactorTickets.usedAt),
            gt(ssoSecondFactorTickets.expiresAt, sql`now()`),
            lt(ssoSecondFactorTickets.attempts, maxAttempts),
          ),
        )
        .returning();
      const ticket = rows[0];
      if (!ticket) return null;
      const people = await db
        .select({
          id: users.id,
          name: users.name,
          email: users.email,
          status: users.status,
          organizationId: users.organizationId,
        })
        .from(users)
        .where(eq(users.id, ticket.userId))
        .limit(1);
      const person = people[0];
      return person ? { ticket, person } : null;
    },

    /** Uses a ticket: true for exactly one caller, however many try at once. */
    async useTicket(db: Executor, id: string): Promise<boolean> {
      const rows = await db
        .update(ssoSecondFactorTickets)
        .set({ usedAt: sql`now()` })
        .where(
          and(
            eq(ssoSecondFactorTickets.id, id),
            isNull(ssoSecondFactorTickets.usedAt),
            gt(ssoSecondFactorTickets.expiresAt, sql`now()`),
          ),
        )
        .returning({ id: ssoSecondFactorTickets.id });
      return rows.length > 0;
    },

    /** A new member who signs in by single sign-on only (no password), with their My Space. */
    createPerson: (
      db: Executor,
      organizationId: string,
      name: string,
      email: string,
    ): Promise<string> =>
      insertPerson(db, {
        organizationId,
        name,
        email,
        role: 'member',
        status: 'active',
        passwordHash: null,
      }),
  };
}
export type SsoRepository = ReturnType<typeof createSsoRepository>;
