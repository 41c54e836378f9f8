// Times the peer search statement, query shape by query shape, on a database that holds a
// data set of `npm run bench:data`, and checks each page against the plain statement (the
// definition of the search):
//
//   npx tsx apps/server/bench/peer-plans.ts --database-url postgres://…/mydb [--explain]
//
// Each shape runs 7 times; the table shows the median and the slowest execution time that
// EXPLAIN ANALYZE reports (server time, without the round trip). --explain prints the plan
// of every shape.
//
// --directory times the people directory instead (decisions 0060 and 0072): it builds the
// organization's directory as the server does, then answers each shape from memory (median
// and slowest of 7, in microseconds) and checks every page against the plain statement.
import { parseArgs } from 'node:util';
import { sql, type SQL } from 'drizzle-orm';
import { openDatabase, selectRows, type Executor } from '../src/db/client.ts';
import {
  escapeLike,
  peerSearchQuery,
  type PeerRow,
  type PeerSearch,
} from '../src/modules/peers/peers.repository.ts';
import { createDirectoryRepository } from '../src/modules/directory/directory.repository.ts';
import { createPeopleDirectory } from '../src/modules/directory/directory.service.ts';
import { BENCH_EMAIL } from './dataset.ts';
import { peerPaths } from './target.ts';

/** The search as written before any tuning: the reference for the rows of every page. */
export function plainPeerQuery({
  organizationId,
  excludeUserId,
  limit,
  offset,
  query,
}: PeerSearch): SQL {
  const pattern = sql`'%' || lower(${escapeLike(query)}::text) || '%'`;
  const match = query
    ? sql`AND (lower(name) LIKE ${pattern} ESCAPE '\\' OR lower(email) LIKE ${pattern} ESCAPE '\\')`
    : sql``;
  return sql`SELECT id, name, email FROM users
             WHERE organization_id = ${organizationId} AND status = 'active'
               AND id <> ${excludeUserId} ${match}
             ORDER BY lower(name), id LIMIT ${limit} OFFSET ${offset}`;
}

/** Query shapes: [label, query, offset]. */
export const SHAPES: readonly (readonly [string, string, number])[] = [
  ['no query', '', 0],
  ['1 letter, common', 'a', 0],
  ['1 letter, rare', 'q', 0],
  ['1 character, no match', '_', 0],
  ['2 letters, common', 'an', 0],
  ['2 letters, late in the alphabet', 'qu', 0],
  ['2 letters, no match', 'zq', 0],
  ['3 letters, common', 'ann', 0],
  ['3 letters, rare', 'qui', 0],
  ['3 letters, rare', 'raf', 0],
  ['3 letters, rare', 'sak', 0],
  ['3 letters, rare', 'pab', 0],
  ['surname', 'becker', 0],
  ['full name', 'jakob becker', 0],
  ['every e-mail', 'bench.example', 0],
  ['no match', 'nomatchxyz', 0],
  ['no query, offset 1,000', '', 1000],
  ['no query, offset 10,000', '', 10_000],
  ['2 letters, offset 1,000', 'an', 1000],
  ['3 letters, offset 1,000', 'ann', 1000],
  ['every e-mail, offset 1,000', 'bench.example', 1000],
  ['3 letters rare, offset 500', 'qui', 500],
];

async function executionMs(db: Executor, query: SQL): Promise<{ ms: number; plan: string }> {
  const rows = await selectRows<{ 'QUERY PLAN': string }>(
    db,
    sql`EXPLAIN (ANALYZE, BUFFERS) ${query}`,
  );
  const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
  const ms = Number(/Execution Time: ([\d.]+) ms/.exec(plan)?.[1] ?? NaN);
  return { ms, plan };
}

async function main() {
  const { values } = parseArgs({
    options: {
      'database-url': { type: 'string' },
      explain: { type: 'boolean', default: false },
      plain: { type: 'boolean', default: false },
      runs: { type: 'string', default: '7' },
      'bench-queries': { type: 'boolean', default: false },
      directory: { type: 'boolean', default: false },
    },
  });
  if (!values['database-url']) throw new Error('give --database-url postgres://…');
  const runs = Number(values.runs);
  const handle = await openDatabase({ url: values['database-url'], dataDir: null, poolSize: 1 });
  try {
    const [me] = await handle.query<{ id: string; organization_id: string }>(
      'SELECT id, organization_id FROM users WHERE email = $1',
      [BENCH_EMAIL],
    );
    if (!me) throw new Error(`no ${BENCH_EMAIL} in that database: run npm run bench:data first`);
    const table: Record<string, string | number | undefined>[] = [];
    const directories = values.directory
      ? createPeopleDirectory({ db: handle.db, directory: createDirectoryRepository() })
      : null;
    const [org] = await handle.query<{ version: string }>(
      "SELECT coalesce(max(version), 0) AS version FROM menu_scopes WHERE scope = 'pe:' || $1",
      [me.organization_id],
    );
    const searcher = {
      organizationId: me.organization_id,
      userId: me.id,
      peopleVersion: Number(org?.version ?? 0),
    };
    if (directories) {
      const cpu = process.cpuUsage();
      const started = performance.now();
      await directories.searchPeers(searcher, '', 0, 1);
      await directories.ready(me.organization_id);
      const used = process.cpuUsage(cpu);
      const size = directories.sizeOf(me.organization_id);
      if (size === null) throw new Error('the directory was not built (see decision 0072)');
      process.stdout.write(
        `directory of ${size.toLocaleString('en-US')} people built in ${(performance.now() - started).toFixed(0)} ms ` +
          `(${((used.user + used.system) / 1000).toFixed(0)} ms of CPU), heap ${(process.memoryUsage().heapUsed / 1e6).toFixed(0)} MB\n`,
      );
    }
    // --bench-queries: the 280 queries of the benchmark's peer search instead of the shapes.
    const shapes = values['bench-queries']
      ? peerPaths().map(
          (p) => ['benchmark', new URL(p, 'http://x').searchParams.get('query') ?? '', 0] as const,
        )
      : SHAPES;
    for (const [label, query, offset] of shapes) {
      const search: PeerSearch = {
        organizationId: me.organization_id,
        excludeUserId: me.id,
        limit: 20,
        offset,
        query,
      };
      const statement = values.plain ? plainPeerQuery(search) : peerSearchQuery(search);
      const times: number[] = [];
      let plan = '';
      let got: PeerRow[] = [];
      if (directories) {
        // Microseconds, from memory.
        for (let i = 0; i < runs; i += 1) {
          const started = performance.now();
          got = (await directories.searchPeers(searcher, query, offset, 20)) ?? [];
          times.push((performance.now() - started) * 1000);
        }
      } else {
        for (let i = 0; i < runs; i += 1) {
          const run = await executionMs(handle.db, statement);
          times.push(run.ms);
          plan = run.plan;
        }
        got = await selectRows<PeerRow>(handle.db, statement);
      }
      times.sort((a, b) => a - b);
      const want = await selectRows<PeerRow>(handle.db, plainPeerQuery(search));
      const same = JSON.stringify(got) === JSON.stringify(want);
      table.push({
        shape: label,
        query,
        offset,
        rows: got.length,
        [directories ? 'median µs' : 'median ms']: times[Math.floor(runs / 2)]?.toFixed(2),
        [directories ? 'max µs' : 'max ms']: times[runs - 1]?.toFixed(2),
        'same rows': same ? 'yes' : 'NO',
      });
      if (values.explain && !directories)
        process.stdout.write(`\n== ${label}: "${query}" offset ${offset}\n${plan}\n`);
    }
    if (values['bench-queries']) {
      const unit = directories ? 'µs' : 'ms';
      const median = (row: (typeof table)[number]) => Number(row[`median ${unit}`]);
      const ms = table.map(median).sort((a, b) => a - b);
      const at = (q: number) => ms[Math.min(ms.length - 1, Math.floor(ms.length * q))];
      process.stdout.write(
        `${ms.length} queries: median ${at(0.5)} ${unit}, p90 ${at(0.9)} ${unit}, p99 ${at(0.99)} ${unit}, max ${at(1)} ${unit}\n`,
      );
      table.sort((a, b) => median(b) - median(a));
      table.splice(10);
    }
    console.table(table);
    if (table.some((row) => row['same rows'] !== 'yes')) process.exitCode = 1;
  } finally {
    await handle.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    process.stderr.write(`peer-plans: ${(error as Error).message}\n`);
    process.exit(1);
  });
}
