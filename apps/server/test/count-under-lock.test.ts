import { ACCESS_TOKEN_LIMITS } from '@signpost/contract';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { accessTokens } from '../src/db/schema/index.ts';
import { newId } from '../src/lib/ids.ts';
import { createPeopleRepository } from '../src/modules/people/people.repository.ts';
import { createCommandLineRepository } from '../src/modules/setup/command-line.repository.ts';
import { createTestApp } from './app.ts';
import { createOrganization, createUser, signIn } from './factories.ts';

// Limits checked by counting, then writing: requests sent at once must not all pass the
// count. Only PostgreSQL runs them at once (the embedded database has one connection).
const { app, db, database } = await createTestApp();
const itOnPostgres =
  database.kind === 'postgres' ? it : ((() => undefined) as unknown as typeof it);

describe('counted under a lock', () => {
  it('keeps the access-token cap when creations are sent at once', async () => {
    const org = await createOrganization(db);
    const person = await createUser(db, org.id);
    const { headers } = await signIn(app, person);
    const cap = ACCESS_TOKEN_LIMITS.perPerson;
    await db.insert(accessTokens).values(
      Array.from({ length: cap - 5 }, (_, i) => ({
        id: newId(),
        userId: person.id,
        name: `Token ${i}`,
        tokenHash: `hash-${newId()}`,
        tokenHint: 'spat_xxxx',
      })),
    );
    const responses = await Promise.all(
      Array.from({ length: 15 }, (_, i) =>
        app.inject({
          method: 'POST',
          url: '/api/auth/tokens',
          headers,
          payload: { name: `At once ${i}` },
        }),
      ),
    );
    const statuses = responses.map((response) => response.statusCode).sort();
    expect(statuses).toEqual([...Array(5).fill(201), ...Array(10).fill(409)]);
    const live = await db
      .select({ id: accessTokens.id })
      .from(accessTokens)
      .where(and(eq(accessTokens.userId, person.id), isNull(accessTokens.revokedAt)));
    expect(live).toHaveLength(cap);
  });

  itOnPostgres(
    'the command line and the console count administrators under the same lock',
    async () => {
      const org = await createOrganization(db);
      const admin = await createUser(db, org.id, { role: 'admin' });
      let release = () => {};
      const released = new Promise<void>((resolve) => (release = resolve));
      let locked = () => {};
      const isLocked = new Promise<void>((resolve) => (locked = resolve));
      // The console holds the administrators' lock (a demotion under way)…
      const demotion = db.transaction(async (tx) => {
        await createPeopleRepository(tx).lockAndCountAdmins(org.id);
        locked();
        await released;
      });
      await isLocked;
      try {
        // …so the command line must wait for it before counting.
        const commandLine = db.transaction(async (tx) => {
          await tx.execute(sql`SET LOCAL lock_timeout = '300ms'`);
          return createCommandLineRepository(tx).otherActiveAdmins(org.id, admin.id);
        });
        const error: unknown = await commandLine.then(
          () => null,
          (caught: unknown) => caught,
        );
        // 55P03: lock_not_available (the driver's error, wrapped or not).
        const code = (e: unknown): unknown =>
          e && typeof e === 'object'
            ? ((e as { code?: unknown }).code ?? code((e as { cause?: unknown }).cause))
            : undefined;
        expect(code(error)).toBe('55P03');
      } finally {
        release();
        await demotion;
      }
    },
  );
});
