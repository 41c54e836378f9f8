// Writes and menu versions (migrations 0003 and 0013): each scope a transaction touched is
// bumped once, at commit; and positions stay distinct under concurrent writes.
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { selectRows } from '../../db/client.ts';
import { links } from '../../db/schema/index.ts';
import { newId } from '../../lib/ids.ts';
import { createTestApp } from '../../../test/app.ts';
import { createCollection, createLink, createOrganization } from '../../../test/factories.ts';
import { createPerson } from '../../../test/support/world.ts';
import { call } from '../../../test/support/consumer-call.ts';

const { app, db, database } = await createTestApp();
const onPostgres = database.kind === 'postgres';
// Row locks between two connections exist only on PostgreSQL (the embedded database has one
// connection): there the test is declared, elsewhere it is not, rather than skipped.
const itOnPostgres = onPostgres ? it : ((() => undefined) as unknown as typeof it);

/** A scope's version; 0 for one never bumped. */
async function versionOf(scope: string): Promise<number> {
  const [row] = await selectRows<{ version: string }>(
    db,
    sql`SELECT version FROM menu_scopes WHERE scope = ${scope}`,
  );
  return Number(row?.version ?? 0);
}

/** How many bumps the database has made so far (versions come from one sequence). */
async function bumps(): Promise<number> {
  const [row] = await selectRows<{ value: string; called: boolean }>(
    db,
    sql`SELECT last_value AS value, is_called AS called FROM menu_scope_version`,
  );
  return row?.called ? Number(row.value) : 0;
}

async function person() {
  const org = await createOrganization(db);
  const me = await createPerson(app, db, org.id);
  const collection = await createCollection(db, { user: me });
  return { org, me, collection, scope: `p:${me.id}` };
}

const linkValues = (collection: { id: string; organizationId: string }, position: number) => ({
  id: newId(),
  organizationId: collection.organizationId,
  collectionId: collection.id,
  name: `Link ${position}`,
  url: `https://example.com/${position}`,
  position,
});

describe('menu versions', () => {
  it("bump the writer's scope once for each write through the API, and nothing else", async () => {
    const { me, collection, scope } = await person();
    const first = await createLink(db, collection);
    const second = await createLink(db, collection);
    let count = await bumps();
    const expectBump = async () => {
      const now = await bumps();
      expect(now).toBe(count + 1);
      expect(await versionOf(scope)).toBe(now);
      count = now;
    };

    const body = { name: 'A', url: 'https://a.example' };
    expect(
      (await call(app, 'POST', `/collections/${collection.id}/links`, me, body)).statusCode,
    ).toBe(204);
    await expectBump();
    expect((await call(app, 'PATCH', `/links/${first.id}`, me, { name: 'B' })).statusCode).toBe(
      204,
    );
    await expectBump();
    // Three UPDATE statements in one transaction: still one bump.
    const items = await selectRows<{ type: string; id: string }>(
      db,
      sql`SELECT 'link' AS type, id FROM links WHERE collection_id = ${collection.id} ORDER BY position DESC`,
    );
    expect(
      (await call(app, 'PUT', `/collections/${collection.id}/order`, me, { items })).statusCode,
    ).toBe(204);
    await expectBump();
    expect((await call(app, 'DELETE', `/links/${second.id}`, me)).statusCode).toBe(204);
    await expectBump();
    // Deleting a collection takes its links along (foreign keys): one bump for all of it.
    expect((await call(app, 'DELETE', `/collections/${collection.id}`, me)).statusCode).toBe(204);
    await expectBump();
  });

  it('are bumped once per transaction, at commit, for each scope changed', async () => {
    const a = await person();
    const b = await person();
    const [before, count] = [await versionOf(a.scope), await bumps()];
    await db.transaction(async (tx) => {
      for (let i = 0; i < 5; i += 1) await tx.insert(links).values(linkValues(a.collection, i));
      await tx
        .update(links)
        .set({ name: 'Renamed' })
        .where(eq(links.collectionId, a.collection.id));
      await tx.insert(links).values(linkValues(b.collection, 0));
      await tx.delete(links).where(eq(links.collectionId, a.collection.id));
      // Inside the transaction nothing is bumped yet: the bump runs while it commits.
      const [row] = await selectRows<{ version: string }>(
        tx,
        sql`SELECT coalesce(max(version), 0) AS version FROM menu_scopes WHERE scope = ${a.scope}`,
      );
      expect(Number(row?.version)).toBe(before);
    });
    expect(await bumps()).toBe(count + 2);
    expect([await versionOf(a.scope), await versionOf(b.scope)].sort()).toEqual(
      [count + 1, count + 2].sort(),
    );

    // The next transaction bumps again: nothing of the first one is left over.
    await db.insert(links).values(linkValues(a.collection, 9));
    expect(await versionOf(a.scope)).toBe(count + 3);
  });

  it('are not bumped by a transaction that changes nothing or rolls back', async () => {
    const { collection, scope } = await person();
    const [before, count] = [await versionOf(scope), await bumps()];
    await db.transaction(async (tx) => {
      await tx.update(links).set({ name: 'x' }).where(eq(links.collectionId, 'nothing-here'));
    });
    await expect(
      db.transaction(async (tx) => {
        await tx.insert(links).values(linkValues(collection, 0));
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await versionOf(scope)).toBe(before);
    expect(await bumps()).toBe(count);
  });

  it('forget a change undone by a savepoint, and count the ones after it', async () => {
    const { collection, scope } = await person();
    const [before, count] = [await versionOf(scope), await bumps()];
    const undone = (tx: Parameters<Parameters<typeof db.transaction>[0]>[0], position: number) =>
      tx
        .transaction(async (inner) => {
          await inner.insert(links).values(linkValues(collection, position));
          throw new Error('undo');
        })
        .catch(() => {});
    await db.transaction(async (tx) => {
      await undone(tx, 0);
    });
    expect(await versionOf(scope)).toBe(before);
    await db.transaction(async (tx) => {
      await undone(tx, 1);
      await tx.insert(links).values(linkValues(collection, 2));
    });
    expect(await versionOf(scope)).toBe(count + 1);
  });

  it('bump the whole organization once for a transaction too large to list', async () => {
    const org = await createOrganization(db);
    const people = [];
    for (let i = 0; i < 3; i += 1) people.push(await createPerson(app, db, org.id));
    const count = await bumps();
    // 501 collections of one person in one statement: past the limit of 500 scopes' worth.
    const [owner] = people;
    await selectRows(
      db,
      sql`INSERT INTO collections (id, organization_id, owner_type, owner_user_id, parent_id, name, position)
          SELECT 'bulk-' || i, ${org.id}, 'user', ${owner!.id}, ${owner!.rootId}, 'Bulk ' || i, 100 + i
          FROM generate_series(1, 501) i`,
    );
    expect(await bumps()).toBe(count + 1);
    expect(await versionOf(`e:${org.id}`)).toBe(count + 1);
  });

  itOnPostgres(
    "leave every other scope unlocked, and the writer's unchanged until it commits",
    async () => {
      const a = await person();
      const b = await person();
      await db.insert(links).values(linkValues(b.collection, 0));
      const before = await versionOf(a.scope);
      expect(before).toBeGreaterThan(0);
      await database.withConnection(async (writer) => {
        await writer.exec('BEGIN');
        try {
          await writer.query(
            `INSERT INTO links (id, organization_id, collection_id, name, url, position)
             VALUES ($1, $2, $3, 'A', 'https://a.example', 0)`,
            [newId(), a.org.id, a.collection.id],
          );
          // Another writer, in another scope, commits while the first is open: no common row.
          await db.insert(links).values(linkValues(b.collection, 1));
          const locked = await database.query<{ scope: string }>(
            'SELECT scope FROM menu_scopes WHERE scope = ANY($1) FOR NO KEY UPDATE NOWAIT',
            [[a.scope, b.scope]],
          );
          expect(locked.map((row) => row.scope).sort()).toEqual([a.scope, b.scope].sort());
          expect(await versionOf(a.scope)).toBe(before);
          await writer.exec('COMMIT');
        } catch (error) {
          // Never hand an open transaction back to the pool.
          await writer.exec('ROLLBACK');
          throw error;
        }
      });
      expect(await versionOf(a.scope)).toBeGreaterThan(before);
    },
  );
});

describe('concurrent writes', () => {
  it('give every link added to one collection its own position, in order', async () => {
    const { me, collection } = await person();
    await createLink(db, collection, { position: 0 });
    const responses = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        call(app, 'POST', `/collections/${collection.id}/links`, me, {
          name: `Added ${i}`,
          url: `https://example.com/added/${i}`,
        }),
      ),
    );
    expect(responses.map((r) => `${r.statusCode} ${r.body}`)).toEqual(Array(12).fill('204 '));
    const rows = await db.select().from(links).where(eq(links.collectionId, collection.id));
    expect(rows.map((r) => r.position).sort((x, y) => x - y)).toEqual(
      Array.from({ length: 13 }, (_, i) => i),
    );
  });

  it('give links moved into one collection positions after its items, all distinct', async () => {
    const { me, collection } = await person();
    const target = await createCollection(db, { user: me });
    await createLink(db, target, { position: 0 });
    await createCollection(db, { user: me }, { parentId: target.id, position: 1 });
    const moved = [];
    for (let i = 0; i < 8; i += 1) moved.push(await createLink(db, collection, { position: i }));
    const responses = await Promise.all(
      moved.map((link) =>
        call(app, 'PUT', `/links/${link.id}/collection`, me, { collectionId: target.id }),
      ),
    );
    expect(responses.map((r) => r.statusCode)).toEqual(Array(8).fill(204));
    const rows = await db.select().from(links).where(eq(links.collectionId, target.id));
    expect(rows.map((r) => r.position).sort((x, y) => x - y)).toEqual([0, 2, 3, 4, 5, 6, 7, 8, 9]);
  });
});
