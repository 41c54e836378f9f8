// The restore drill of docs/operations.md: a backup taken the documented way restores into
// a working portal with everything in it.
import { execFileSync } from 'node:child_process';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase, type DatabaseHandle } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';
import { freshPostgres } from './app.ts';
import {
  createCollection,
  createLink,
  createOrganization,
  createUser,
  signIn,
} from './factories.ts';

const config = loadConfig({ LOG_LEVEL: 'silent' });

async function fill(database: DatabaseHandle) {
  const org = await createOrganization(database.db, { name: 'Backed Up Inc' });
  const user = await createUser(database.db, org.id);
  const collection = await createCollection(database.db, { user }, { name: 'Keep me' });
  await createLink(database.db, collection, { name: 'Precious link' });
  return user;
}

/** Opens a restored database, signs in as the person and reads their menu. */
async function menuOf(database: DatabaseHandle, user: { email: string }) {
  expect(await migrate(database)).toEqual([]);
  const app = await buildApp({ config, database });
  try {
    const { headers } = await signIn(app, user);
    const response = await app.inject({ method: 'GET', url: '/api/consumer/menu', headers });
    expect(response.statusCode).toBe(200);
    return response.body;
  } finally {
    await app.close();
  }
}

if (process.env.SIGNPOST_TEST_DB === 'postgres') {
  describe('PostgreSQL: pg_dump and pg_restore', () => {
    const made: Array<{ drop: () => Promise<void> }> = [];
    const folders: string[] = [];
    afterAll(async () => {
      for (const db of made) await db.drop();
      for (const folder of folders) await rm(folder, { recursive: true, force: true });
    });

    it('restores a dump into a fresh database', async () => {
      const source = await freshPostgres();
      const target = await freshPostgres();
      made.push(source, target);
      const original = await openDatabase({ url: source.url, dataDir: null });
      await migrate(original);
      const user = await fill(original);
      await original.close();

      const folder = await mkdtemp(path.join(tmpdir(), 'signpost-dump-'));
      folders.push(folder);
      const dump = path.join(folder, 'signpost.dump');
      execFileSync('pg_dump', ['--format=custom', `--file=${dump}`, source.url]);
      execFileSync('pg_restore', ['--no-owner', `--dbname=${target.url}`, dump]);

      const restored = await openDatabase({ url: target.url, dataDir: null });
      try {
        const body = await menuOf(restored, user);
        expect(body).toContain('Keep me');
        expect(body).toContain('Precious link');
      } finally {
        await restored.close();
      }
    });
  });
} else {
  describe('embedded database: copy of the stopped data folder', () => {
    const folders: string[] = [];
    afterAll(async () => {
      for (const folder of folders) await rm(folder, { recursive: true, force: true });
    });

    it('restores a copy of DATA_DIR', async () => {
      const live = await mkdtemp(path.join(tmpdir(), 'signpost-data-'));
      const copy = await mkdtemp(path.join(tmpdir(), 'signpost-copy-'));
      folders.push(live, copy);
      const original = await openDatabase({ url: null, dataDir: live });
      await migrate(original);
      const user = await fill(original);
      await original.close();
      await cp(live, copy, { recursive: true });

      const restored = await openDatabase({ url: null, dataDir: copy });
      try {
        const body = await menuOf(restored, user);
        expect(body).toContain('Keep me');
        expect(body).toContain('Precious link');
      } finally {
        await restored.close();
      }
    });
  });
}
