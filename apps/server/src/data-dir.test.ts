// Every problem with DATA_DIR stops the server with one line that names the folder and what
// is wrong (decision 0050). Problems that can be made for real on any machine are made and
// the real server is started on them; the others (a read-only file system, a full disk,
// another user's folder — the tests may run as root, which ignores permissions) are checked
// through the mapping of their error codes, from Node and from PGlite's file system.
import { spawnSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkDataDir,
  DataDirError,
  describeDataDirError,
  EMBEDDED_POSTGRES_MAJOR,
  makeFolders,
} from './data-dir.ts';
import { EMBEDDED_SETTINGS, EMBEDDED_WASM_FLAGS, openDatabase } from './db/client.ts';

const main = fileURLToPath(new URL('./main.ts', import.meta.url));
let root: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'signpost-data-dir-'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

function start(dataDir: string, as: { uid: number; gid: number } | null = null) {
  return spawnSync(process.execPath, ['--import', 'tsx', main, '--no-demo'], {
    env: { ...process.env, LOG_LEVEL: 'silent', DATA_DIR: dataDir, PORT: '0' },
    encoding: 'utf8',
    timeout: 60_000,
    ...as,
  });
}

/** Starts the server on each folder and expects its one line, ending with what is wrong. */
function expectRefused(cases: [string, RegExp][], as: { uid: number; gid: number } | null = null) {
  for (const [dataDir, why] of cases) {
    const result = start(dataDir, as);
    expect(result.status, dataDir).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines, dataDir).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^signpost: DATA_DIR ${dataDir} cannot be used: `));
    expect(lines[0]).toMatch(why);
  }
}

/** An error of Node's file system with this code. */
const fsError = (code: string) => Object.assign(new Error(`${code}: refused, mkdir`), { code });

describe('the server started on a bad DATA_DIR', () => {
  it(
    'stops with one line for a file in the folder’s place, and for other files in it',
    {
      timeout: 120_000,
    },
    async () => {
      const file = path.join(root, 'a-file');
      await writeFile(file, 'not a folder');
      const other = path.join(root, 'other-files');
      await mkdir(other);
      await writeFile(path.join(other, 'notes.txt'), 'mine');
      const cases: [string, RegExp][] = [
        [file, /it is a file, not a folder$/],
        [
          path.join(file, 'data'),
          /a file stands where a folder of its path should be \(ENOTDIR\)$/,
        ],
        [other, /it holds other files \(notes\.txt\) and no database/],
      ];
      expectRefused(cases);
      // Nothing was written into the folder of other files.
      expect(await readFile(path.join(other, 'notes.txt'), 'utf8')).toBe('mine');
    },
  );
});

describe('the server started on a DATA_DIR it may not write to', () => {
  it(
    'on a read-only file system: says so, whether the folder is there or is to be made',
    { timeout: 120_000 },
    async () => {
      // A read-only bind mount of a folder of ours. Mounting needs root (CAP_SYS_ADMIN), which
      // the tests have where they run as root; where the mount is refused, this test checks
      // what it can without one — that a level refused with EROFS comes back as EROFS, not as
      // Node's ENOENT, and is told as a read-only file system — and says so in its log.
      const source = path.join(root, 'read-only-source');
      const target = path.join(root, 'read-only');
      await mkdir(path.join(source, 'database'), { recursive: true });
      await writeFile(path.join(source, 'database', 'PG_VERSION'), `${EMBEDDED_POSTGRES_MAJOR}\n`);
      await mkdir(target);
      const mounted =
        spawnSync('mount', ['--bind', source, target]).status === 0 &&
        // Older mount programs ignore `ro` on a bind: made read-only in a second step.
        (spawnSync('mount', ['-o', 'remount,bind,ro', target]).status === 0 ||
          (spawnSync('umount', [target]), false));
      if (!mounted) {
        console.warn('data-dir.test: no read-only mount here (not root?); checking the mapping');
        await expect(
          makeFolders(path.join(root, 'made', 'data'), () => Promise.reject(fsError('EROFS'))),
        ).rejects.toMatchObject({ code: 'EROFS' });
        expect(describeDataDirError(target, fsError('EROFS'))).toBe(
          `DATA_DIR ${target} cannot be used: it is on a read-only file system (EROFS)`,
        );
        return;
      }
      try {
        // Read-only indeed.
        await expect(writeFile(path.join(target, 'probe'), 'x')).rejects.toMatchObject({
          code: 'EROFS',
        });
        // The server itself, on a folder to be made (where Node's mkdir said ENOENT)…
        expectRefused([
          [
            path.join(target, 'deeper', 'data'),
            /: it cannot be made: it is on a read-only file system \(EROFS\)$/,
          ],
        ]);
        // …and the check it runs first, on the other cases: an empty folder, a database's.
        for (const [folder, why] of [
          [target, 'it is on a read-only file system (EROFS)'],
          [path.join(target, 'database'), 'it is on a read-only file system (EROFS)'],
          [
            path.join(target, 'data'),
            'it cannot be made: it is on a read-only file system (EROFS)',
          ],
        ] as const) {
          await expect(checkDataDir(folder)).rejects.toThrow(
            new DataDirError(`DATA_DIR ${folder} cannot be used: ${why}`),
          );
        }
      } finally {
        expect(spawnSync('umount', [target]).status).toBe(0);
      }
    },
  );

  it(
    'owned by another user: says there is no permission to write there',
    { timeout: 120_000 },
    async () => {
      // A folder nobody but its owner may write to, and the server run as someone else: as
      // root, the tests run it as `nobody` (root itself ignores permissions); otherwise the
      // folder is made unwritable to its owner, the user the tests run as.
      const asRoot = process.getuid?.() === 0;
      const base = await mkdtemp(path.join(tmpdir(), 'signpost-data-dir-owned-'));
      try {
        const locked = path.join(base, 'locked');
        await mkdir(locked);
        await chmod(base, 0o755);
        await chmod(locked, asRoot ? 0o755 : 0o555);
        const why =
          'no permission to write there \\(is the folder owned by another user\\?\\) \\(EACCES\\)$';
        expectRefused(
          [
            [locked, new RegExp(`: ${why}`)],
            [path.join(locked, 'data'), new RegExp(`: it cannot be made: ${why}`)],
          ],
          asRoot ? { uid: 65534, gid: 65534 } : null,
        );
      } finally {
        await chmod(path.join(base, 'locked'), 0o755).catch(() => {});
        await rm(base, { recursive: true, force: true });
      }
    },
  );
});

describe('makeFolders', () => {
  it('makes every missing level, and leaves what is there', async () => {
    const folder = path.join(root, 'levels', 'a', 'b');
    await makeFolders(folder);
    await makeFolders(folder);
    const { stat } = await import('node:fs/promises');
    expect((await stat(folder)).isDirectory()).toBe(true);
  });

  it.each(['EROFS', 'EACCES', 'EPERM', 'EDQUOT', 'ENOSPC'])(
    'answers a level refused with %s with that code, never ENOENT',
    async (code) => {
      const made: string[] = [];
      const refusing = async (level: string) => {
        made.push(level);
        throw fsError(code);
      };
      const folder = path.join(root, 'refused', 'data');
      await expect(makeFolders(folder, refusing)).rejects.toMatchObject({ code });
      // The first missing level was tried, and nothing under it.
      expect(made).toEqual([path.join(root, 'refused')]);
      expect(describeDataDirError(folder, fsError(code))).toMatch(new RegExp(`\\(${code}\\)$`));
    },
  );

  it('goes on past a level another process made meanwhile', async () => {
    const folder = path.join(root, 'raced', 'data');
    const made: string[] = [];
    await makeFolders(folder, async (level) => {
      made.push(level);
      await mkdir(level);
      if (level === path.join(root, 'raced')) throw fsError('EEXIST');
    });
    expect(made).toEqual([path.join(root, 'raced'), folder]);
  });
});

describe('checkDataDir', () => {
  it('refuses a data folder of another PostgreSQL version, naming both versions', async () => {
    const folder = path.join(root, 'postgres-15');
    await mkdir(path.join(folder, 'base'), { recursive: true });
    await writeFile(path.join(folder, 'PG_VERSION'), '15\n');
    await expect(checkDataDir(folder)).rejects.toThrow(
      new DataDirError(
        `DATA_DIR ${folder} cannot be used: it holds a PostgreSQL 15 database; the embedded ` +
          `database is PostgreSQL ${EMBEDDED_POSTGRES_MAJOR} (a data folder of another ` +
          'PostgreSQL cannot be opened)',
      ),
    );
  });

  it('makes a missing folder, accepts an empty one, and leaves no probe behind', async () => {
    const folder = path.join(root, 'new', 'data');
    await checkDataDir(folder);
    await checkDataDir(folder);
    const { readdir } = await import('node:fs/promises');
    expect(await readdir(folder)).toEqual([]);
  });

  it('accepts the embedded database’s own folder, of the version it expects', async () => {
    const folder = path.join(root, 'embedded');
    const client = new PGlite(folder);
    await client.waitReady;
    await client.close();
    expect((await readFile(path.join(folder, 'PG_VERSION'), 'utf8')).trim()).toBe(
      EMBEDDED_POSTGRES_MAJOR,
    );
    await expect(checkDataDir(folder)).resolves.toBeUndefined();
  }, 60_000);
});

describe('the embedded database’s settings (decision 0061)', () => {
  /** What PostgreSQL answers for each setting, and for what it derives from them. */
  async function shown(dataDir: string | null) {
    const database = await openDatabase({ url: null, dataDir });
    try {
      const answers: Record<string, string> = {};
      for (const name of [...Object.keys(EMBEDDED_SETTINGS), 'wal_buffers']) {
        const [row] = await database.query<Record<string, string>>(`SHOW ${name}`);
        answers[name] = row?.[name] ?? '';
      }
      return answers;
    } finally {
      await database.close();
    }
  }

  it('starts a data folder with them at every start, leaving its postgresql.conf as it was', async () => {
    expect(EMBEDDED_SETTINGS).toEqual({ shared_buffers: '8MB' });
    const folder = path.join(root, 'settings');
    // wal_buffers follows the shared buffers (1/32 of them) rather than PostgreSQL's 4 MB.
    const expected = { ...EMBEDDED_SETTINGS, wal_buffers: '256kB' };
    expect(await shown(folder)).toEqual(expected);
    expect(await shown(folder)).toEqual(expected);
    // The folder keeps initdb's configuration: the settings are given at each start.
    const conf = await readFile(path.join(folder, 'postgresql.conf'), 'utf8');
    expect(conf).toMatch(/^shared_buffers = 128MB/m);
  }, 60_000);

  it('starts an in-memory database (the tests’ own) with them too', async () => {
    expect(await shown(null)).toEqual({ ...EMBEDDED_SETTINGS, wal_buffers: '256kB' });
  });

  it('sets V8 flags that this Node knows', () => {
    for (const flag of EMBEDDED_WASM_FLAGS) {
      const result = spawnSync(
        process.execPath,
        ['-e', `require('node:v8').setFlagsFromString(${JSON.stringify(flag)})`],
        { encoding: 'utf8' },
      );
      expect(result.status).toBe(0);
      // V8 answers an unknown flag on stderr, and goes on as if nothing happened.
      expect(result.stderr).toBe('');
    }
  });
});

describe('describeDataDirError', () => {
  const dir = '/srv/signpost';
  it.each([
    [
      { code: 'EACCES' },
      'no permission to write there (is the folder owned by another user?) (EACCES)',
    ],
    [
      { code: 'EPERM' },
      'no permission to write there (is the folder owned by another user?) (EPERM)',
    ],
    [{ code: 'EROFS' }, 'it is on a read-only file system (EROFS)'],
    [{ code: 'ENOSPC' }, 'the disk is full (ENOSPC)'],
    [{ code: 'EDQUOT' }, 'the disk quota is used up (EDQUOT)'],
    // PGlite's file system throws objects with a WASI errno and no message.
    [{ name: 'ErrnoError', errno: 51 }, 'the disk is full (ENOSPC)'],
    [{ name: 'ErrnoError', errno: 69 }, 'it is on a read-only file system (EROFS)'],
    [
      { name: 'ErrnoError', errno: 2 },
      'no permission to write there (is the folder owned by another user?) (EACCES)',
    ],
  ])('%j is one line naming DATA_DIR and the cause', (error, why) => {
    expect(describeDataDirError(dir, Object.assign(new Error('x'), error))).toBe(
      `DATA_DIR ${dir} cannot be used: ${why}`,
    );
    const plain = describeDataDirError(dir, { ...error });
    expect(plain).toBe(`DATA_DIR ${dir} cannot be used: ${why}`);
    expect(plain).not.toMatch(/\[object Object\]|\n/);
  });

  it('names the folder when PGlite gives no reason', () => {
    const line = describeDataDirError(dir, new Error('PGlite failed to initialize properly'));
    expect(line).toBe(
      `DATA_DIR ${dir} cannot be opened as the embedded database: PGlite failed to initialize ` +
        'properly (is it damaged, or a folder of another program?)',
    );
    expect(describeDataDirError(dir, { some: 'object' })).not.toMatch(/\[object Object\]/);
  });
});
