// Writes and the menu version (migration 0003): one bump per transaction, at commit, and
// positions that stay distinct under concurrent writes.
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { selectRows } from '../../db/client.ts';
import { links, organizations } from '../../db/schema/index.ts';
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

async function versionOf(organizationId: string): Promise<number> {
  const [row] = await db
    .select({ version: organizations.menuVersion })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  return Number(row?.version);
}

async function person() {
  const org = await createOrganization(db);
  const me = await createPerson(app, db, org.id);
  const collection = await createCollection(db, { user: me });
  return { org, me, collection };
}

const linkValues = (collection: { id: string; organizationId: string }, position: number) => ({
  id: newId(),
  organizationId: collection.organizationId,
  collectionId: collection.id,
  name: `Link ${position}`,
  url: `https://example.com/${position}`,
  position,
});

describe('menu version', () => {
  it('moves by one for each write through the API', async () => {
    const { org, me, collection } = await person();
    const first = await createLink(db, collection);
    const second = await createLink(db, collection);
    let version = await versionOf(org.id);
    const expectBump = async () => {
      const now = await versionOf(org.id);
      expect(now).toBe(version + 1);
      version = now;
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

  it('is bumped once per transaction, at commit, for each organization changed', async () => {
    const a = await person();
    const b = await person();
    const [before, otherBefore] = [await versionOf(a.org.id), await versionOf(b.org.id)];
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
        sql`SELECT menu_version AS version FROM organizations WHERE id = ${a.org.id}`,
      );
      expect(Number(row?.version)).toBe(before);
    });
    expect(await versionOf(a.org.id)).toBe(before + 1);
    expect(await versionOf(b.org.id)).toBe(otherBefore + 1);

    // The next transaction bumps again: nothing of the first one is left over.
    await db.insert(links).values(linkValues(a.collection, 9));
    expect(await versionOf(a.org.id)).toBe(before + 2);
  });

  it('is not bumped by a transaction that changes nothing or rolls back', async () => {
    const { org, collection } = await person();
    const before = await versionOf(org.id);
    await db.transaction(async (tx) => {
      await tx.update(links).set({ name: 'x' }).where(eq(links.collectionId, 'nothing-here'));
    });
    await expect(
      db.transaction(async (tx) => {
        await tx.insert(links).values(linkValues(collection, 0));
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await versionOf(org.id)).toBe(before);
  });

  it('forgets a change undone by a savepoint, and counts the ones after it', async () => {
    const { org, collection } = await person();
    const before = await versionOf(org.id);
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
    expect(await versionOf(org.id)).toBe(before);
    await db.transaction(async (tx) => {
      await undone(tx, 1);
      await tx.insert(links).values(linkValues(collection, 2));
    });
    expect(await versionOf(org.id)).toBe(before + 1);
  });

  itOnPostgres(
    'leaves the organization row unlocked and unchanged until the writer commits',
    async () => {
      const { org, collection } = await person();
      const before = await versionOf(org.id);
      await database.withConnection(async (writer) => {
        await writer.exec('BEGIN');
        try {
          await writer.query(
            `INSERT INTO links (id, organization_id, collection_id, name, url, position)
             VALUES ($1, $2, $3, 'A', 'https://a.example', 0)`,
            [newId(), org.id, collection.id],
          );
          // Another writer of the organization could bump the version now: nobody holds
          // the row (the insert's foreign key check only shares it, FOR KEY SHARE).
          const locked = await database.query<{ version: string }>(
            'SELECT menu_version AS version FROM organizations WHERE id = $1 FOR NO KEY UPDATE NOWAIT',
            [org.id],
          );
          expect(Number(locked[0]?.version)).toBe(before);
          await writer.exec('COMMIT');
        } catch (error) {
          // Never hand an open transaction back to the pool.
          await writer.exec('ROLLBACK');
          throw error;
        }
      });
      expect(await versionOf(org.id)).toBe(before + 1);
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
