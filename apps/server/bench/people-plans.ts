// Times the people list of the console, query shape by query shape, on a database that
// holds a data set of `npm run bench:data` (decision 0042):
//
//   npx tsx apps/server/bench/people-plans.ts --database-url postgres://…/mydb [--explain]
//
// Each shape runs 7 times; the table shows the median and the slowest execution time that
// EXPLAIN ANALYZE reports for the page of ids alone, and for the statement the server runs
// (the page and its rows, in one).
import { parseArgs } from 'node:util';
import { sql, type SQL } from 'drizzle-orm';
import { openDatabase, selectRows } from '../src/db/client.ts';
import {
  peopleListQuery,
  peoplePageQuery,
  type PeopleFilter,
} from '../src/modules/people/people-list.query.ts';
import { BENCH_EMAIL } from './dataset.ts';

const RUNS = 7;

async function main() {
  const { values } = parseArgs({
    options: { 'database-url': { type: 'string' }, explain: { type: 'boolean' } },
  });
  const url = values['database-url'];
  if (!url) throw new Error('--database-url is required');
  const handle = await openDatabase({ url, dataDir: null, poolSize: 1 });
  const db = handle.db;
  try {
    const [bench] = await selectRows<{ organizationId: string }>(
      db,
      sql`SELECT organization_id AS "organizationId" FROM users WHERE email = ${BENCH_EMAIL}`,
    );
    if (!bench) throw new Error('no benchmark data set in this database');
    const [team] = await selectRows<{ id: string }>(
      db,
      sql`SELECT id FROM teams WHERE organization_id = ${bench.organizationId} LIMIT 1`,
    );
    const base = { organizationId: bench.organizationId, cursor: null, limit: 50 };
    const shapes: [string, PeopleFilter][] = [
      ['first page', base],
      ['page after "m"', { ...base, cursor: { name: 'm', id: '' } }],
      ['search "an" (frequent, 2 chars)', { ...base, q: 'an' }],
      ['search "smith"', { ...base, q: 'smith' }],
      ['search "mar" (a first name\'s start)', { ...base, q: 'mar' }],
      ['search "ann"', { ...base, q: 'ann' }],
      ['search "zzqx" (no match)', { ...base, q: 'zzqx' }],
      ['search "a" (1 char)', { ...base, q: 'a' }],
      ['role admin', { ...base, role: 'admin' }],
      ['status disabled', { ...base, status: 'disabled' }],
      ['status invited', { ...base, status: 'invited' }],
      ['never signed in', { ...base, signIn: 'never' }],
      ['single sign-on', { ...base, signIn: 'sso' }],
      ['password', { ...base, signIn: 'password' }],
      ['team', { ...base, team: team?.id }],
      ['team + search "an"', { ...base, team: team?.id, q: 'an' }],
    ];
    const time = async (query: SQL) => {
      const times: number[] = [];
      for (let i = 0; i < RUNS; i += 1) {
        const rows = await selectRows<{ 'QUERY PLAN': { 'Execution Time': number }[] }>(
          db,
          sql`EXPLAIN (ANALYZE, FORMAT JSON) ${query}`,
        );
        times.push(rows[0]?.['QUERY PLAN'][0]?.['Execution Time'] ?? NaN);
      }
      times.sort((a, b) => a - b);
      return `${times[Math.floor(RUNS / 2)]?.toFixed(2)} / ${times[RUNS - 1]?.toFixed(2)} ms`;
    };
    console.log('| shape | page of ids (median / max) | whole statement (median / max) |');
    console.log('| --- | --- | --- |');
    for (const [label, filter] of shapes) {
      const page = peoplePageQuery(filter);
      const ids = (await selectRows<{ id: string }>(db, page)).map((r) => r.id);
      const whole = peopleListQuery(filter, 5);
      console.log(`| ${label} (${ids.length}) | ${await time(page)} | ${await time(whole)} |`);
      if (values.explain) {
        const plan = await selectRows<{ 'QUERY PLAN': string }>(
          db,
          sql`EXPLAIN (ANALYZE, BUFFERS) ${whole}`,
        );
        console.log(plan.map((r) => r['QUERY PLAN']).join('\n'));
      }
    }
  } finally {
    await handle.close();
  }
}

await main();
