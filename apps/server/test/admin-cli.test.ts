// `npm run admin -- <command>` run as the operator runs it: a child process on the
// server's database (an embedded data folder, or a fresh PostgreSQL database), asserting
// its exit code, its output and the rows it leaves.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, selectRows, type Database } from '../src/db/client.ts';
import {
  accessTokens,
  auditLog,
  collections,
  organizations,
  sessions,
  users,
} from '../src/db/schema/index.ts';
import { QUEUES } from '../src/jobs/queues.ts';
import { newId } from '../src/lib/ids.ts';
import { freshPostgres } from './app.ts';
import { createUser, PASSWORD } from './factories.ts';

const entry = fileURLToPath(new URL('../src/admin.ts', import.meta.url));
const onPostgres = process.env.SIGNPOST_TEST_DB === 'postgres';

let env: Record<string, string> = {};
let cleanup = async () => {};
beforeAll(async () => {
  if (onPostgres) {
    const pg = await freshPostgres();
    env = { DATABASE_URL: pg.url };
    cleanup = pg.drop;
  } else {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'signpost-admin-'));
    env = { DATA_DIR: dataDir };
    cleanup = () => rm(dataDir, { recursive: true, force: true });
  }
});
afterAll(() => cleanup());

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs one command; `input` is written to its standard input. */
function admin(args: string[], options: { input?: string; password?: string } = {}) {
  return new Promise<Run>((resolve, reject) => {
    const { SIGNPOST_ADMIN_PASSWORD: _, DATABASE_URL: __, ...inherited } = process.env;
    const child = spawn(process.execPath, ['--import', 'tsx', entry, ...args], {
      env: {
        ...inherited,
        ...env,
        LOG_LEVEL: 'silent',
        ...(options.password ? { SIGNPOST_ADMIN_PASSWORD: options.password } : {}),
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

/** Opens the database the commands use (the embedded one serves one process at a time). */
async function withDatabase<T>(work: (db: Database) => Promise<T>): Promise<T> {
  const database = await openDatabase({
    url: env.DATABASE_URL ?? null,
    dataDir: env.DATA_DIR ?? null,
  });
  try {
    return await work(database.db);
  } finally {
    await database.close();
  }
}

function expectError(run: Run, code: number, message: RegExp) {
  expect(run.code).toBe(code);
  expect(run.stdout).toBe('');
  expect(run.stderr).toMatch(/^signpost admin: /);
  expect(run.stderr.trim().split('\n')).toHaveLength(1);
  expect(run.stderr).toMatch(message);
}

describe('npm run admin', { timeout: 300_000 }, () => {
  it('explains itself, and refuses what it does not know with exit 2', async () => {
    const help = await admin(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: npm run admin -- <command>/);
    for (const command of [
      'migrate',
      'create-organization',
      'reset-password',
      'make-admin',
      'disable',
    ]) {
      expect(help.stdout).toContain(command);
    }
    // The whole table is in src/admin-arguments.test.ts; here, that it reaches the exit code.
    const [unknown, password] = await Promise.all([
      admin(['frobnicate']),
      admin(['reset-password', '--email', 'a@b.test', '--password', 'secret-123']),
    ]);
    expectError(unknown, 2, /unknown command "frobnicate"/);
    expectError(password, 2, /never an argument/);
  });

  it('migrate brings an empty database up to date once, as a deploy step runs it', async () => {
    const first = await admin(['migrate']);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^Applied \d+: 0001_[a-z_]+\.sql, /);
    const names = await withDatabase(async (db) =>
      (await selectRows<{ name: string }>(db, sql`SELECT name FROM schema_migrations`)).map(
        (row) => row.name,
      ),
    );
    expect(names.length).toBeGreaterThan(10);
    if (onPostgres) {
      // The job queue's schema and every queue: nothing left for the instances to create.
      expect(first.stdout).toContain(', pgboss, queue send-mail, queue link-icons');
      const queues = await withDatabase(async (db) =>
        (await selectRows<{ name: string }>(db, sql`SELECT name FROM pgboss.queue`)).map(
          (row) => row.name,
        ),
      );
      expect(queues).toEqual(expect.arrayContaining(QUEUES.map((queue) => queue.name)));
      expect(queues).toContain('__pgboss__send-it');
    }
    const again = await admin(['migrate']);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe('The database is up to date.\n');
  });

  let organizationId = '';
  it('create-organization makes the organization and its administrator once', async () => {
    const args = ['create-organization', '--name', 'Acme', '--admin-name', 'Ada Admin'];
    expectError(
      await admin([...args, '--admin-email', 'ada@acme.test'], { input: 'short\n' }),
      2,
      /password must be 8 to 128 characters/,
    );
    expectError(
      await admin([...args, '--admin-email', 'ada@acme.test']),
      2,
      /no password: set SIGNPOST_ADMIN_PASSWORD/,
    );

    const created = await admin([...args, '--admin-email=Ada@Acme.test'], {
      password: PASSWORD,
    });
    expect(created.stderr).toBe('');
    expect(created.stdout).toMatch(/^Created the organization "Acme" with the administrator/);
    expect(created.code).toBe(0);

    expectError(
      await admin(
        ['create-organization', '--name', 'Other', '--admin-name', 'Eve', '--admin-email=e@x.test'],
        { input: `${PASSWORD}\n` },
      ),
      1,
      /already set up/,
    );

    await withDatabase(async (db) => {
      const orgs = await db.select().from(organizations);
      expect(orgs.map((o) => o.name)).toEqual(['Acme']);
      organizationId = orgs[0]!.id;
      const [ada] = await db.select().from(users);
      expect(ada).toMatchObject({ email: 'Ada@Acme.test', role: 'admin', status: 'active' });
      const [root] = await db
        .select()
        .from(collections)
        .where(eq(collections.ownerUserId, ada!.id));
      expect(root).toMatchObject({ isRoot: true, name: 'My Space' });
      const entries = await db.select().from(auditLog);
      expect(entries.map((e) => e.action).sort()).toEqual([
        'organization.created',
        'person.created',
        'setup.completed',
      ]);
      for (const e of entries) {
        expect(e).toMatchObject({ actorId: null, details: { via: 'command line' } });
      }
    });
  });

  it('make-admin, reset-password and disable act on a person found by e-mail', async () => {
    expectError(await admin(['make-admin', '--email', 'nobody@acme.test']), 1, /Nobody has/);
    expectError(
      await admin(['disable', '--email', 'ada@acme.test']),
      1,
      /last active administrator/,
    );

    const { bob, sessionId, firstToken } = await withDatabase(async (db) => {
      const bob = await createUser(db, organizationId, { email: 'bob@acme.test' });
      const sessionId = newId();
      await db.insert(sessions).values({
        id: sessionId,
        userId: bob.id,
        tokenHash: `hash-${sessionId}`,
        expiresAt: new Date(Date.now() + 3600_000),
      });
      return { bob, sessionId, firstToken: await accessTokenOf(db, bob.id) };
    });

    const promoted = await admin(['make-admin', '--email', 'BOB@acme.test']);
    expect(promoted.code).toBe(0);
    expect(promoted.stdout).toBe('bob@acme.test is now an administrator.\n');

    expectError(
      await admin(['reset-password', '--email', 'bob@acme.test'], {
        input: `${'x'.repeat(129)}\n`,
      }),
      2,
      /password must be 8 to 128/,
    );
    const reset = await admin(['reset-password', '--email', 'bob@acme.test'], {
      input: 'a new password for bob\n',
    });
    expect(reset.code).toBe(0);
    expect(reset.stdout).toMatch(/ended 1 session and revoked 1 access token\./);
    // A token made after the reset, with the new password, is revoked when bob is disabled.
    const secondToken = await withDatabase(async (db) => {
      const [first] = await db.select().from(accessTokens).where(eq(accessTokens.id, firstToken));
      expect(first!.revokedAt).toBeInstanceOf(Date);
      return accessTokenOf(db, bob.id);
    });

    const disabled = await admin(['disable', '--email', 'bob@acme.test']);
    expect(disabled.code).toBe(0);
    expect(disabled.stdout).toMatch(/bob@acme.test is disabled/);

    await withDatabase(async (db) => {
      const [row] = await db.select().from(users).where(eq(users.id, bob.id));
      expect(row).toMatchObject({ role: 'admin', status: 'disabled' });
      expect(row!.passwordHash).toMatch(/^\$argon2id\$/);
      const [session] = await db.select().from(sessions).where(eq(sessions.id, sessionId));
      expect(session!.revokedAt).toBeInstanceOf(Date);
      // Revoked for good: enabling bob again in the console brings no token back.
      const [token] = await db.select().from(accessTokens).where(eq(accessTokens.id, secondToken));
      expect(token!.revokedAt).toBeInstanceOf(Date);
      const entries = await db
        .select()
        .from(auditLog)
        .where(eq(auditLog.targetId, bob.id))
        .orderBy(asc(auditLog.occurredAt));
      expect(entries.map((e) => [e.action, e.before, e.after])).toEqual([
        ['person.role-changed', { role: 'member' }, { role: 'admin' }],
        ['password.reset', null, null],
        ['person.disabled', { status: 'active' }, { status: 'disabled' }],
      ]);
      for (const e of entries) {
        expect(e).toMatchObject({ organizationId, actorId: null });
        expect(e.details).toMatchObject({ via: 'command line' });
      }
      expect(entries.map((e) => e.details).slice(1)).toEqual([
        { via: 'command line', sessionsEnded: 1, accessTokensRevoked: 1 },
        { via: 'command line', sessionsEnded: 0, accessTokensRevoked: 1 },
      ]);
    });
  });
});

/** A live access token of the person, written straight into the database; its id. */
async function accessTokenOf(db: Database, userId: string): Promise<string> {
  const id = newId();
  await db.insert(accessTokens).values({
    id,
    userId,
    name: 'script',
    tokenHash: `hash-${id}`,
    tokenHint: 'spat_test',
  });
  return id;
}
