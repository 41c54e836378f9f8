// People from a CSV file (decision 0085): 10,000 rows previewed, then imported in one
// transaction, through the service on a fresh migrated database of each kind — the embedded
// one (the budget) and PostgreSQL (for information). The organization already has 2,000
// people, 400 of whom the file names (changed: a new name and a team).
import pino from 'pino';
import type { AuthContext } from '../src/lib/auth-context.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';
import { insertPerson } from '../src/db/people.ts';
import { organizations, teams } from '../src/db/schema/index.ts';
import { newId } from '../src/lib/ids.ts';
import { composeServer } from '../src/root.ts';
import type { Row } from './report.ts';

const ROWS = 10_000;
const EXISTING = 2_000;
const TEAMS = 40;
const BUDGET_MS = 10_000;

export interface ImportBenchOptions {
  /** A fresh PostgreSQL database of its own, or null to measure on PGlite only. */
  pgUrl: string | null;
  /** The embedded database's folder. */
  dataDir: string;
  log: (line: string) => void;
}

/** The file: a header, then people with a role and one to three teams. */
function csvFile(): string {
  const lines = ['name,email,role,teams'];
  for (let i = 0; i < ROWS; i++) {
    // The first rows name people already there; the rest are new.
    const email = i < EXISTING / 5 ? `existing${i}@bench.test` : `imported${i}@bench.test`;
    const teamsOf = [i % TEAMS, (i * 7) % TEAMS, (i * 13) % TEAMS].slice(0, 1 + (i % 3));
    const names = [...new Set(teamsOf)].map((t) => `Team ${t}`).join(';');
    lines.push(`"Person ${i}, imported",${email},${i % 50 === 0 ? 'admin' : 'member'},${names}`);
  }
  return lines.join('\n');
}

async function measureOn(kind: 'pglite' | 'postgres', options: ImportBenchOptions) {
  const database = await openDatabase(
    kind === 'pglite'
      ? { url: null, dataDir: options.dataDir }
      : { url: options.pgUrl, dataDir: null },
  );
  try {
    await migrate(database);
    const config = loadConfig({ LOG_LEVEL: 'silent', OUTBOUND_REQUESTS: 'false' });
    const { services } = composeServer({ config, database, log: pino({ level: 'silent' }) });
    const { db } = database;
    const organizationId = newId();
    await db.insert(organizations).values({ id: organizationId, name: 'Benchmark' });
    await db.insert(teams).values(
      Array.from({ length: TEAMS }, (_, t) => ({
        id: newId(),
        organizationId,
        name: `Team ${t}`,
      })),
    );
    const adminId = await insertPerson(db, {
      organizationId,
      name: 'Bench Admin',
      email: 'admin@bench.test',
      role: 'admin',
      status: 'active',
      passwordHash: null,
    });
    for (let i = 0; i < EXISTING; i++) {
      await insertPerson(db, {
        organizationId,
        name: `Existing ${i}`,
        email: `existing${i}@bench.test`,
        role: 'member',
        status: 'active',
        passwordHash: null,
      });
    }
    const me: AuthContext = {
      sessionId: 'benchmark',
      accessTokenId: null,
      userId: adminId,
      name: 'Bench Admin',
      email: 'admin@bench.test',
      role: 'admin',
      organizationId,
      organizationName: 'Benchmark',
      menuScopes: null,
      peopleVersion: null,
      expiresAt: null,
      recentlyAuthenticated: true,
    } as AuthContext;
    const csv = csvFile();
    let started = performance.now();
    const preview = await services.peopleImport.preview(me, { csv });
    const previewMs = performance.now() - started;
    started = performance.now();
    const result = await services.peopleImport.apply(
      me,
      { csv, sendInvitations: false },
      { ip: null, userAgent: null },
    );
    const importMs = performance.now() - started;
    return { preview, result, previewMs, importMs };
  } finally {
    await database.close();
  }
}

export async function measureImport(options: ImportBenchOptions): Promise<Row[]> {
  const rows: Row[] = [];
  for (const kind of ['pglite', 'postgres'] as const) {
    if (kind === 'postgres' && !options.pgUrl) continue;
    options.log(`Measuring an import of ${ROWS.toLocaleString('en-US')} people (${kind})…`);
    const { preview, result, previewMs, importMs } = await measureOn(kind, options);
    const expected = { created: ROWS - EXISTING / 5, changed: EXISTING / 5 };
    const what = `people from a CSV file: ${ROWS.toLocaleString('en-US')} rows previewed, then imported in one transaction (${kind === 'pglite' ? 'PGlite' : 'PostgreSQL'})`;
    const note = `preview ${previewMs.toFixed(0)} ms, import ${importMs.toFixed(0)} ms; ${result.created} created, ${result.changed} changed`;
    const planned = () =>
      result.created === expected.created &&
      result.changed === expected.changed &&
      preview.refused.length === 0
        ? null
        : `planned ${result.created} / ${result.changed} / ${preview.refused.length} refused`;
    rows.push(
      kind === 'pglite'
        ? {
            what,
            budget: '≤ 10 s',
            checks: [
              planned,
              () =>
                previewMs + importMs <= BUDGET_MS
                  ? null
                  : `${(previewMs + importMs).toFixed(0)} ms > ${BUDGET_MS} ms`,
            ],
            note,
          }
        : { what, budget: 'for information', checks: [planned], note },
    );
  }
  return rows;
}
