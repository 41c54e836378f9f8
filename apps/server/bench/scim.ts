// SCIM's rows (decision 0084): the look-up an identity system makes before every create,
// over the data set's people, and a group of 5,000 members replaced by one PATCH.
import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import type { BenchData } from './dataset.ts';
import type { LoadResult } from './load.ts';
import { Prng } from './prng.ts';
import type { Row } from './report.ts';
import { p99AtMost } from './report.ts';

const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const GROUP_MEMBERS = 5_000;

/** A SCIM token of the data set's organization, written straight into the database. */
async function scimToken(url: string, data: BenchData): Promise<string> {
  const token = `spscim_${randomBytes(32).toString('base64url')}`;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(
      `INSERT INTO scim_tokens (id, organization_id, name, token_hash, token_hint, created_by_name)
       VALUES ($1, $2, 'Benchmark', $3, $4, 'benchmark')`,
      [
        randomBytes(16).toString('base64url').slice(0, 21),
        data.organizationId,
        createHash('sha256').update(token).digest('hex'),
        token.slice(0, 11),
      ],
    );
    return token;
  } finally {
    await client.end();
  }
}

/** Look-ups by userName of people drawn from the data set, as an identity system sends them. */
async function lookUps(url: string, data: BenchData): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const rows = await client.query<{ email: string }>(
      `SELECT email FROM users WHERE organization_id = $1 ORDER BY id LIMIT 20000`,
      [data.organizationId],
    );
    const rng = new Prng(84);
    const paths = Array.from({ length: 300 }, () => {
      const email = rng.pick(rows.rows).email;
      // Half as the address is stored, half in capitals: the comparison ignores case.
      const userName = rng.int(2) === 0 ? email : email.toUpperCase();
      return `/scim/v2/Users?filter=${encodeURIComponent(`userName eq "${userName}"`)}&startIndex=1&count=100`;
    });
    // And names nobody has: Entra's connection test, and a look-up before a create.
    for (let i = 0; i < 30; i++) {
      paths.push(
        `/scim/v2/Users?filter=${encodeURIComponent(`userName eq "nobody${i}@example.org"`)}`,
      );
    }
    return paths;
  } finally {
    await client.end();
  }
}

async function memberIds(url: string, data: BenchData): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const rows = await client.query<{ id: string }>(
      `SELECT id FROM users WHERE organization_id = $1 AND status <> 'disabled'
       ORDER BY id LIMIT $2`,
      [data.organizationId, GROUP_MEMBERS * 2],
    );
    return rows.rows.map((row) => row.id);
  } finally {
    await client.end();
  }
}

export interface ScimBenchOptions {
  base: string;
  pgUrl: string;
  data: BenchData;
  baseline: number | undefined;
  rounds: number;
  load: (options: {
    url: string;
    headers: Record<string, string>;
    paths: string[];
  }) => Promise<LoadResult>;
  log: (line: string) => void;
}

export async function measureScim({
  base,
  pgUrl,
  data,
  baseline,
  rounds,
  load,
  log,
}: ScimBenchOptions): Promise<Row[]> {
  const token = await scimToken(pgUrl, data);
  const headers = { authorization: `Bearer ${token}` };
  log('Measuring SCIM look-ups by userName…');
  const lookUp = await load({ url: base, headers, paths: await lookUps(pgUrl, data) });
  const rows: Row[] = [
    {
      what: `SCIM: GET /Users?filter=userName eq "…" over ${data.people.toLocaleString('en-US')} people`,
      load: lookUp,
      ...(baseline === undefined ? {} : { baseline }),
      budget: 'p99 ≤ 20 ms',
      checks: [p99AtMost(20)],
      expect: [200],
    },
  ];

  log(
    `Measuring a SCIM group of ${GROUP_MEMBERS.toLocaleString('en-US')} members replaced by PATCH…`,
  );
  const ids = await memberIds(pgUrl, data);
  const send = async (method: string, path: string, body: unknown) => {
    const started = performance.now();
    const response = await fetch(`${base}/scim/v2${path}`, {
      method,
      headers: { ...headers, 'content-type': 'application/scim+json' },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, ms: performance.now() - started, text };
  };
  const created = await send('POST', '/Groups', {
    displayName: `Benchmark group ${randomBytes(4).toString('hex')}`,
  });
  if (created.status !== 201 || ids.length < GROUP_MEMBERS * 2) {
    rows.push({
      what: `SCIM: a group of ${GROUP_MEMBERS.toLocaleString('en-US')} members replaced by one PATCH`,
      budget: '≤ 2 s',
      checks: [],
      skipped:
        created.status !== 201
          ? `POST /Groups answered ${created.status}`
          : `the data set has ${ids.length} people, fewer than ${GROUP_MEMBERS * 2}`,
    });
    return rows;
  }
  const groupId = (JSON.parse(created.text) as { id: string }).id;
  const halves = [ids.slice(0, GROUP_MEMBERS), ids.slice(GROUP_MEMBERS, GROUP_MEMBERS * 2)];
  const times: number[] = [];
  const statuses = new Set<number>();
  // Each round replaces every member: the first round adds 5,000, the next ones take 5,000
  // out and put 5,000 others in.
  for (let round = 0; round < rounds; round++) {
    const members = halves[round % 2]!.map((value) => ({ value }));
    const replaced = await send('PATCH', `/Groups/${groupId}`, {
      schemas: [PATCH],
      Operations: [{ op: 'replace', path: 'members', value: members }],
    });
    statuses.add(replaced.status);
    times.push(replaced.ms);
  }
  const sorted = [...times].sort((a, b) => a - b);
  const slowest = sorted.at(-1)!;
  rows.push({
    what: `SCIM: a group of ${GROUP_MEMBERS.toLocaleString('en-US')} members replaced by one PATCH (${rounds} rounds)`,
    budget: '≤ 2 s each',
    checks: [
      () =>
        statuses.size === 1 && statuses.has(200) ? null : `answers ${[...statuses].join(', ')}`,
      () => (slowest <= 2000 ? null : `slowest ${slowest.toFixed(0)} ms > 2,000 ms`),
    ],
    note: `each ${times.map((ms) => `${ms.toFixed(0)} ms`).join(', ')}; median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(0)} ms`,
  });
  return rows;
}
