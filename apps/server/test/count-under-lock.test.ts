import { ACCESS_TOKEN_LIMITS } from '@signpost/contract';
import { and, eq, isNull } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { accessTokens, users } from '../src/db/schema/index.ts';
import { newId } from '../src/lib/ids.ts';
import { createTestApp } from './app.ts';
import { createOrganization, createUser, signIn } from './factories.ts';

// Limits checked by counting, then writing: requests sent at once must not all pass the
// count. Only PostgreSQL runs them at once (the embedded database has one connection).
const { app, db, database, repositories } = await createTestApp();
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
    'the command line waits for the console to finish with the administrators before it counts them',
    async () => {
      const org = await createOrganization(db);
      const admin = await createUser(db, org.id, { role: 'admin' });
      const other = await createUser(db, org.id, { role: 'admin' });
      const { people } = repositories;
      let release = () => {};
      const released = new Promise<void>((resolve) => (release = resolve));
      let locked = () => {};
      const isLocked = new Promise<void>((resolve) => (locked = resolve));
      // The console demotes the other administrator, holding the administrators' lock…
      const demotion = db.transaction(async (tx) => {
        await people.lockAndCountAdmins(tx, org.id);
        await people.update(tx, other.id, { role: 'member' });
        locked();
        await released;
      });
      await isLocked;
      // …so disabling the first one from the command line waits for it, then counts the
      // administrators the demotion left: one, the person it would disable.
      const disabling = app.services.commandLine.disable(admin.email).then(
        (answer) => ({ answer, error: null }),
        (error: unknown) => ({ answer: null, error }),
      );
      const early = await Promise.race([
        disabling.then(() => 'settled'),
        new Promise((resolve) => setTimeout(() => resolve('waiting'), 300)),
      ]);
      release();
      await demotion;
      expect(early).toBe('waiting');
      const { answer, error } = await disabling;
      expect(answer).toBeNull();
      expect(String(error)).toMatch(/last active administrator/);
      const [row] = await db
        .select({ status: users.status })
        .from(users)
        .where(eq(users.id, admin.id));
      expect(row?.status).toBe('active');
    },
  );
});
