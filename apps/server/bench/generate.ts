// Writes a benchmark data set (docs/performance.md) into a database of your choice:
//
//   npm run bench:data -- --size reference --database-url postgres://…/signpost_bench
//   npm run bench:data -- --size typical --data-dir ./bench-data
//
// The database is migrated first. A database that already holds an organization is left
// alone unless --force is given; --force empties a database that holds nothing but data
// sets of this generator (it refuses when any other organization is there), then writes
// the data set again.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase, type DatabaseHandle } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';
import { dropBenchData, generate, PROFILES, type BenchData, type SizeName } from './dataset.ts';

export interface TargetOptions {
  databaseUrl: string | null;
  dataDir: string | null;
  size: SizeName;
  people?: number;
  force: boolean;
  log: (line: string) => void;
}

/** Opens, migrates, checks emptiness (or cleans with force) and generates. */
export async function generateInto(target: TargetOptions): Promise<BenchData> {
  if (!target.databaseUrl && target.dataDir) await mkdir(target.dataDir, { recursive: true });
  const handle: DatabaseHandle = await openDatabase({
    url: target.databaseUrl,
    dataDir: target.dataDir,
    poolSize: 2,
  });
  try {
    await migrate(handle);
    const [{ n } = { n: 0 }] = await handle.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM organizations',
    );
    if (n > 0) {
      if (!target.force) {
        throw new Error(
          `the database already holds ${n} organization(s); use an empty database, or --force ` +
            'to delete the data set this generator wrote before',
        );
      }
      const started = performance.now();
      const dropped = await handle.withConnection((conn) => dropBenchData(conn));
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      target.log(
        `  emptied the previous data set (${dropped.length} organization(s), ${seconds} s)`,
      );
    }
    return await generate(handle, { size: target.size, people: target.people, log: target.log });
  } finally {
    await handle.close();
  }
}

async function main() {
  const { values } = parseArgs({
    options: {
      size: { type: 'string', default: 'reference' },
      'database-url': { type: 'string' },
      'data-dir': { type: 'string' },
      people: { type: 'string' },
      force: { type: 'boolean', default: false },
    },
  });
  const size = values.size as SizeName;
  if (!(size in PROFILES)) throw new Error('--size must be reference or typical');
  const databaseUrl = values['database-url'] ?? null;
  const dataDir = values['data-dir'] ? path.resolve(values['data-dir']) : null;
  if (!databaseUrl === !dataDir) {
    throw new Error('give exactly one of --database-url postgres://… or --data-dir <dir>');
  }
  const people = values.people ? Number(values.people) : undefined;
  if (people !== undefined && !(Number.isInteger(people) && people > 0)) {
    throw new Error('--people must be a whole number');
  }
  const started = performance.now();
  const log = (line: string) => process.stdout.write(`${line}\n`);
  log(`Generating the ${size} data set into ${databaseUrl ? 'PostgreSQL' : dataDir}`);
  const data = await generateInto({ databaseUrl, dataDir, size, people, force: values.force, log });
  log(`Done in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
  log(`  people: ${data.people.toLocaleString('en-US')}, links in the menu: ${data.menuLinks}`);
  log(`  measured user: ${data.email} / ${data.password}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    process.stderr.write(`bench:data: ${(error as Error).message}\n`);
    process.exit(1);
  });
}
