import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freshPostgres } from '../../test/app.ts';
import { openDatabase, type DatabaseHandle } from './client.ts';
import { FUNCTIONS_DIR, MIGRATIONS_DIR, migrate } from './migrate.ts';

const onPostgres = process.env.SIGNPOST_TEST_DB === 'postgres';
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** A fresh, empty database of the kind this pass runs on; `handles` open it that often. */
async function freshDatabase(handles = 1): Promise<DatabaseHandle[]> {
  const pgdb = onPostgres ? await freshPostgres() : null;
  if (pgdb) cleanups.push(pgdb.drop);
  const opened: DatabaseHandle[] = [];
  for (let i = 0; i < (pgdb ? handles : 1); i += 1) {
    const handle = await openDatabase({ url: pgdb?.url ?? null, dataDir: null, poolSize: 2 });
    cleanups.push(() => handle.close());
    opened.push(handle);
  }
  // The embedded database belongs to one process: its "instances" share the one handle.
  while (opened.length < handles) opened.push(opened[0]!);
  return opened;
}

/** A folder of function files, for tests that change them. */
async function functionsFolder(files: Record<string, string>) {
  const dir = await mkdtemp(path.join(tmpdir(), 'signpost-functions-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  for (const [name, sql] of Object.entries(files)) await writeFile(path.join(dir, name), sql);
  return dir;
}

const probe = (value: number, version = 1) =>
  `-- version: ${version}\nCREATE OR REPLACE FUNCTION signpost_probe() RETURNS int LANGUAGE sql AS 'SELECT ${value}';\n`;

const probeValue = async (db: DatabaseHandle) =>
  (await db.query<{ value: number }>('SELECT signpost_probe() AS value'))[0]?.value;

/** The numbered migrations, in the order they run. */
const versioned = async () =>
  (await readdir(MIGRATIONS_DIR)).filter((f) => f.endsWith('.sql')).sort();

describe('migrate', () => {
  it('gives a fresh database every migration, then the menu function from its own file', async () => {
    const [db] = await freshDatabase();
    const migrations = await versioned();
    expect(await migrate(db!)).toEqual([...migrations, 'functions/menu.sql']);
    const source = await readFile(path.join(FUNCTIONS_DIR, 'menu.sql'), 'utf8');
    expect(await db!.query('SELECT name, version, checksum FROM schema_functions')).toEqual([
      { name: 'menu.sql', version: 5, checksum: createHash('sha256').update(source).digest('hex') },
    ]);
    // The function the file defines answers: the list rows and the organization's settings
    // for a person with nothing.
    const rows = await db!.query<{ kind: string }>(
      "SELECT kind FROM signpost_menu('o', 'u', '{}', false)",
    );
    expect(rows.map((r) => r.kind).sort()).toEqual([
      'favorites',
      'organization',
      'shares',
      'teams',
    ]);
    const [definition] = await db!.query<{ body: string }>(
      "SELECT prosrc AS body FROM pg_proc WHERE proname = 'signpost_menu'",
    );
    expect(source).toContain(definition!.body.trim());
    expect(await migrate(db!)).toEqual([]);
  });

  it('applies a function file once per new version, and an unchanged one never again', async () => {
    const [db] = await freshDatabase();
    const dir = await functionsFolder({ 'probe.sql': probe(1) });
    expect(await migrate(db!, MIGRATIONS_DIR, dir)).toContain('functions/probe.sql');
    expect(await probeValue(db!)).toBe(1);

    // Unchanged: not run again, so a function changed by hand stays as it is.
    await db!.exec(probe(99));
    expect(await migrate(db!, MIGRATIONS_DIR, dir)).toEqual([]);
    expect(await probeValue(db!)).toBe(99);

    await writeFile(path.join(dir, 'probe.sql'), probe(2, 2));
    expect(await migrate(db!, MIGRATIONS_DIR, dir)).toEqual(['functions/probe.sql']);
    expect(await probeValue(db!)).toBe(2);
    expect(await migrate(db!, MIGRATIONS_DIR, dir)).toEqual([]);

    // Line endings alone are no change.
    await writeFile(path.join(dir, 'probe.sql'), probe(2, 2).replaceAll('\n', '\r\n'));
    expect(await migrate(db!, MIGRATIONS_DIR, dir)).toEqual([]);
  });

  it('leaves a newer function alone when an older build starts', async () => {
    const [db] = await freshDatabase();
    const newer = await functionsFolder({ 'probe.sql': probe(2, 2) });
    const older = await functionsFolder({ 'probe.sql': probe(1, 1) });
    await migrate(db!, MIGRATIONS_DIR, newer);
    // During a deploy an instance of the previous build (re)starts: its file is older.
    expect(await migrate(db!, MIGRATIONS_DIR, older)).toEqual([]);
    expect(await probeValue(db!)).toBe(2);
    expect(await db!.query('SELECT version FROM schema_functions')).toEqual([{ version: 2 }]);
  });

  it('stops on a function file changed without a new version, naming it, and applies nothing', async () => {
    const [db] = await freshDatabase();
    const dir = await functionsFolder({ 'probe.sql': probe(1, 3) });
    await migrate(db!, MIGRATIONS_DIR, dir);
    await writeFile(path.join(dir, 'probe.sql'), probe(5, 3));
    await expect(migrate(db!, MIGRATIONS_DIR, dir)).rejects.toThrow(
      `SQL function file ${path.join(dir, 'probe.sql')} changed but kept version 3`,
    );
    expect(await probeValue(db!)).toBe(1);
  });

  it('stops on a function file without a version line, naming it', async () => {
    const [db] = await freshDatabase();
    const dir = await functionsFolder({
      'probe.sql': probe(1).replace('-- version: 1\n', ''),
    });
    await expect(migrate(db!, MIGRATIONS_DIR, dir)).rejects.toThrow(
      `SQL function file ${path.join(dir, 'probe.sql')} has no "-- version: N" line`,
    );
    expect(await db!.query("SELECT proname FROM pg_proc WHERE proname = 'signpost_probe'")).toEqual(
      [],
    );
  });

  it('lets two instances migrate one database at once: each step runs once', async () => {
    const [first, second] = await freshDatabase(2);
    const results = await Promise.all([migrate(first!), migrate(second!)]);
    const migrations = await versioned();
    expect(results.flat().sort()).toEqual([...migrations, 'functions/menu.sql'].sort());
    expect(await first!.query('SELECT name FROM schema_migrations ORDER BY name')).toEqual(
      migrations.map((name) => ({ name })),
    );
    expect(await second!.query('SELECT count(*)::int AS n FROM schema_functions')).toEqual([
      { n: 1 },
    ]);
  });

  it('fails on a broken function file, naming it, and applies none of the function files', async () => {
    const [db] = await freshDatabase();
    const dir = await functionsFolder({
      'a-good.sql': probe(1),
      'b-broken.sql':
        '-- version: 1\nCREATE OR REPLACE FUNCTION signpost_broken() RETURNS int LANGUAG sql;\n',
    });
    const failure = migrate(db!, MIGRATIONS_DIR, dir);
    await expect(failure).rejects.toThrow(
      `SQL function file ${path.join(dir, 'b-broken.sql')} failed, no function file was applied: syntax error`,
    );
    expect(
      await db!.query("SELECT proname FROM pg_proc WHERE proname LIKE 'signpost_probe'"),
    ).toEqual([]);
    expect(await db!.query('SELECT name FROM schema_functions')).toEqual([]);
    // The numbered migrations before it stand; fixing the file lets the next start finish.
    expect(await db!.query('SELECT count(*)::int AS n FROM schema_migrations')).toEqual([
      { n: (await versioned()).length },
    ]);
    await writeFile(path.join(dir, 'b-broken.sql'), probe(0).replaceAll('probe', 'broken'));
    expect(await migrate(db!, MIGRATIONS_DIR, dir)).toEqual([
      'functions/a-good.sql',
      'functions/b-broken.sql',
    ]);
    expect(await probeValue(db!)).toBe(1);
  });
});
