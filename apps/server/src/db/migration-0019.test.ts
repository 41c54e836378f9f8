import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freshPostgres } from '../../test/app.ts';
import { openDatabase, type DatabaseHandle } from './client.ts';
import { FUNCTIONS_DIR, MIGRATIONS_DIR, migrate } from './migrate.ts';

// Migration 0019 (decision 0081): rows written before it lose their bidirectional controls.
// The database is migrated up to 0018, rows are written as the server of then stored them,
// then 0019 runs on them.

const onPostgres = process.env.SIGNPOST_TEST_DB === 'postgres';
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const MIGRATION = '0019_without_bidi_controls.sql';
const RLO = '\u202e';
const PDF = '\u202c';
const RLI = '\u2067';
const PDI = '\u2069';
const LRE = '\u202a';
const FSI = '\u2068';
const LRM = '\u200e';

async function fresh(): Promise<DatabaseHandle> {
  const pgdb = onPostgres ? await freshPostgres() : null;
  if (pgdb) cleanups.push(pgdb.drop);
  const handle = await openDatabase({ url: pgdb?.url ?? null, dataDir: null, poolSize: 2 });
  cleanups.push(() => handle.close());
  return handle;
}

/** A folder with every migration before 0019. */
async function migrationsBefore(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'signpost-migrations-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  for (const file of await readdir(MIGRATIONS_DIR)) {
    if (file.endsWith('.sql') && file < MIGRATION) {
      await cp(path.join(MIGRATIONS_DIR, file), path.join(dir, file));
    }
  }
  return dir;
}

/** Rows of every cleaned table, written as they were before 0019. */
async function writeRowsOfBefore(db: DatabaseHandle) {
  await db.exec(`
    INSERT INTO organizations (id, name, personal_intro, team_intro, organization_intro)
      VALUES ('org', 'Acme${RLO}gnp.exe', 'Hello${RLO}olleh', 'Team ${LRE}x${PDF}', 'Line one${RLI}
line two${PDI}'),
             ('other', 'Other', '', '', '');
    INSERT INTO users (id, organization_id, name, email)
      VALUES ('u1', 'org', ' ${RLO}Jane${PDF} ', 'jane${FSI}@acme.example${PDI}'),
             ('u2', 'org', 'Look${RLO}alike', 'bob@acme.example'),
             ('u3', 'org', 'Bob twin', 'bob${RLO}@acme.example'),
             ('u4', 'org', 'Plain ${LRM}name', 'plain@acme.example');
    INSERT INTO identities (id, user_id, provider_id, issuer, subject, email)
      VALUES ('i1', 'u1', 'idp', 'https://idp.example', 's1', 'jane${RLO}@acme.example');
    INSERT INTO teams (id, organization_id, name)
      VALUES ('t1', 'org', 'Design'),
             ('t2', 'org', 'Design${RLO}'),
             ('t3', 'org', 'Design (2)'),
             ('t4', 'other', 'Sales${RLI}${PDI}');
    INSERT INTO collections (id, organization_id, owner_type, owner_user_id, name, description, is_root)
      VALUES ('c1', 'org', 'user', 'u1', 'My Space', '', true),
             ('c2', 'org', 'user', 'u1', '${RLI}exe.png${PDI}', 'Keeps${RLO}
its lines', false),
             ('c3', 'org', 'user', 'u4', 'Untouched ${LRM}name', 'as typed', true);
    INSERT INTO links (id, organization_id, collection_id, name, description, url, app_name, position)
      VALUES ('l1', 'org', 'c2', 'invoice${RLO}gnp.exe', 'Read${RLO}me', 'https://example.com/a', 'App${RLO}', 0),
             ('l2', 'org', 'c2', 'Fine', '', 'https://example.com/b', NULL, 1);
    INSERT INTO link_suggestions (id, organization_id, collection_id, name, description, url, reason)
      VALUES ('s1', 'org', 'c2', 'Suggested${RLO}fdp.exe', 'D${RLO}', 'https://example.com/s', 'No${RLO}');
    INSERT INTO access_tokens (id, user_id, name, token_hash, token_hint)
      VALUES ('a1', 'u1', 'CI${RLO}', 'hash-a1', 'spat_a');
    INSERT INTO undo_snapshots (id, organization_id, user_id, kind, target_id, label, rows, expires_at)
      VALUES ('un1', 'org', 'u1', 'link', 'l9', 'Old${RLO}gnp.exe',
              jsonb_build_object('links', jsonb_build_array(jsonb_build_object('id', 'l9', 'name', 'Old${RLO}gnp.exe'))),
              now() + interval '1 minute');
  `);
}

describe(`migration ${MIGRATION}`, () => {
  it('takes the bidirectional controls out of every stored text written before it, and nothing else', async () => {
    const db = await fresh();
    await migrate(db, await migrationsBefore(), FUNCTIONS_DIR);
    await writeRowsOfBefore(db);

    expect((await migrate(db, MIGRATIONS_DIR, FUNCTIONS_DIR))[0]).toBe(MIGRATION);

    expect(
      await db.query(
        'SELECT id, name, personal_intro, team_intro, organization_intro FROM organizations ORDER BY id',
      ),
    ).toEqual([
      {
        id: 'org',
        name: 'Acmegnp.exe',
        personal_intro: 'Helloolleh',
        team_intro: 'Team x',
        organization_intro: 'Line one\nline two',
      },
      { id: 'other', name: 'Other', personal_intro: '', team_intro: '', organization_intro: '' },
    ]);
    expect(await db.query('SELECT id, name, email, sort_name FROM users ORDER BY id')).toEqual([
      { id: 'u1', name: 'Jane', email: 'jane@acme.example', sort_name: 'jane' },
      { id: 'u2', name: 'Lookalike', email: 'bob@acme.example', sort_name: 'lookalike' },
      // Cleaned, it would be u2's address: it stays, the look-alike it is.
      { id: 'u3', name: 'Bob twin', email: `bob${RLO}@acme.example`, sort_name: 'bob twin' },
      // The marks are no controls of this kind: they stay.
      {
        id: 'u4',
        name: `Plain ${LRM}name`,
        email: 'plain@acme.example',
        sort_name: `plain ${LRM}name`,
      },
    ]);
    expect(await db.query('SELECT email FROM identities')).toEqual([
      { email: 'jane@acme.example' },
    ]);
    expect(await db.query('SELECT id, name FROM teams ORDER BY id')).toEqual([
      { id: 't1', name: 'Design' },
      // "Design" and "Design (2)" are taken: the look-alike of Design shows as the third.
      { id: 't2', name: 'Design (3)' },
      { id: 't3', name: 'Design (2)' },
      { id: 't4', name: 'Sales' },
    ]);
    expect(await db.query('SELECT id, name, description FROM collections ORDER BY id')).toEqual([
      { id: 'c1', name: 'My Space', description: '' },
      { id: 'c2', name: 'exe.png', description: 'Keeps\nits lines' },
      { id: 'c3', name: `Untouched ${LRM}name`, description: 'as typed' },
    ]);
    expect(
      await db.query('SELECT id, name, description, url, app_name FROM links ORDER BY id'),
    ).toEqual([
      {
        id: 'l1',
        name: 'invoicegnp.exe',
        description: 'Readme',
        url: 'https://example.com/a',
        app_name: 'App',
      },
      { id: 'l2', name: 'Fine', description: '', url: 'https://example.com/b', app_name: null },
    ]);
    expect(await db.query('SELECT name, description, reason FROM link_suggestions')).toEqual([
      { name: 'Suggestedfdp.exe', description: 'D', reason: 'No' },
    ]);
    expect(await db.query('SELECT name FROM access_tokens')).toEqual([{ name: 'CI' }]);
    expect(await db.query('SELECT label, rows FROM undo_snapshots')).toEqual([
      { label: 'Oldgnp.exe', rows: { links: [{ id: 'l9', name: 'Oldgnp.exe' }] } },
    ]);

    // Its helper functions are gone; nothing of another kind is left to hold a control.
    expect(
      await db.query("SELECT proname FROM pg_proc WHERE proname LIKE 'signpost\\_%bidi%'"),
    ).toEqual([]);
    expect(await migrate(db, MIGRATIONS_DIR, FUNCTIONS_DIR)).toEqual([]);
  });

  it('changes no row that holds no control, so nobody’s menu moves', async () => {
    const db = await fresh();
    await migrate(db, await migrationsBefore(), FUNCTIONS_DIR);
    await db.exec(`
      INSERT INTO organizations (id, name) VALUES ('org', 'Acme');
      INSERT INTO users (id, organization_id, name, email) VALUES ('u1', 'org', 'Jane', 'jane@acme.example');
      INSERT INTO collections (id, organization_id, owner_type, owner_user_id, name, is_root)
        VALUES ('c1', 'org', 'user', 'u1', 'My Space', true);
      INSERT INTO links (id, organization_id, collection_id, name, url, position)
        VALUES ('l1', 'org', 'c1', 'Plain', 'https://example.com/', 0);
    `);
    const versions = () =>
      db.query<{ scope: string; version: string }>(
        'SELECT scope, version::text AS version FROM menu_scopes ORDER BY scope',
      );
    const xmin = () =>
      db.query<{ t: string; x: string }>(
        `SELECT 'links' AS t, xmin::text AS x FROM links
         UNION ALL SELECT 'collections', xmin::text FROM collections
         UNION ALL SELECT 'users', xmin::text FROM users
         UNION ALL SELECT 'organizations', xmin::text FROM organizations ORDER BY 1`,
      );
    const [scopesBefore, rowsBefore] = [await versions(), await xmin()];
    expect(scopesBefore.length).toBeGreaterThan(0);
    expect(rowsBefore).toHaveLength(4);
    await migrate(db, MIGRATIONS_DIR, FUNCTIONS_DIR);
    expect(await versions()).toEqual(scopesBefore);
    expect(await xmin()).toEqual(rowsBefore);
  });
});
